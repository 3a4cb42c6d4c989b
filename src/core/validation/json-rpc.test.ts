import { describe, expect, it } from "vitest";
import { jsonRpcRules, jsonRpcShape } from "./json-rpc.ts";

function rules(value: unknown): [string, string | undefined][] {
  return jsonRpcRules(value).map((i) => [i.pointer, i.rule]);
}

describe("jsonRpcShape", () => {
  it("reads a request, a notification, a result and an error", () => {
    expect(jsonRpcShape({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ kind: "request", method: "ping", id: 1 });
    expect(jsonRpcShape({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({ kind: "notification", method: "notifications/initialized" });
    expect(jsonRpcShape({ jsonrpc: "2.0", id: "a", result: {} })).toEqual({ kind: "result", id: "a" });
    expect(jsonRpcShape({ jsonrpc: "2.0", id: 2, error: { code: -32601, message: "no" } })).toEqual({ kind: "error", id: 2, code: -32601 });
  });

  it("counts an id of null as present: a request, not a notification", () => {
    expect(jsonRpcShape({ jsonrpc: "2.0", id: null, method: "ping" })).toEqual({ kind: "request", method: "ping", id: null });
  });

  it("reads an error with an unreadable error member, and prefers error over result", () => {
    expect(jsonRpcShape({ jsonrpc: "2.0", id: 1, error: "boom" })).toEqual({ kind: "error", id: 1, code: undefined });
    expect(jsonRpcShape({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1 } })).toMatchObject({ kind: "error" });
  });

  it("is null for what is not JSON-RPC", () => {
    expect(jsonRpcShape({ id: 1, method: "ping" })).toBeNull();
    expect(jsonRpcShape({ jsonrpc: "2.0" })).toBeNull();
    expect(jsonRpcShape({ jsonrpc: "2.0", method: 5 })).toBeNull();
    expect(jsonRpcShape([{ jsonrpc: "2.0", id: 1, method: "ping" }])).toBeNull();
    expect(jsonRpcShape("ping")).toBeNull();
    expect(jsonRpcShape(null)).toBeNull();
  });
});

describe("jsonRpcRules", () => {
  it("accepts well-formed messages", () => {
    expect(jsonRpcRules({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual([]);
    expect(jsonRpcRules({ jsonrpc: "2.0", id: "abc", method: "ping", params: {} })).toEqual([]);
    expect(jsonRpcRules({ jsonrpc: "2.0", method: "note" })).toEqual([]);
    expect(jsonRpcRules({ jsonrpc: "2.0", id: 0, result: null })).toEqual([]);
    expect(jsonRpcRules({ jsonrpc: "2.0", id: 7, error: { code: -32000, message: "x", data: [1] } })).toEqual([]);
  });

  it("ignores values that are not objects", () => {
    expect(jsonRpcRules([1])).toEqual([]);
    expect(jsonRpcRules("x")).toEqual([]);
  });

  it("wants the version to be exactly the string 2.0", () => {
    for (const version of ["2", 2, 2.0, "2.0 ", "1.0", null]) {
      const issues = jsonRpcRules({ jsonrpc: version, id: 1, method: "ping" });
      expect(issues).toEqual([expect.objectContaining({ pointer: "/jsonrpc", rule: "jsonrpc.version", severity: "error", source: "rule" })]);
    }
    expect(jsonRpcRules({ jsonrpc: 2, id: 1, method: "ping" })[0]?.message).toBe('"jsonrpc" must be exactly "2.0", not a number.');
  });

  it("wants a shape: a method, or a result or error", () => {
    expect(rules({ jsonrpc: "2.0", id: 1 })).toEqual([["", "jsonrpc.shape"]]);
    expect(rules({ jsonrpc: "1.0", id: 1 })).toEqual([
      ["/jsonrpc", "jsonrpc.version"],
      ["", "jsonrpc.shape"],
    ]);
  });

  it("refuses a fractional id, and null in a request", () => {
    const fraction = jsonRpcRules({ jsonrpc: "2.0", id: 1.5, method: "ping" });
    expect(fraction).toEqual([expect.objectContaining({ pointer: "/id", rule: "jsonrpc.id" })]);
    expect(fraction[0]?.message).toBe("The id must be a string or an integer, not the fraction 1.5.");
    const nil = jsonRpcRules({ jsonrpc: "2.0", id: null, method: "ping" });
    expect(nil[0]?.message).toBe("The id must be a string or an integer, not null.");
    expect(rules({ jsonrpc: "2.0", id: true, method: "ping" })).toEqual([["/id", "jsonrpc.id"]]);
    expect(rules({ jsonrpc: "2.0", id: [1], method: "ping" })).toEqual([["/id", "jsonrpc.id"]]);
  });

  it("allows a null id on an error response only", () => {
    expect(jsonRpcRules({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })).toEqual([]);
    const result = jsonRpcRules({ jsonrpc: "2.0", id: null, result: {} });
    expect(result).toEqual([expect.objectContaining({ pointer: "/id", rule: "jsonrpc.id" })]);
    expect(result[0]?.message).toBe("The id must be a string or an integer, not null.");
    expect(jsonRpcRules({ jsonrpc: "2.0", id: 0.5, error: { code: 1, message: "m" } })[0]?.message).toBe(
      "The id must be a string, an integer, or null, not the fraction 0.5.",
    );
  });

  it("wants a response to carry an id", () => {
    expect(rules({ jsonrpc: "2.0", result: {} })).toEqual([["", "jsonrpc.id"]]);
    expect(rules({ jsonrpc: "2.0", error: { code: 1, message: "m" } })).toEqual([["", "jsonrpc.id"]]);
  });

  it("refuses a result and an error together", () => {
    expect(rules({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } })).toEqual([["", "jsonrpc.result-and-error"]]);
  });

  it("refuses a method on a response", () => {
    // A string method makes it a request; a response with any other method member is flagged.
    expect(rules({ jsonrpc: "2.0", id: 1, method: null, result: {} })).toEqual([["/method", "jsonrpc.response-method"]]);
    expect(rules({ jsonrpc: "2.0", id: 1, method: 3, error: { code: 1, message: "m" } })).toEqual([["/method", "jsonrpc.response-method"]]);
  });

  it("wants an integer error code and a string message", () => {
    expect(rules({ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } })).toEqual([["/error/code", "jsonrpc.error-code"]]);
    expect(rules({ jsonrpc: "2.0", id: 1, error: { code: "-32600", message: "m" } })).toEqual([["/error/code", "jsonrpc.error-code"]]);
    expect(rules({ jsonrpc: "2.0", id: 1, error: { message: "m" } })).toEqual([["/error/code", "jsonrpc.error-code"]]);
    expect(rules({ jsonrpc: "2.0", id: 1, error: { code: 1, message: 5 } })).toEqual([["/error/message", "jsonrpc.error-message"]]);
    expect(rules({ jsonrpc: "2.0", id: 1, error: "boom" })).toEqual([["/error", "jsonrpc.error"]]);
    expect(jsonRpcRules({ jsonrpc: "2.0", id: 1, error: null })[0]?.message).toBe('"error" must be an object, not null.');
  });

  it("words an object id and a missing message in plain English", () => {
    expect(jsonRpcRules({ jsonrpc: "2.0", id: { n: 1 }, method: "ping" })[0]?.message).toBe("The id must be a string or an integer, not an object.");
    expect(jsonRpcRules({ jsonrpc: "2.0", id: 1, error: { code: 1 } })[0]?.message).not.toContain("undefined");
  });

  it("reports every broken rule of one message", () => {
    expect(rules({ jsonrpc: "1.0", id: 2.5, result: 1, error: { code: "x" } })).toEqual([
      ["/jsonrpc", "jsonrpc.version"],
      ["/id", "jsonrpc.id"],
      ["", "jsonrpc.result-and-error"],
      ["/error/code", "jsonrpc.error-code"],
      ["/error/message", "jsonrpc.error-message"],
    ]);
  });
});
