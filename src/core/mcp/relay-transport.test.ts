import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../env/defaults.ts";
import { WireLog } from "../wire/wire-log.ts";
import type { RelayConsoleEvent } from "./relay-api.ts";
import { RelayError } from "./relay-error.ts";
import { RelayTransport } from "./relay-transport.ts";
import { fakeRelay } from "./test-relay.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

function setup(relay = fakeRelay()) {
  const clock = manualClock();
  const wireLog = new WireLog(clock, 100);
  const consoleEvents: RelayConsoleEvent[] = [];
  const transport = new RelayTransport({
    fetch: relay.fetch,
    baseUrl: "http://127.0.0.1:9999",
    token: "tok",
    session: { transport: "stdio", command: "node", args: ["server.js"] },
    wireLog,
    clock,
    ids: sequentialIds("f"),
    onConsole: (e) => consoleEvents.push(e),
  });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closed = 0;
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  transport.onclose = () => closed++;
  return { relay, clock, wireLog, transport, messages, errors, consoleEvents, closed: () => closed };
}

const line = (event: object) => `${JSON.stringify(event)}\n`;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("RelayTransport", () => {
  it("creates the session, opens the stream and authenticates every call", async () => {
    const t = setup();
    await t.transport.start();
    expect(t.transport.relaySessionId).toBe("s1");
    expect(t.transport.target).toBe("stdio:node server.js");
    expect(t.relay.calls.map((c) => c.url)).toEqual(["http://127.0.0.1:9999/api/mcp/sessions", "http://127.0.0.1:9999/api/mcp/sessions/s1/stream"]);
    expect(JSON.parse(t.relay.calls[0]!.body!)).toEqual({ transport: "stdio", command: "node", args: ["server.js"] });
    expect(t.relay.calls.every((c) => c.headers.authorization === "Bearer tok")).toBe(true);
  });

  it("joins lines split across chunks, even inside a UTF-8 character, and logs each frame with its round trip", async () => {
    const t = setup();
    await t.transport.start();
    await t.transport.send({ jsonrpc: "2.0", id: 7, method: "ping" });
    t.clock.advance(12);
    const text = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { note: "héllo" } });
    const bytes = enc.encode(line({ type: "message", text, at: 3 }));
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
    t.relay.write(bytes.slice(0, 10));
    t.relay.write(bytes.slice(10, cut));
    await tick();
    expect(t.messages).toEqual([]);
    t.relay.write(bytes.slice(cut));
    await tick();
    expect(t.messages).toEqual([{ jsonrpc: "2.0", id: 7, result: { note: "héllo" } }]);
    const [out, inbound] = t.wireLog.entries();
    expect(out).toMatchObject({ channel: "mcp", direction: "out", target: "stdio:node server.js", correlationId: "7" });
    expect(dec.decode(out!.bytes)).toBe('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(t.relay.calls[2]!.body).toBe('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(inbound).toMatchObject({ direction: "in", correlationId: "7", rttMs: 12 });
    expect(dec.decode(inbound!.bytes)).toBe(text);
  });

  it("logs a frame that is not JSON-RPC and reports it without delivering it", async () => {
    const t = setup();
    await t.transport.start();
    t.relay.write(line({ type: "message", text: "Server starting…", at: 1 }) + line({ type: "message", text: '{"jsonrpc":"2.0","id":1}', at: 2 }));
    await tick();
    expect(t.messages).toEqual([]);
    expect(t.errors.map((e) => e.message)).toEqual([
      "the server process wrote a line to stdout that is not JSON-RPC: Server starting…",
      'server sent a message that is not valid JSON-RPC 2.0: {"jsonrpc":"2.0","id":1}',
    ]);
    expect(t.wireLog.entries().map((e) => dec.decode(e.bytes))).toEqual(["Server starting…", '{"jsonrpc":"2.0","id":1}']);
    expect(t.wireLog.entries()[0]!.correlationId).toBe("f-1");
  });

  it("delivers each message of a batch", async () => {
    const t = setup();
    await t.transport.start();
    const batch = '[{"jsonrpc":"2.0","method":"notifications/a"},{"jsonrpc":"2.0","method":"notifications/b"}]';
    t.relay.write(line({ type: "message", text: batch, at: 1 }));
    await tick();
    expect(t.messages.map((m) => (m as { method: string }).method)).toEqual(["notifications/a", "notifications/b"]);
    expect(t.wireLog.size).toBe(1);
  });

  it("reports a stream line that is not a relay event and keeps reading", async () => {
    const t = setup();
    await t.transport.start();
    t.relay.write('{"type":"message"\n' + line({ type: "gossip", at: 1 }) + "\r\n" + line({ type: "message", text: '{"jsonrpc":"2.0","method":"x"}', at: 2 }));
    await tick();
    expect(t.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^relay stream line is not JSON .*: \{"type":"message"$/),
      'relay stream event has an unknown type "gossip": {"type":"gossip","at":1}',
    ]);
    expect(t.messages).toHaveLength(1);
  });

  it("sends stderr, http, error and closed events to the console; errors name the step, closed closes", async () => {
    const t = setup();
    await t.transport.start();
    t.relay.write(line({ type: "stderr", text: "listening", at: 1 }) + line({ type: "http", status: 404, headers: { "content-type": "text/html" }, at: 2 }));
    t.relay.write(line({ type: "error", step: "not-mcp", message: "HTML page, not JSON-RPC", status: 404, body: "<html>", at: 3 }));
    t.relay.write(line({ type: "closed", reason: "process exited", code: 1, at: 4 }));
    await tick();
    expect(t.consoleEvents.map((e) => e.type)).toEqual(["stderr", "http", "error", "closed"]);
    const error = t.errors[0] as RelayError;
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ step: "not-mcp", status: 404, body: "<html>", message: "not-mcp step failed (HTTP 404): HTML page, not JSON-RPC" });
    expect(t.closed()).toBe(1);
    expect(t.transport.closedReason).toBe("process exited (code 1)");
    await expect(t.transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toThrow("the relay session is closed");
  });

  it("reports a stream that ends without a closed event, once", async () => {
    const t = setup();
    await t.transport.start();
    t.relay.write('{"type":"stderr","text":"last words","at":1}');
    t.relay.end();
    await tick();
    expect(t.consoleEvents).toEqual([{ type: "stderr", text: "last words", at: 1 }]);
    expect(t.errors.map((e) => e.message)).toEqual(["relay event stream ended without a closed event"]);
    expect(t.closed()).toBe(1);
    await t.transport.close();
    expect(t.closed()).toBe(1);
  });

  it("closes by asking the relay, then stops reading", async () => {
    const t = setup();
    await t.transport.start();
    await t.transport.close();
    expect(t.relay.calls.at(-1)!.url).toBe("http://127.0.0.1:9999/api/mcp/sessions/s1/close");
    expect(t.closed()).toBe(1);
    expect(t.errors).toEqual([]);
  });

  it("sends raw text byte for byte and logs it", async () => {
    const t = setup();
    await t.transport.start();
    await t.transport.sendRaw('{"jsonrpc":"1.0","method":');
    expect(t.relay.calls.at(-1)!.body).toBe('{"jsonrpc":"1.0","method":');
    expect(t.wireLog.entries()[0]).toMatchObject({ direction: "out", decoded: { jsonError: expect.stringMatching(/^not JSON/) } });
  });

  it("names the failing step of start, with the relay's answer", async () => {
    // A command that cannot start is told in its own words: no relay, no HTTP status, no error code.
    const spawn = setup(fakeRelay({ create: Response.json({ error: { code: "spawn_failed", message: 'command "nope" was not found (ENOENT)' } }, { status: 502 }) }));
    await expect(spawn.transport.start()).rejects.toMatchObject({ step: "spawn", status: undefined, body: undefined, message: 'command "nope" was not found (ENOENT)' });
    const busy = setup(fakeRelay({ stream: Response.json({ error: { code: "conflict", message: "a stream is open" } }, { status: 409 }) }));
    await expect(busy.transport.start()).rejects.toMatchObject({ step: "open-stream", status: 409, message: expect.stringContaining("HTTP 409") });
    expect(busy.relay.calls.at(-1)!.url).toBe("http://127.0.0.1:9999/api/mcp/sessions/s1/close");
    const html = setup(fakeRelay({ stream: new Response("<html>", { status: 200, headers: { "content-type": "text/html" } }) }));
    await expect(html.transport.start()).rejects.toMatchObject({ step: "open-stream", body: "<html>", message: expect.stringContaining("Content-Type text/html") });
  });

  it("names an unreachable backend and a refused message", async () => {
    const down = setup({ ...fakeRelay(), fetch: (async () => Promise.reject(new TypeError("fetch failed"))) as typeof fetch, calls: [], write: () => {}, end: () => {} });
    await expect(down.transport.start()).rejects.toMatchObject({ step: "relay-unreachable", message: expect.stringContaining("fetch failed") });
    const t = setup(fakeRelay({ messages: Response.json({ error: { code: "not_found", message: "no such session" } }, { status: 404 }) }));
    await t.transport.start();
    await expect(t.transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toMatchObject({ step: "send", status: 404, message: expect.stringContaining("no such session") });
  });

  it("answers at once the requests a relay failure names, once, without logging a frame that never crossed the wire", async () => {
    const t = setup();
    await t.transport.start();
    await t.transport.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "slow" } });
    await t.transport.send({ jsonrpc: "2.0", id: "4", method: "ping" });
    await t.transport.send({ jsonrpc: "2.0", id: 5, method: "ping" });
    t.relay.write(enc.encode(line({ type: "message", text: JSON.stringify({ jsonrpc: "2.0", id: 5, result: {} }), at: 1 })));
    await tick();
    const logged = t.wireLog.size;
    t.relay.write(enc.encode(line({ type: "error", step: "http", message: "stream broke", status: 502, body: "bad gateway", requestIds: [4, 5, 99], at: 2 })));
    t.relay.write(enc.encode(line({ type: "error", step: "http", message: "again", requestIds: [4], at: 3 })));
    await tick();
    const failures = t.messages.filter((m) => "error" in m);
    expect(failures).toEqual([
      {
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32099, message: "http step failed (HTTP 502): stream broke", data: { relayFailure: { step: "http", status: 502, body: "bad gateway" } } },
      },
    ]);
    expect(t.wireLog.size).toBe(logged);
  });
});
