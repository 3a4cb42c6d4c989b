import { describe, expect, it } from "vitest";
import { appendStep, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import { mcpRawRequest, rawRequestAction } from "./mcp-raw-step.ts";
import { mcpToolCallRequest, withSecrets } from "./step-drafts.ts";

const http = { transport: "streamable-http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t0ken" } } as const;

describe("mcpRawRequest", () => {
  it("saves method and params without jsonrpc and id, on the same target as a tool call", () => {
    const made = mcpRawRequest(http, "everything", '{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"demo://resource/static/document/architecture.md"}}');
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.action).toEqual({ protocol: "mcp", method: "resources/read", params: { uri: "demo://resource/static/document/architecture.md" } });
    expect(made.request.draft.name).toBe("resources/read");
    expect(made.request.notes).toEqual(["header values that may be credentials are saved as secrets: everything_token"]);
    expect(JSON.stringify(made.request.draft)).not.toContain("t0ken");
    const tool = mcpToolCallRequest(http, "everything", "echo", "{}");
    if (!tool.ok) throw new Error(tool.error);
    const both = withSecrets(appendStep(appendStep(emptyCollection("c"), tool.request.draft), made.request.draft), made.request.secrets);
    expect(Object.keys(both.targets)).toEqual(["everything"]);
    expect(parseCollection(both)).toMatchObject({ ok: true });
  });

  it("a request without params saves none; the raw panel's default message saves too", () => {
    expect(rawRequestAction('{"jsonrpc":"2.0","id":"a","method":"ping"}')).toEqual({ action: { protocol: "mcp", method: "ping" }, notes: [] });
    const made = mcpRawRequest({ transport: "stdio", command: "node", args: ["server.js"] }, "s", '{"jsonrpc":"2.0","id":99,"method":"nope"}');
    if (!made.ok) throw new Error(made.error);
    expect(parseCollection(appendStep(emptyCollection("c"), made.request.draft))).toMatchObject({ ok: true });
  });

  it("refuses notifications, responses, batches and what is not a request, saying which", () => {
    const error = (text: string) => {
      const read = rawRequestAction(text);
      return "error" in read ? read.error : `saved ${JSON.stringify(read.action)}`;
    };
    expect(error('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBe('this is a notification (no "id"), which has no answer to check: give it an id to save it as a request');
    expect(error('{"jsonrpc":"2.0","id":1,"result":{}}')).toBe("this is a response (it has result or error), not a request: a step sends a request and checks its answer");
    expect(error('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}')).toMatch(/^this is a response/);
    expect(error('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toBe("a batch is not saved as a step: save its requests one at a time");
    expect(error('"ping"')).toBe("the raw message is a string, not a JSON-RPC request object");
    expect(error("null")).toBe("the raw message is null, not a JSON-RPC request object");
    expect(error("")).toBe("the raw message is empty: type a JSON-RPC request");
    expect(error('{"id":1}')).toBe('the raw message has no "method": a step sends a request');
    expect(error('{"id":1,"method":42}')).toBe('"method" must be a non-empty string; got a number');
    expect(error('{"id":1,"method":""}')).toBe('"method" must be a non-empty string; got an empty one');
    expect(error('{"id":1,"method":"ping","params":[1,2]}')).toBe('"params" must be a JSON object (MCP names its params); got an array');
    expect(error('{"id":1,"method":"ping","params":null}')).toBe('"params" must be a JSON object (MCP names its params); got null');
    expect(error('{"id":1,"method":"ping",}')).toMatch(/^the raw message is not JSON: .* at line 1, column \d+$/);
    expect(error("[".repeat(100_000))).toMatch(/^the raw message is not JSON/);
  });

  it("notes what it sends differently from what was typed", () => {
    const read = rawRequestAction(`{"jsonrpc":"1.0","id":{"x":1},"method":"initialize","params":{},"extra":"${"y".repeat(100)}","a":1,"b":2,"c":3,"d":4,"e":5}`);
    if ("error" in read) throw new Error(read.error);
    expect(read.notes).toEqual([
      'the step sends "jsonrpc": "2.0", not "1.0"',
      "the step numbers its own request, not id an object",
      'left out: "extra", "a", "b", "c", "d" and 1 more',
      "the run initializes its own session first, so this step sends a second initialize",
    ]);
    expect(read.action).toEqual({ protocol: "mcp", method: "initialize", params: {} });
  });

  it("keeps hostile keys in params as data", () => {
    const read = rawRequestAction('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"polluted":true}}}}');
    if ("error" in read) throw new Error(read.error);
    expect(Object.keys((read.action.params?.arguments ?? {}) as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
