import { describe, expect, it } from "vitest";
import type { WireFrameInput } from "../wire/index.ts";
import { exchange, type FetchLike } from "./exchange.ts";
import { buildRequest } from "./requests.ts";

const target = { url: "http://agent.test/", dialect: "0.3" as const, binding: "jsonrpc" as const };
const send = buildRequest(target, "send", { message: { messageId: "m", parts: [{ kind: "text", text: "hi" }] } }, { headers: { Authorization: "Bearer s3cret" } });
const stream = buildRequest(target, "stream", { message: { messageId: "m", parts: [{ kind: "text", text: "hi" }] } });

/** A body that sends `chunks` with `gapMs` between them, then ends (or hangs when `hang`). */
function dripBody(chunks: string[], gapMs = 0, hang = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = chunks.shift();
      if (next === undefined) {
        if (!hang) controller.close();
        else await new Promise(() => {});
        return;
      }
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      controller.enqueue(enc.encode(next));
    },
  });
}

function run(fetch: FetchLike, spec = send, limits = { headersMs: 1000, idleMs: 1000 }) {
  const frames: WireFrameInput[] = [];
  const result = exchange({ fetch, now: () => performance.now(), record: (f) => frames.push(f) }, spec, { dialect: "0.3", binding: "jsonrpc", limits });
  return { frames, result };
}

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: e })}\n\n`);

describe("exchange", () => {
  it("logs the request before sending, redacting credentials, and the answer verbatim", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"r","role":"agent","parts":[{"kind":"text","text":"yo"}]}}';
    const { frames, result } = run(async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } }));
    const r = await result;
    expect(r.failure).toBeUndefined();
    expect(frames).toHaveLength(2);
    expect(frames[0]!.headers!.authorization).toEqual(["[redacted]"]);
    expect(new TextDecoder().decode(frames[1]!.bytes)).toBe(body);
    expect(r.frames[0]!.event).toMatchObject({ kind: "message", text: "yo" });
  });

  it("names an HTML page, a 401 with its WWW-Authenticate, and a redirect it does not follow", async () => {
    const html = await run(async () => new Response("<!doctype html><p>login</p>", { status: 200, headers: { "content-type": "text/html" } })).result;
    expect(html.failure).toMatchObject({ kind: "not-json", message: expect.stringContaining("HTML page") });
    const auth = await run(async () => new Response('{"error":"no"}', { status: 401, headers: { "www-authenticate": 'Bearer realm="a2a"' } })).result;
    expect(auth.failure).toMatchObject({ kind: "http", message: expect.stringContaining('WWW-Authenticate: Bearer realm="a2a"') });
    const moved = await run(async () => new Response(null, { status: 307, headers: { location: "http://elsewhere.test/" } })).result;
    expect(moved.failure).toMatchObject({ kind: "redirect", message: expect.stringContaining("http://elsewhere.test/") });
  });

  it("reads a stream event by event, and knows when it ended properly", async () => {
    const events = sse([{ kind: "task", id: "t", contextId: "c", status: { state: "submitted" } }, { kind: "status-update", taskId: "t", contextId: "c", status: { state: "completed" }, final: true }]);
    const { frames, result } = run(async () => new Response(dripBody(events), { headers: { "content-type": "text/event-stream" } }), stream);
    const r = await result;
    expect(r.failure).toBeUndefined();
    expect(r.streamEnd).toBe("final");
    expect(r.frames).toHaveLength(2);
    expect(frames.filter((f) => f.direction === "in")).toHaveLength(2);
  });

  it("names a stream that stops before its final event, one cut mid-event, and garbage", async () => {
    const early = await run(async () => new Response(dripBody(sse([{ kind: "task", id: "t", status: { state: "working" } }])), { headers: { "content-type": "text/event-stream" } }), stream).result;
    expect(early.failure).toMatchObject({ kind: "stream-broken", message: expect.stringContaining("resubscribe") });
    const mid = await run(async () => new Response(dripBody(['data: {"jsonrpc":"2.0",']), { headers: { "content-type": "text/event-stream" } }), stream).result;
    expect(mid.failure).toMatchObject({ kind: "stream-broken", message: "the stream stopped in the middle of an event" });
    const junk = await run(async () => new Response(dripBody(["data: <<garbage>>\n\n"]), { headers: { "content-type": "text/event-stream" } }), stream).result;
    expect(junk.failure).toMatchObject({ kind: "not-json" });
    expect(junk.frames[0]!.text).toBe("<<garbage>>");
  });

  it("gives up on an agent that never answers, or goes quiet mid-stream, within the limits", async () => {
    const never: FetchLike = (_url, init) => new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    const silent = await run(never, send, { headersMs: 50, idleMs: 1000 }).result;
    expect(silent.failure).toEqual({ kind: "headers-timeout", message: "no response within 50 ms" });
    const quiet = await run(async (_u, init) => new Response(dripBody(sse([{ kind: "task", id: "t", status: { state: "working" } }]), 0, true), { headers: { "content-type": "text/event-stream" }, ...(init.signal ? {} : {}) }), stream, { headersMs: 1000, idleMs: 80 }).result;
    expect(quiet.failure?.kind).toBe("idle-timeout");
    expect(quiet.frames).toHaveLength(1);
  });

  it("names a network failure with the URL", async () => {
    const r = await run(async () => {
      throw new TypeError("fetch failed");
    }).result;
    expect(r.failure).toEqual({ kind: "network", message: "could not reach http://agent.test/: fetch failed" });
  });
});
