import { describe, expect, it } from "vitest";
import { withEnvelope } from "./envelope.ts";
import { decodeHeaderValue, encodeHeaderValue, isForwardableHeader, paramHeaders, scanHeaderParams, standardHeaders } from "./modern-headers.ts";

const envelope = { protocolVersion: "2026-07-28", clientInfo: { name: "t", version: "1" }, clientCapabilities: {} };
const request = (method: string, params: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method, params: withEnvelope(params, envelope) });

describe("header values", () => {
  it("passes plain visible ASCII through and wraps anything else in the base64 sentinel", () => {
    expect(encodeHeaderValue("get_weather")).toBe("get_weather");
    expect(encodeHeaderValue("a b\tc")).toBe("a b\tc");
    expect(encodeHeaderValue("Zürich")).toBe("=?base64?WsO8cmljaA==?=");
    expect(encodeHeaderValue(" padded")).toBe(`=?base64?${btoa(" padded")}?=`);
    expect(encodeHeaderValue("")).toBe("=?base64??=");
    expect(encodeHeaderValue("line\nbreak")).toBe(`=?base64?${btoa("line\nbreak")}?=`);
    // A value that already looks encoded is encoded again, so it cannot be mistaken for its payload.
    expect(encodeHeaderValue("=?base64?YQ==?=")).toBe(`=?base64?${btoa("=?base64?YQ==?=")}?=`);
  });

  it("decodes what it encodes, and refuses a sentinel that is not canonical base64 of UTF-8", () => {
    for (const text of ["plain", "Zürich", "日本", " x ", "", "=?base64?YQ==?="]) expect(decodeHeaderValue(encodeHeaderValue(text))).toBe(text);
    expect(decodeHeaderValue("=?base64?YQ?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?!!!!?=")).toBeUndefined();
  });
});

describe("standardHeaders", () => {
  it("mirrors version, method and name of an enveloped request", () => {
    expect(standardHeaders(request("tools/call", { name: "get_weather", arguments: {} }))).toEqual({
      "Mcp-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "get_weather",
    });
    expect(standardHeaders(request("resources/read", { uri: "file:///ä.txt" }))["Mcp-Name"]).toBe(encodeHeaderValue("file:///ä.txt"));
    expect(standardHeaders(request("prompts/get", { name: "greet" }))["Mcp-Name"]).toBe("greet");
    expect(standardHeaders(request("tools/list", {}))).toEqual({ "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) expect(standardHeaders(request(method, { taskId: "t-1" }))["Mcp-Name"]).toBe("t-1");
    expect(standardHeaders(request("completion/complete", { name: "not mirrored" }))["Mcp-Name"]).toBeUndefined();
  });

  it("adds nothing to a legacy message, a notification or something that is not JSON-RPC", () => {
    expect(standardHeaders({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } })).toEqual({});
    expect(standardHeaders({ jsonrpc: "2.0", method: "notifications/cancelled", params: withEnvelope({ requestId: 1 }, envelope) })).toEqual({});
    expect(standardHeaders("nope")).toEqual({});
    expect(standardHeaders(null)).toEqual({});
  });
});

describe("scanHeaderParams and paramHeaders", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      limits: { type: "object", properties: { max: { type: "integer", "x-mcp-header": "Max" } } },
      dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
      note: { type: "string" },
    },
  };

  it("finds declarations at any depth under properties and mirrors the argument values", () => {
    const scan = scanHeaderParams(schema);
    expect(scan).toEqual({
      ok: true,
      params: [
        { path: ["region"], header: "Region", type: "string" },
        { path: ["limits", "max"], header: "Max", type: "integer" },
        { path: ["dry"], header: "Dry-Run", type: "boolean" },
      ],
    });
    if (!scan.ok) return;
    expect(paramHeaders(scan.params, { region: "eu-west", limits: { max: 5 }, dry: false, note: "n" })).toEqual({
      "Mcp-Param-Region": "eu-west",
      "Mcp-Param-Max": "5",
      "Mcp-Param-Dry-Run": "false",
    });
    expect(paramHeaders(scan.params, { region: "Köln", limits: null })).toEqual({ "Mcp-Param-Region": encodeHeaderValue("Köln") });
    expect(paramHeaders(scan.params, { region: { not: "primitive" }, limits: { max: 2 ** 60 } })).toEqual({});
    expect(paramHeaders(scan.params, undefined)).toEqual({});
  });

  it("names what makes a declaration invalid", () => {
    const bad = (properties: Record<string, unknown>) => scanHeaderParams({ type: "object", properties });
    expect(bad({ a: { type: "array", "x-mcp-header": "A" } })).toMatchObject({ ok: false, reason: expect.stringContaining('got type "array"') });
    expect(bad({ a: { type: "string", "x-mcp-header": "has space" } })).toMatchObject({ ok: false, reason: expect.stringContaining("HTTP token") });
    expect(bad({ a: { type: "string", "x-mcp-header": "" } })).toMatchObject({ ok: false });
    expect(bad({ a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } })).toMatchObject({ ok: false, reason: expect.stringContaining("ignore case") });
    expect(bad({ a: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } })).toMatchObject({ ok: false, reason: expect.stringContaining("a.(items)") });
    expect(scanHeaderParams({ anyOf: [{ type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } }] })).toMatchObject({ ok: false });
    expect(scanHeaderParams({ type: "string", "x-mcp-header": "Root" })).toMatchObject({ ok: false, reason: expect.stringContaining("schema root") });
    expect(scanHeaderParams(undefined)).toEqual({ ok: true, params: [] });
  });
});

describe("isForwardableHeader", () => {
  it("lets the relay pass the Mcp-* request headers and nothing else", () => {
    for (const name of ["Mcp-Method", "mcp-name", "MCP-Protocol-Version", "Mcp-Param-Region", "mcp-param-dry-run"]) expect(isForwardableHeader(name)).toBe(true);
    for (const name of ["Mcp-Session-Id", "Authorization", "Mcp-Param-", "Mcp-Param-a b", "Host", "mcp-methods"]) expect(isForwardableHeader(name)).toBe(false);
  });
});
