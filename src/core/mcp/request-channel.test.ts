import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../env/scheduler.ts";
import { RequestChannel, type SendOptions } from "./request-channel.ts";
import type { McpRequestError } from "./request-failure.ts";

const envelope = { protocolVersion: "2026-07-28", clientInfo: { name: "t", version: "1" }, clientCapabilities: {} };

function channel(options: { modern?: boolean; perRequestStream?: boolean; failSend?: Error } = {}) {
  const sent: { message: Record<string, unknown>; options: SendOptions | undefined }[] = [];
  const scheduler = new ManualScheduler();
  const c = new RequestChannel({
    send: async (message, opts) => {
      if (options.failSend) throw options.failSend;
      sent.push({ message, options: opts });
    },
    envelope: () => (options.modern ? envelope : undefined),
    perRequestStream: () => options.perRequestStream === true,
    scheduler,
    firstId: 5,
  });
  return { c, sent, scheduler };
}

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as McpRequestError);

describe("RequestChannel", () => {
  it("numbers its requests from firstId, keeps legacy params as given and answers with the result as received", async () => {
    const { c, sent } = channel();
    const ids: number[] = [];
    const first = c.exchange("tools/list", undefined, { onSent: (id) => ids.push(id) });
    expect(sent[0]!.message).toEqual({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    expect(c.receive({ jsonrpc: "2.0", id: 5, result: { tools: [], extra: 1 } })).toBe(true);
    expect(await first).toEqual({ id: 5, result: { tools: [], extra: 1 } });
    expect(ids).toEqual([5]);
    // Answers it did not ask for are left to the caller.
    expect(c.receive({ jsonrpc: "2.0", id: 5, result: {} })).toBe(false);
    expect(c.receive({ jsonrpc: "2.0", id: "5", result: {} })).toBe(false);
    expect(c.receive({ jsonrpc: "2.0", method: "notifications/message", params: {} })).toBe(false);
    expect(c.receive("nonsense")).toBe(false);
  });

  it("envelopes modern requests and notifications, a caller's own _meta keys first", async () => {
    const { c, sent } = channel({ modern: true });
    void c.exchange("tools/call", { name: "x", _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { a: {} } } } });
    await c.notify("notifications/cancelled", { requestId: 1 });
    expect(sent[0]!.message.params).toEqual({
      name: "x",
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": envelope.clientInfo, "io.modelcontextprotocol/clientCapabilities": { extensions: { a: {} } } },
    });
    expect((sent[1]!.message.params as { _meta: object })._meta).toMatchObject({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
  });

  it("names a refusal with the server's code, message and data, and a relay's failure as not the server's", async () => {
    const { c } = channel();
    const refused = failure(c.exchange("resources/read", { uri: "x" }));
    c.receive({ jsonrpc: "2.0", id: 5, error: { code: -32602, message: "no such resource", data: { uri: "x" } } });
    expect(await refused).toMatchObject({ kind: "json-rpc-error", message: "resources/read was refused by the server (JSON-RPC error -32602): no such resource", error: { code: -32602, data: { uri: "x" } } });
    const relay = failure(c.exchange("tools/list", undefined));
    c.receive({ jsonrpc: "2.0", id: 6, error: { code: -32099, message: "http step failed", data: { relayFailure: { step: "http", status: 502 } } } });
    expect(await relay).toMatchObject({ kind: "relay-failure", detail: { relayFailure: { step: "http", status: 502 } } });
    const odd = failure(c.exchange("ping", undefined));
    c.receive({ jsonrpc: "2.0", id: 7, error: "a string" });
    expect((await odd)?.message).toMatch(/an error answer that is not an object/);
  });

  it("routes progress under its own token or a typed one to the caller, restarting the time limit; other progress is not taken", async () => {
    const { c, sent, scheduler } = channel();
    const seen: number[] = [];
    const own = c.exchange("tools/call", { name: "slow" }, { timeoutMs: 100, onProgress: (p) => seen.push(p.progress) });
    expect((sent[0]!.message.params as { _meta: { progressToken: number } })._meta.progressToken).toBe(5);
    scheduler.advance(90);
    expect(c.receive({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 5, progress: 1 } })).toBe(true);
    scheduler.advance(90);
    expect(c.receive({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "someone-else", progress: 1 } })).toBe(false);
    c.receive({ jsonrpc: "2.0", id: 5, result: { content: [] } });
    await own;
    expect(seen).toEqual([1]);
    const typed = c.exchange("tools/call", { name: "slow", _meta: { progressToken: "mine" } }, { onProgress: (p) => seen.push(p.progress) });
    expect((sent[1]!.message.params as { _meta: { progressToken: string } })._meta.progressToken).toBe("mine");
    expect(c.receive({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "mine", progress: 7, total: 9, message: "m" } })).toBe(true);
    c.receive({ jsonrpc: "2.0", id: 6, result: {} });
    await typed;
    expect(seen).toEqual([1, 7]);
  });

  it("times out, telling the server with notifications/cancelled on a legacy connection", async () => {
    const { c, sent, scheduler } = channel();
    const late = failure(c.exchange("tools/call", { name: "x" }, { timeoutMs: 50 }));
    scheduler.advance(50);
    expect(await late).toMatchObject({ kind: "timeout", message: "tools/call got no answer within 50 ms", detail: { timeoutMs: 50 } });
    await Promise.resolve();
    expect(sent[1]!.message).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "timed out: no answer within 50 ms" } });
    expect(c.pending).toBe(0);
  });

  it("cancels a modern request over HTTP by ending its own stream, sending nothing", async () => {
    const { c, sent } = channel({ modern: true, perRequestStream: true });
    const abort = new AbortController();
    const call = failure(c.exchange("tools/call", { name: "x" }, { signal: abort.signal }));
    const signal = sent[0]!.options?.requestSignal;
    expect(signal?.aborted).toBe(false);
    abort.abort("user stop");
    expect(await call).toMatchObject({ kind: "cancelled", detail: { reason: "user stop" } });
    expect(signal?.aborted).toBe(true);
    expect(sent).toHaveLength(1);
    // A modern stdio connection has no per-request stream: the server is told instead.
    const stdio = channel({ modern: true });
    const abort2 = new AbortController();
    const call2 = failure(stdio.c.exchange("tools/call", { name: "x" }, { signal: abort2.signal }));
    abort2.abort("stop");
    await call2;
    await Promise.resolve();
    expect(stdio.sent[1]!.message).toMatchObject({ method: "notifications/cancelled", params: { requestId: 5, reason: "stop" } });
  });

  it("fails what waits when the connection closes, refuses to send after, and hands on a transport's own send error", async () => {
    const { c } = channel();
    const waiting = failure(c.exchange("tools/list", undefined));
    c.close();
    expect(await waiting).toMatchObject({ kind: "connection-closed", message: "the connection closed before tools/list was answered" });
    expect(await failure(c.exchange("ping", undefined))).toMatchObject({ kind: "connection-closed", message: "ping was not sent: the connection is closed" });
    const broken = channel({ failSend: new Error("relay refused the message (HTTP 409)") });
    expect((await failure(broken.c.exchange("ping", undefined)))?.message).toBe("relay refused the message (HTTP 409)");
    const pre = new AbortController();
    pre.abort("already");
    expect(await failure(channel().c.exchange("ping", undefined, { signal: pre.signal }))).toMatchObject({ kind: "cancelled" });
  });
});
