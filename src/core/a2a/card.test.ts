import { describe, expect, it } from "vitest";
import { cardInterfaces, dialectOfVersion, extendedCardWay, readCardDialect } from "./card.ts";
import { cardUrls } from "./card-fetch.ts";

const v01 = { name: "a", url: "http://h/a2a", version: "0.1.0", capabilities: { streaming: true }, skills: [], authentication: { schemes: ["bearer"] } };
const v02 = { name: "a", description: "d", url: "http://h/", version: "1", capabilities: {}, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [], securitySchemes: {} };
const v03 = { ...v02, protocolVersion: "0.3.0", preferredTransport: "JSONRPC", additionalInterfaces: [{ url: "http://h/rest", transport: "HTTP+JSON" }], supportsAuthenticatedExtendedCard: true };
const v10 = {
  name: "a",
  description: "d",
  version: "1",
  capabilities: { extendedAgentCard: true },
  supportedInterfaces: [
    { url: "http://h/", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: "http://h/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    { url: "http://h/", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    { url: "grpc://h", protocolBinding: "GRPC", protocolVersion: "1.0" },
  ],
};

describe("reading cards", () => {
  it("detects each dialect and says why", () => {
    expect(readCardDialect(v01)).toMatchObject({ dialect: "0.1", evidence: [expect.stringContaining("authentication")] });
    expect(readCardDialect(v02)).toMatchObject({ dialect: "0.2", evidence: [expect.stringContaining("securitySchemes")] });
    expect(readCardDialect(v03)).toMatchObject({ dialect: "0.3", evidence: ['protocolVersion "0.3.0"'] });
    expect(readCardDialect(v10).dialect).toBe("1.0");
    expect(readCardDialect(v10).evidence[0]).toContain("protocol versions 1.0, 0.3");
    expect(readCardDialect({ name: "x" })).toMatchObject({ dialect: undefined });
    expect(readCardDialect("<html>")).toMatchObject({ dialect: undefined, evidence: ["the card is not a JSON object"] });
  });

  it("reads a v0.3 card that also lists v1.0 interfaces as v0.3, offering every interface", () => {
    const hybrid = { ...v03, url: "http://h/", supportedInterfaces: v10.supportedInterfaces };
    const reading = readCardDialect(hybrid);
    expect(reading.dialect).toBe("0.3");
    expect(reading.evidence.join(" ")).toContain("also lists supportedInterfaces, protocol versions 1.0, 0.3");
    expect(cardInterfaces(hybrid).map((i) => `${i.binding}@${i.dialect}`)).toEqual(["jsonrpc@1.0", "rest@1.0", "jsonrpc@0.3", "undefined@1.0"]);
    expect(extendedCardWay(hybrid, reading.dialect)).toEqual({ kind: "rpc", dialect: "0.3" });
  });

  it("lists interfaces, preferred first, gRPC kept but marked unspeakable", () => {
    expect(cardInterfaces(v03).map((i) => [i.url, i.binding, i.dialect, i.preferred])).toEqual([
      ["http://h/", "jsonrpc", "0.3", true],
      ["http://h/rest", "rest", "0.3", false],
    ]);
    const v1 = cardInterfaces(v10);
    expect(v1.map((i) => `${i.binding}@${i.dialect}`)).toEqual(["jsonrpc@1.0", "rest@1.0", "jsonrpc@0.3", "undefined@1.0"]);
    expect(v1[3]!.bindingName).toBe("GRPC");
    expect(cardInterfaces(v01)).toEqual([{ url: "http://h/a2a", binding: "jsonrpc", bindingName: "JSONRPC", dialect: "0.1", version: "0.1", preferred: true }]);
  });

  it("knows how each version fetches its extended card", () => {
    expect(extendedCardWay(v10, "1.0")).toEqual({ kind: "rpc", dialect: "1.0" });
    expect(extendedCardWay(v03, "0.3")).toEqual({ kind: "rpc", dialect: "0.3" });
    expect(extendedCardWay({ ...v02, supportsAuthenticatedExtendedCard: true }, "0.2")).toEqual({ kind: "get", path: "/agent/authenticatedExtendedCard" });
    expect(extendedCardWay(v01, "0.1")).toBeUndefined();
  });

  it("maps version strings to dialects, refusing unknown ones", () => {
    expect(["0.1.0", "0.2.5", "0.3", "1.0", "1.2", "2.0", "x"].map(dialectOfVersion)).toEqual(["0.1", "0.2", "0.3", "1.0", "1.0", undefined, undefined]);
  });

  it("tries the new well-known path, then the old one; a card URL alone", () => {
    expect(cardUrls("http://h:1/")).toEqual(["http://h:1/.well-known/agent-card.json", "http://h:1/.well-known/agent.json"]);
    expect(cardUrls("http://h/api/agents/x/agentCard/v1.0")).toEqual(["http://h/api/agents/x/agentCard/v1.0"]);
    expect(cardUrls("http://h/custom/card.json")).toEqual(["http://h/custom/card.json"]);
    expect(cardUrls("http://h/base", true)).toEqual(["http://h/base"]);
  });
});
