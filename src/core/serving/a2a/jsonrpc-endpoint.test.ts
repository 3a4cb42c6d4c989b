import { afterAll, describe, expect, it } from "vitest";
import { testAgent, type Json } from "./test-harness.ts";

const agent = testAgent();
afterAll(() => agent.close());

const answer = async (text: string, version?: string) => {
  const got = await agent.jsonRpc.answer(text, version ? { version } : {});
  if (got.kind !== "json") throw new Error("expected a JSON answer");
  return { status: got.status, body: got.body as Json };
};
const error = async (text: string, version?: string) => ((await answer(text, version)).body.error ?? {}) as Json;
const request = (method: unknown, params?: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });

describe("the JSON-RPC endpoint", () => {
  it("answers a body that is not JSON with a parse error that says where", async () => {
    expect(await answer("{nope")).toEqual({ status: 200, body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: .* at line 1, column 2\.$/) } } });
  });

  it.each(['"a string"', "42", "null", "[]", "[1, 2]", '{"id": 1}', '{"jsonrpc": "1.0", "id": 1, "method": "tasks/get"}'])("refuses %s as an invalid request", async (body) => {
    expect((await error(body)).code).toBe(-32600);
  });

  it("names an unknown method, and a method of the other version", async () => {
    expect(await error(request("nope"))).toEqual({ code: -32601, message: 'Method not found: "nope" is not an A2A 0.3 method.' });
    expect(await error(request("SendMessage", {}))).toEqual({ code: -32601, message: "Method not found: SendMessage is an A2A 1.0 method; send the header A2A-Version: 1.0 to use it." });
    expect(await error(request("message/send", {}), "1.0")).toEqual({ code: -32601, message: "Method not found: message/send is an A2A 0.3 method; send A2A-Version: 0.3 (or no A2A-Version) to use it." });
  });

  it("refuses a version it does not serve, and bad params", async () => {
    expect(await error(request("GetTask", { id: "x" }), "9.9")).toMatchObject({ code: -32009, message: expect.stringContaining("Supported versions: 1.0, 0.3") });
    expect((await error(request("tasks/get", "x"))).code).toBe(-32602);
    expect((await error(request("message/send", { message: { kind: "message" } }))).code).toBe(-32602);
  });

  it("keeps the request id in every answer, errors included", async () => {
    expect((await answer(request("tasks/get", { id: "missing" }, "abc"))).body).toMatchObject({ id: "abc", error: { code: -32001 } });
    expect((await answer(request("GetTask", { id: "missing" }, 7), "1.0")).body).toMatchObject({ id: 7, error: { code: -32001, data: [{ reason: "TASK_NOT_FOUND" }] } });
  });

  it("answers a stream that fails before its first event as one JSON error, except v0.3 resubscribe, which streams it", async () => {
    const v1 = await agent.jsonRpc.answer(request("SubscribeToTask", { id: "missing" }), { version: "1.0" });
    expect(v1).toMatchObject({ kind: "json", body: { error: { code: -32001 } } });
    const v03 = await agent.jsonRpc.answer(request("tasks/resubscribe", { id: "missing" }), {});
    expect(v03.kind).toBe("stream");
    if (v03.kind !== "stream") return;
    const events = [];
    for await (const event of v03.events) events.push(event);
    expect(events).toEqual([{ data: { jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32001 }) }, error: true }]);
  });
});
