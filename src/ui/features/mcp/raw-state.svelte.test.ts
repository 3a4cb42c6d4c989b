import { describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../../../core/env/index.ts";
import { FrameRecorder } from "../../../core/mcp/frame-recorder.ts";
import { fakeRelay } from "../../../core/mcp/test-relay.ts";
import { createValidationEngine } from "../../../core/packs/index.ts";
import type { Override, Verdict } from "../../../core/validation/types.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { inProcessWorker } from "../validate/fake-worker.ts";
import { ValidationClient } from "../validate/validation-client.ts";
import type { McpTransportHandle } from "./mcp-state.svelte.ts";
import { MAX_IN_FLIGHT, MAX_QUEUED } from "./raw-check-queue.ts";
import { answerText, byteString, countsText } from "./raw-frames.ts";
import { RawJsonRpcState, type RawTimers } from "./raw-state.svelte.ts";
import { relayHandle } from "./test-transports.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const now = (run: () => void) => run();
const rpc = (message: object) => JSON.stringify({ jsonrpc: "2.0", ...message });

/** Timers the test fires by hand. */
function handTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: RawTimers = {
    set: (run, ms) => (pending.set(++next, { run, ms }), next),
    clear: (handle) => void pending.delete(handle as number),
  };
  return { timers, pending, fire: () => [...pending.entries()].forEach(([id, t]) => (pending.delete(id), t.run())) };
}

/** A checker standing in for the worker: judges by method, and says which kind it was asked about. */
function fakeChecker(hold = false) {
  const calls: [string, Override | undefined][] = [];
  const held: (() => void)[] = [];
  const judge = (text: string, override?: Override): Verdict => {
    const value = JSON.parse(text) as { method?: string; error?: unknown };
    const base = { confidence: 1, evidence: [], notes: [], candidates: [], overridden: true, issues: [] };
    if (value.error) return { ...base, status: "error-response", kindLabel: "error response" };
    if (value.method === "bad") return { ...base, status: "invalid", kindLabel: "bad request", issues: [{ pointer: "/params", message: "must be object", severity: "error", source: "schema" }] };
    if (value.method === "roots/list") return { ...base, status: "valid", kindLabel: "roots/list request", direction: "server-to-client" };
    return { ...base, status: "valid", kindLabel: override?.kindId ?? value.method ?? "result" };
  };
  const checker = {
    validateOne(text: string, override?: Override): Promise<Verdict> {
      calls.push([text, override]);
      if (!hold) return Promise.resolve(judge(text, override));
      return new Promise((resolve) => held.push(() => resolve(judge(text, override))));
    },
  };
  return { checker, calls, held };
}

/** A connection whose frames a FrameRecorder logs, as RelayTransport does; `reply` answers raw sends. */
function connection(reply?: (text: string) => string | undefined) {
  const clock = manualClock();
  const log = new WireLog(clock, 5000);
  const recorder = new FrameRecorder(log, clock, sequentialIds("n"), () => "stdio:srv");
  const transport = {
    target: "stdio:srv",
    sendRaw: async (text: string) => {
      recorder.out(text);
      clock.advance(7);
      const answer = reply?.(text);
      if (answer !== undefined) recorder.in(answer);
    },
  } as unknown as McpTransportHandle;
  return { clock, log, recorder, transport };
}

describe("RawJsonRpcState", () => {
  it("sends the text byte for byte and lists the frames of this connection that follow", async () => {
    const reply = '{"jsonrpc":"2.0","id":99,"error":{"code":-32601,"message":"Method not found"}}';
    const relay = fakeRelay({ onMessage: (_text, write) => write(`${JSON.stringify({ type: "message", text: reply, at: 1 })}\n`) });
    const { transport, wireLog } = relayHandle(relay);
    await transport.start();
    wireLog.record({ channel: "nats", direction: "out", target: "other", bytes: new Uint8Array([1]) });
    const raw = new RawJsonRpcState(wireLog, { defer: now });
    raw.text = '{"jsonrpc":"2.0","id":99,"method":"nope"}';
    await raw.send(transport);
    await tick();
    expect(relay.calls.find((c) => c.url.endsWith("/messages"))?.body).toBe(raw.text);
    expect(raw.frames.map((f) => [f.direction, byteString(f.bytes)])).toEqual([
      ["out", raw.text],
      ["in", reply],
    ]);
    expect(raw.answer).toMatchObject({ state: "answered", id: "99" });
    raw.dispose();
  });

  it("says why nothing was sent", async () => {
    const raw = new RawJsonRpcState(relayHandle(fakeRelay()).wireLog, { defer: now });
    await raw.send(undefined);
    expect(raw.error).toBe("Connect to a server first");
    const relay = fakeRelay({ messages: Response.json({ error: { code: "gone", message: "session closed" } }, { status: 404 }) });
    const { transport, wireLog } = relayHandle(relay);
    await transport.start();
    const other = new RawJsonRpcState(wireLog, { defer: now });
    other.text = "not json";
    await other.send(transport);
    expect(other.error).toMatch(/^Not sent: relay refused the message \(HTTP 404\)/);
    expect(other.answer).toBeNull();
    expect(other.frames.map((f) => byteString(f.bytes))).toEqual(["not json"]);
  });

  it("checks every frame of the connection from initialize on, against the negotiated version", async () => {
    const c = connection();
    c.recorder.out(rpc({ id: 0, method: "initialize", params: {} }));
    c.recorder.in(rpc({ id: 0, result: { protocolVersion: "2025-06-18" } }));
    const { checker, calls } = fakeChecker();
    const raw = new RawJsonRpcState(c.log, { checker, defer: now });
    raw.follow(c.transport, "2025-06-18");
    // The server's request 0 must not be taken for an answer to the client's initialize 0.
    c.recorder.out(rpc({ id: 1, method: "tools/list" }));
    c.recorder.in(rpc({ id: 0, method: "roots/list" }));
    c.clock.advance(4);
    c.recorder.out(rpc({ id: 0, result: { roots: [] } }));
    c.recorder.in(rpc({ id: 1, result: { tools: [] } }));
    c.recorder.in(rpc({ id: 2, method: "bad" }));
    c.recorder.out(rpc({ id: 9, method: "roots/list" }));
    await tick();
    expect(calls.map(([, o]) => o)).toEqual([
      { packId: "mcp/2025-06-18" },
      { packId: "mcp/2025-06-18", kindId: "initialize:result" },
      { packId: "mcp/2025-06-18" },
      { packId: "mcp/2025-06-18" },
      { packId: "mcp/2025-06-18", kindId: "roots/list:result" },
      { packId: "mcp/2025-06-18", kindId: "tools/list:result" },
      { packId: "mcp/2025-06-18" },
      { packId: "mcp/2025-06-18" },
    ]);
    expect(raw.frames.map((f) => raw.verdicts.get(f.seq))).toEqual([
      { status: "valid", kind: "initialize", problems: [] },
      { status: "valid", kind: "initialize:result", problems: [] },
      { status: "valid", kind: "tools/list", problems: [] },
      { status: "valid", kind: "roots/list request", problems: [] },
      { status: "valid", kind: "roots/list:result", problems: [] },
      { status: "valid", kind: "tools/list:result", problems: [] },
      { status: "invalid", kind: "bad request", problems: ["/params: must be object"] },
      { status: "invalid", kind: "roots/list request", problems: ["roots/list request travels from server to client, but the client sent it."] },
    ]);
    expect(raw.frames[4]!.rttMs).toBe(4);
    expect(countsText(raw.counts, raw.version, raw.checking)).toBe("8 frames checked against MCP 2025-06-18: 6 valid, 2 invalid, 0 error responses.");
    raw.dispose();
  });

  it("checks a tool call's arguments and structuredContent against the tool the connection listed", async () => {
    const c = connection();
    const client = new ValidationClient(() => inProcessWorker(createValidationEngine));
    const raw = new RawJsonRpcState(c.log, { checker: client, defer: now });
    c.recorder.out(rpc({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }));
    c.recorder.in(rpc({ id: 0, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }));
    raw.follow(c.transport, "2025-06-18");
    const sum = { name: "get-sum", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } };
    const weather = { name: "weather", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] } };
    // Two pages of tools/list, as the SDK's pagination sends them.
    c.recorder.out(rpc({ id: 1, method: "tools/list" }));
    c.recorder.in(rpc({ id: 1, result: { tools: [sum], nextCursor: "2" } }));
    c.recorder.out(rpc({ id: 2, method: "tools/list", params: { cursor: "2" } }));
    c.recorder.in(rpc({ id: 2, result: { tools: [weather] } }));
    c.recorder.out(rpc({ id: 3, method: "tools/call", params: { name: "get-sum", arguments: { a: "x" } } }));
    c.recorder.out(rpc({ id: 4, method: "tools/call", params: { name: "get-sum", arguments: { a: 1, b: 2 } } }));
    c.recorder.out(rpc({ id: 5, method: "tools/call", params: { name: "weather", arguments: {} } }));
    c.recorder.in(rpc({ id: 5, result: { content: [], structuredContent: { temp: "warm" } } }));
    await expect.poll(() => raw.checking === 0 && raw.verdicts.size === raw.frames.length).toBe(true);
    const verdictOf = (id: number, direction: "in" | "out") => raw.verdicts.get(raw.frames.find((f) => f.direction === direction && (f.decoded.json as { id?: unknown }).id === id)!.seq);
    expect(verdictOf(3, "out")).toMatchObject({
      status: "invalid",
      kind: "tools/call request",
      problems: ['/params/arguments: Missing required property "b".', '/params/arguments/a: "a" must be a number, not a string.'],
    });
    expect(verdictOf(4, "out")).toMatchObject({ status: "valid", kind: "tools/call request", problems: [] });
    expect(verdictOf(5, "in")).toMatchObject({ status: "invalid", problems: [expect.stringMatching(/^\/result\/structuredContent\/temp: /)] });
    raw.dispose();
    client.dispose();
  });

  it("says how many frames a flood kept from being validated instead of falling behind", async () => {
    const c = connection();
    const { checker, held } = fakeChecker(true);
    const raw = new RawJsonRpcState(c.log, { checker, defer: now });
    raw.follow(c.transport, "2025-06-18");
    const flood = MAX_IN_FLIGHT + MAX_QUEUED + 92;
    for (let i = 0; i < flood; i++) c.recorder.in(rpc({ method: "notifications/message", params: { level: "info", data: i } }));
    await tick();
    expect(held).toHaveLength(MAX_IN_FLIGHT);
    expect(raw.checking).toBe(MAX_IN_FLIGHT + MAX_QUEUED);
    expect(countsText(raw.counts, raw.version, raw.checking)).toBe("0 frames checked against MCP 2025-06-18: 0 valid, 0 invalid, 0 error responses; 508 being checked; 92 frames not validated.");
    expect(raw.verdicts.get(raw.frames.at(-1)!.seq)).toEqual({ status: "not-checked", reason: "Not validated: frames came faster than they could be checked." });
    while (held.length > 0) {
      held.splice(0).forEach((release) => release());
      await tick();
    }
    expect(raw.checking).toBe(0);
    expect(raw.counts).toEqual({ valid: MAX_IN_FLIGHT + MAX_QUEUED, invalid: 0, errorResponses: 0, notValidated: 92 });
    raw.dispose();
  });

  it("says so when a request gets no answer within the time limit, and when it comes late", async () => {
    const c = connection();
    const hand = handTimers();
    const raw = new RawJsonRpcState(c.log, { defer: now, timers: hand.timers });
    raw.follow(c.transport, "2025-06-18", 2_500);
    raw.text = rpc({ id: "x", method: "tools/list" });
    await raw.send(c.transport);
    expect(answerText(raw.answer!)).toBe('Waiting up to 2.5 s for an answer to id "x"…');
    expect([...hand.pending.values()].map((t) => t.ms)).toEqual([2_500]);
    hand.fire();
    expect(answerText(raw.answer!)).toBe('No answer to id "x" after 2.5 s.');
    c.clock.advance(10);
    c.recorder.in(rpc({ id: "x", result: { tools: [] } }));
    await tick();
    expect(answerText(raw.answer!)).toBe('Answered id "x" after 17.0 ms.');
    raw.dispose();
  });

  it("takes an error without an id as the answer, expects none to a notification or to text that is not JSON", async () => {
    const c = connection((text) => (text.startsWith("{") ? undefined : rpc({ id: null, error: { code: -32700, message: "Parse error" } })));
    const hand = handTimers();
    const raw = new RawJsonRpcState(c.log, { defer: now, timers: hand.timers });
    raw.follow(c.transport, "2025-06-18");
    raw.text = rpc({ method: "notifications/initialized" });
    await raw.send(c.transport);
    expect(raw.answer).toEqual({ state: "not-expected" });
    expect(hand.pending.size).toBe(0);
    raw.text = "[{";
    await raw.send(c.transport);
    expect(raw.answer).toEqual({ state: "not-expected" });
    raw.text = rpc({ id: 3, method: "ping", params: "wrong" }).replace('"2.0"', '"1.0"');
    await raw.send(c.transport);
    c.recorder.in(rpc({ id: null, error: { code: -32600, message: "Invalid Request" } }));
    await tick();
    expect(raw.answer).toMatchObject({ state: "answered", id: "3", rttMs: undefined });
    expect(hand.pending.size).toBe(0);
    raw.dispose();
  });

  it("ends a wait when the connection closes, and recalls sent messages like a shell", async () => {
    const c = connection();
    const raw = new RawJsonRpcState(c.log, { defer: now, timers: handTimers().timers });
    raw.follow(c.transport, undefined);
    for (const text of ["one", "two", rpc({ id: 5, method: "ping" })]) {
      raw.text = text;
      await raw.send(c.transport);
    }
    raw.follow(undefined, undefined);
    expect(answerText(raw.answer!)).toBe("The connection closed before an answer to id 5 came.");
    expect(countsText(raw.counts, raw.version, raw.checking)).toBe("Frames are not checked: no protocol version was negotiated.");
    raw.text = "draft";
    expect([raw.recall("older"), raw.text]).toEqual([true, rpc({ id: 5, method: "ping" })]);
    expect([raw.recall("older"), raw.text]).toEqual([true, "two"]);
    expect([raw.recall("newer"), raw.recall("newer"), raw.text]).toEqual([true, true, "draft"]);
    expect(raw.recall("newer")).toBe(false);
    // A new session starts with a clean slate, its history kept.
    raw.follow(c.transport, "2025-06-18");
    expect([raw.answer, raw.version, raw.history.size]).toEqual([null, "2025-06-18", 3]);
  });

  it("lists the whole connection or only what followed the last raw send", async () => {
    const c = connection((text) => text.replace('"method":"ping"', '"result":{}'));
    c.recorder.out(rpc({ id: 0, method: "initialize", params: {} }));
    const raw = new RawJsonRpcState(c.log, { defer: now });
    raw.follow(c.transport, undefined);
    raw.text = rpc({ id: 7, method: "ping" });
    await raw.send(c.transport);
    expect(raw.frames.map((f) => f.decoded.method ?? "answer")).toEqual(["ping", "answer"]);
    raw.showWholeConnection(true);
    expect(raw.frames.map((f) => f.decoded.method ?? "answer")).toEqual(["initialize", "ping", "answer"]);
    raw.dispose();
  });
});

describe("the 2026-07-28 envelope in raw mode", () => {
  const envelope = { protocolVersion: "2026-07-28", clientInfo: { name: "patchbay", version: "0.1.0" }, clientCapabilities: {} };

  it("goes into the typed request's _meta, keeping what is there", () => {
    const raw = new RawJsonRpcState(new WireLog(manualClock(), 10));
    raw.text = rpc({ id: 7, method: "tools/call", params: { name: "echo", _meta: { progressToken: "p" } } });
    raw.addEnvelope(envelope);
    expect(JSON.parse(raw.text)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "echo", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": envelope.clientInfo, "io.modelcontextprotocol/clientCapabilities": {}, progressToken: "p" } },
    });
    expect(raw.error).toBeNull();
  });

  it("says why it cannot go into text that is no request, and leaves the text alone", () => {
    const raw = new RawJsonRpcState(new WireLog(manualClock(), 10));
    for (const [text, why] of [
      ["{not json", /not JSON/],
      ["[1,2]", /not one JSON-RPC request/],
      [rpc({ id: 1, result: {} }), /not one JSON-RPC request/],
      [rpc({ id: 1, method: "x", params: [1] }), /params is not an object/],
    ] as const) {
      raw.text = text;
      raw.addEnvelope(envelope);
      expect(raw.text).toBe(text);
      expect(raw.error).toMatch(why);
    }
  });
});
