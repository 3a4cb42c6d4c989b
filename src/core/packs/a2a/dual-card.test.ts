import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../index.ts";

const card03 = {
  name: "agent",
  description: "d",
  url: "http://127.0.0.1:1/jsonrpc",
  version: "1.0.0",
  protocolVersion: "0.3.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "Echo", description: "e", tags: [] }],
};
const v1Interfaces = [{ url: "http://127.0.0.1:1/jsonrpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" }];

describe("a card serving v0.3 and v1.0 alike", () => {
  it("is judged by the v0.3 it declares and valid, its v1.0 interfaces a warning that says why", () => {
    const v = createValidationEngine().session().validateText(JSON.stringify({ ...card03, supportedInterfaces: v1Interfaces }));
    expect([v.status, v.packId, v.kindId]).toEqual(["valid", "a2a/v0.3.0", "card"]);
    const era = v.issues.filter((i) => i.rule === "era.member");
    expect(era.map((i) => [i.pointer, i.severity])).toEqual([["/supportedInterfaces", "warning"]]);
    expect(era[0]!.message).toMatch(/serves v0\.3 and v1\.0 alike/);
  });

  it("still mixes eras with any other v1.0 member, which stays an error", () => {
    const v = createValidationEngine().session().validateText(JSON.stringify({ ...card03, supportedInterfaces: v1Interfaces, securityRequirements: [] }));
    expect(v.status).toBe("invalid");
    expect(v.issues.filter((i) => i.severity === "error").map((i) => i.pointer)).toContain("/securityRequirements");
  });
});
