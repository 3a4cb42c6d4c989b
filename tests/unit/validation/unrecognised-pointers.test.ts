import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import type { Verdict } from "../../../src/core/validation/types.ts";

/** A message that lost the member its kind is recognised by still gets a verdict that names the member. */

const engine = createValidationEngine();
const paste = (value: unknown): Verdict => engine.session().validateValue(value);
const at = (v: Verdict): string[] => v.issues.map((i) => `${i.pointer} ${i.message}`);

const fiskHeader = {
  id: "m1",
  request: "r1",
  conversation: "c1",
  sequence: 0,
  time: "2026-08-21T09:10:05Z",
  sender: { name: "caller" },
  recipient: { name: "agent" },
};

describe("discriminators gone", () => {
  it("a JSON-RPC message without method, result or error is unrecognised, saying what it lacks", () => {
    const v = paste({ jsonrpc: "2.0", id: 1, params: { name: "x" } });
    expect(v.status).toBe("unrecognised");
    expect(at(v)).toContain(' Missing required property "method".');
    expect(v.issues.some((i) => i.pointer === "" && /method .*result or error/.test(i.message))).toBe(true);
  });

  it("a method that is not a string is pointed at", () => {
    const v = paste({ jsonrpc: "2.0", id: 1, method: 42, params: {} });
    expect(v.status).toBe("unrecognised");
    expect(v.issues.some((i) => i.pointer === "/method")).toBe(true);
  });

  it("a fisk-ai message without its protocol is judged as the kind its members fit, the protocol its fault", () => {
    const v = paste({ ...fiskHeader, name: "stream_info", input: { stream: "S" } });
    expect([v.status, v.family, v.kindId]).toEqual(["invalid", "fisk-ai", "tool.request"]);
    expect(v.issues[0]).toMatchObject({ pointer: "", message: 'Missing required property "protocol".' });
  });

  it("a fisk-ai protocol of the wrong type stays unrecognised, as upstream leaves it", () => {
    expect(paste({ ...fiskHeader, protocol: 7, name: "x" }).status).toBe("unrecognised");
  });
});

describe("results whose telling member is broken", () => {
  it("an MCP result whose list is not an array is still judged as that list's result", () => {
    const v = paste({ jsonrpc: "2.0", id: 1, result: { tools: "[array]" } });
    expect([v.status, v.kindId]).toEqual(["invalid", "tools/list:result"]);
    expect(v.issues.some((i) => i.pointer === "/result/tools")).toBe(true);
  });

  it("an A2A message result with a misspelt kind is judged as a message result, pointing at the kind", () => {
    const v = paste({ jsonrpc: "2.0", id: 1, result: { kind: "messag", messageId: "m", role: "agent", parts: [{ kind: "text", text: "hi" }] } });
    expect([v.status, v.family]).toEqual(["invalid", "a2a"]);
    expect(v.issues.some((i) => i.pointer === "/result/kind")).toBe(true);
  });
});

describe("another era's members", () => {
  it("an initialize naming 2024-11-05 with 2025-06-18's elicitation capability is invalid at that member", () => {
    const v = paste({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } },
    });
    expect([v.status, v.versionBasis]).toEqual(["invalid", "declared"]);
    expect(v.issues).toContainEqual(expect.objectContaining({ pointer: "/params/capabilities/elicitation", rule: "era.member" }));
  });
});
