import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import type { Verdict } from "../../../src/core/validation/types.ts";

/**
 * The messages a validator exists for: one field off. Each case is one a user hit, judged as a
 * user pastes it (a fresh session, no override).
 */

const engine = createValidationEngine();
const paste = (value: unknown, options?: { extensionMethods: string[] }): Verdict => engine.session(options).validateText(JSON.stringify(value));
const first = (v: Verdict) => v.issues[0];

const a2aMessage = { kind: "message", role: "user", messageId: "m1", parts: [{ kind: "text", text: "hi" }] };

describe("a method one letter off", () => {
  it("is judged as the MCP method it nearly names, never valid, with did you mean", () => {
    const v = paste({ jsonrpc: "2.0", id: 1, method: "tools/calls", params: { name: "add", arguments: {} } });
    expect(v.status).toBe("invalid");
    expect(v.kindId).toBe("tools/call:request");
    expect(first(v)).toMatchObject({ pointer: "/method", rule: "mcp.unknown-method" });
    expect(first(v)?.message).toContain('Did you mean "tools/call"?');
    // The schema's "must be equal to constant" at /method says less than the rule, so it is dropped.
    expect(v.issues.filter((i) => i.pointer === "/method")).toHaveLength(1);
  });

  it("is judged as A2A when the A2A method is the nearer, whatever MCP would accept", () => {
    const sendd = paste({ jsonrpc: "2.0", id: 1, method: "message/sendd", params: { message: a2aMessage } });
    expect(sendd).toMatchObject({ status: "invalid", family: "a2a", kindId: "message/send:request" });
    expect(first(sendd)?.message).toContain('Did you mean "message/send"?');
    const sendx = paste({ jsonrpc: "2.0", id: 1, method: "tasks/sendx", params: { id: "t1", message: { role: "user", parts: [{ type: "text", text: "hi" }] } } });
    expect(sendx).toMatchObject({ status: "invalid", family: "a2a", packId: "a2a/v0.1.0", kindId: "tasks/send:request" });
    // The catch-all JSON-RPC request would take both; saying so would not help.
    expect(sendd.notes.join(" ")).not.toContain("method not defined");
    expect(sendx.notes.join(" ")).not.toContain("method not defined");
  });

  it("uses the task's member name to tell MCP's tasks/* near misses from A2A's", () => {
    expect(paste({ jsonrpc: "2.0", id: 1, method: "tasks/gett", params: { id: "t1" } }).family).toBe("a2a");
    expect(paste({ jsonrpc: "2.0", id: 1, method: "tasks/gett", params: { taskId: "t1" } }).family).toBe("mcp");
  });

  it("catches a mistyped notification too", () => {
    const v = paste({ jsonrpc: "2.0", method: "notifications/canceled", params: { requestId: 1 } });
    expect(v).toMatchObject({ status: "invalid", kindId: "notifications/cancelled:notification" });
    expect(first(v)?.message).toContain('"notifications/cancelled"');
  });
});

describe("a method no protocol defines", () => {
  const call = { jsonrpc: "2.0", id: 1, method: "acme/reindex", params: {} };

  it("is an error by default, naming the way to allow it", () => {
    const v = paste(call);
    expect(v.status).toBe("invalid");
    expect(first(v)).toMatchObject({ pointer: "/method", rule: "mcp.unknown-method" });
    expect(first(v)?.message).toContain("--allow-method");
  });

  it("is accepted when allowed as an extension, exactly or by prefix, and only then", () => {
    expect(paste(call, { extensionMethods: ["acme/reindex"] }).status).toBe("valid");
    expect(paste(call, { extensionMethods: ["acme/*"] }).status).toBe("valid");
    expect(paste(call, { extensionMethods: ["other/*"] }).status).toBe("invalid");
    // What one session allows is not remembered for the next.
    expect(paste(call).status).toBe("invalid");
  });
});

describe("broken Agent Cards", () => {
  const card = {
    name: "Agent",
    version: "1.0.0",
    description: "d",
    url: "http://127.0.0.1:9/a2a",
    protocolVersion: "0.3.0",
    capabilities: {},
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    skills: [{ id: "s", name: "s", description: "d", tags: [] }],
  };
  const without = (key: string) => Object.fromEntries(Object.entries(card).filter(([k]) => k !== key));

  it("passes whole, judged by the version it declares", () => {
    expect(paste(card)).toMatchObject({ status: "valid", family: "a2a", packId: "a2a/v0.3.0", versionBasis: "declared", validIn: ["0.3.0"] });
  });

  it("is an invalid card, not a valid MCP Implementation, without skills or without url", () => {
    for (const key of ["skills", "url"]) {
      const v = paste(without(key));
      expect(v, key).toMatchObject({ status: "invalid", family: "a2a", kindId: "card" });
      expect(v.issues.some((i) => i.message.includes(`"${key}"`)), key).toBe(true);
      expect(v.notes.join(" "), key).not.toContain("Implementation");
    }
  });

  it("is a card with only a name and one card member beside version and description", () => {
    expect(paste({ name: "Agent", version: "1", description: "d", capabilities: {} })).toMatchObject({ status: "invalid", family: "a2a" });
  });

  it("is judged by the version it declares, v1.0 included", () => {
    expect(paste({ ...card, protocolVersion: "1.0" })).toMatchObject({ status: "invalid", packId: "a2a/v1.0", versionBasis: "declared" });
  });
});

describe("catch-all kinds", () => {
  it("a bare name and version is an Implementation, valid in every version", () => {
    const v = paste({ name: "client", version: "1.0.0" });
    expect(v).toMatchObject({ status: "valid", kindId: "Implementation", versionBasis: "evidence" });
    expect(v.validIn).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
  });

  it("an object that is a name and version and more is not recognised, though it parses as one", () => {
    expect(paste({ name: "x", version: "1", tools: 3 }).status).toBe("unrecognised");
  });

  it("a result no request and no shape explains is not recognised", () => {
    expect(paste({ jsonrpc: "2.0", id: 7, result: { isError: false } }).status).toBe("unrecognised");
  });

  it("an input_required answer whose request is not known is held to InputRequiredResult, not passed by the catch-all result", () => {
    const login = { method: "elicitation/create", params: { message: "User?", requestedSchema: { type: "object", properties: { user: { type: "string" } } } } };
    const pending = (result: Record<string, unknown>) => paste({ jsonrpc: "2.0", id: 2, result: { resultType: "input_required", inputRequests: { login }, requestState: "s", ...result } });
    expect(pending({})).toMatchObject({ status: "valid", kindId: "input-required:result", packId: "mcp/2026-07-28" });
    const cases: [Record<string, unknown>, string][] = [
      [{ resultType: "input_require" }, "/result/resultType"],
      [{ requestState: 42 }, "/result/requestState"],
      [{ inputRequests: "login" }, "/result/inputRequests"],
      [{ inputRequests: { login: { ...login, method: "elicitation/creat" } } }, "/result/inputRequests/login/method"],
    ];
    for (const [change, pointer] of cases) {
      const v = pending(change);
      expect(v, JSON.stringify(change)).toMatchObject({ status: "invalid", kindId: "input-required:result" });
      expect(v.issues.map((i) => i.pointer), JSON.stringify(change)).toContain(pointer);
    }
    // Without its resultType it is no 2025-11-25 result that ignores the members it does not know.
    const bare = paste({ jsonrpc: "2.0", id: 2, result: { inputRequests: { login }, requestState: "s" } });
    expect(bare).toMatchObject({ status: "invalid", kindId: "input-required:result" });
    expect(first(bare)).toMatchObject({ pointer: "/result", message: 'Missing required property "resultType".' });
  });
});

describe("the version judged by", () => {
  it("is the one initialize declares, and the later messages' is the negotiated one", () => {
    const session = engine.session();
    const init = session.validateValue({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect(init).toMatchObject({ status: "valid", version: "2025-06-18", versionBasis: "declared", validIn: ["2025-06-18"] });
    session.validateValue({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } } });
    const list = session.validateValue({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(list).toMatchObject({ status: "valid", version: "2025-06-18", versionBasis: "negotiated" });
  });

  it("is the user's when chosen", () => {
    const v = engine.session().validateValue({ jsonrpc: "2.0", id: 1, method: "ping" }, {}, { packId: "mcp/2025-03-26" });
    expect(v).toMatchObject({ versionBasis: "chosen", version: "2025-03-26" });
  });

  it("names the 2026-07-28 _meta version mechanism used to declare an older version as an era mix", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2024-11-05" };
    const v = paste({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: {}, _meta: meta } });
    expect(v).toMatchObject({ status: "invalid", version: "2024-11-05", versionBasis: "declared" });
    expect(v.issues.map((i) => i.rule)).toContain("mcp.meta-version-era");
  });
});
