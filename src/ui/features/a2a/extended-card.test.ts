import { describe, expect, it } from "vitest";
import { cardInterfaces, extendedCardWay, readCardDialect, type FetchedCard } from "../../../core/a2a/index.ts";
import { cardBase, extendedCardRequest } from "./extended-card.ts";

function fetched(url: string, card: Record<string, unknown>): FetchedCard {
  const dialect = readCardDialect(card);
  return { url, text: JSON.stringify(card), card, dialect, interfaces: cardInterfaces(card), extended: extendedCardWay(card, dialect.dialect), headers: {} };
}

describe("extended card requests", () => {
  it("finds the base beside the well-known card", () => {
    expect(cardBase("http://h:1/a/.well-known/agent.json")).toBe("http://h:1/a");
    expect(cardBase("http://h:1/api/agentCard/v1.0")).toBe("http://h:1");
  });

  it("asks each version its own way", () => {
    const v02 = fetched("http://h/.well-known/agent.json", { name: "a", url: "http://h/", securitySchemes: {}, supportsAuthenticatedExtendedCard: true });
    expect(extendedCardRequest(v02, undefined, {})).toMatchObject({ spec: { method: "GET", url: "http://h/agent/authenticatedExtendedCard" } });
    const v03 = fetched("http://h/.well-known/agent-card.json", { name: "a", url: "http://h/rpc", protocolVersion: "0.3.0", supportsAuthenticatedExtendedCard: true, additionalInterfaces: [{ url: "http://h/rest", transport: "HTTP+JSON" }] });
    const rpc = extendedCardRequest(v03, undefined, {});
    expect(typeof rpc !== "string" && JSON.parse(rpc.spec.body ?? "{}").method).toBe("agent/getAuthenticatedExtendedCard");
    const rest = extendedCardRequest(v03, v03.interfaces[1], {});
    expect(rest).toMatchObject({ spec: { method: "GET", url: "http://h/rest/v1/card" } });
    const v10 = fetched("http://h/.well-known/agent-card.json", { name: "a", capabilities: { extendedAgentCard: true }, supportedInterfaces: [{ url: "http://h/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }] });
    expect(extendedCardRequest(v10, undefined, {})).toMatchObject({ spec: { method: "GET", url: "http://h/rest/extendedAgentCard" } });
    const none = fetched("http://h/.well-known/agent-card.json", { name: "a", capabilities: {}, supportedInterfaces: [] });
    expect(extendedCardRequest(none, undefined, {})).toMatch(/^the card offers no extended card/);
  });
});
