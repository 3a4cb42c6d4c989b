/**
 * The fisk-ai client's read path (`request.read`) against a real nats-server and the test peer's
 * session store: a finished turn read back in order between the replay markers, a short replay
 * widened to a whole turn, an unknown token, a worker without a store. Everything the client sends
 * and receives goes through the wire log with the console's token redactor, as in the app.
 *
 * The handle keeps the conversation token private and offers no read of its own, so the tests take
 * the token from the ack the peer sent (the peer sees the wire).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_SENDER, FiskClient, redactFrameTokens, type FiskClientDeps, type TaskHandle, type TaskRequestInput } from "../../src/core/fisk/client/index.ts";
import { sequentialIds, systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { loggedPort } from "../../src/core/nats/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { expectPeersFaithful } from "../helpers/fisk-peer/expect-wire.ts";
import { startFiskPeer, type FiskPeer, type TaskScript } from "../helpers/fisk-peer/index.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const engine = createValidationEngine();
const clock = systemClock(performance, Date);
const utf8 = new TextDecoder();
const peers: FiskPeer[] = [];
const handles: TaskHandle[] = [];
let raw: NatsPort;
let wireLog: WireLog;
let client: FiskClient;
let worker: FiskPeer;
let storeless: FiskPeer;

const USAGE = { input_tokens: 5000, output_tokens: 300, llm_calls: 2 };
const SCRIPTS: Record<string, TaskScript> = {
  streams: {
    ack: { max_tokens: 200_000 },
    steps: [
      { kind: "event", event: "tool_call", block: { id: "toolu_01", name: "stream_ls", input: { json: true } } },
      { kind: "event", event: "tool_result", block: { call_id: "toolu_01", output: "ORDERS AUDIT" } },
      { kind: "event", event: "citation", block: { source: "rfc1", page: 12 } },
      { kind: "event", event: "text", block: { text: "There are 2 streams.", final: true } },
    ],
    end: { kind: "result", text: "There are 2 streams.", usage: USAGE },
  },
  consumers: { steps: [{ kind: "event", event: "text", block: { text: "No consumers." } }], end: { kind: "result", usage: { input_tokens: 210, output_tokens: 12, llm_calls: 1 } } },
};

beforeAll(async () => {
  raw = await tcpConnector().connect({ servers: natsUrl, name: "fisk-client-read" });
  // The console's own wiring: a logged port whose log never stores a conversation token.
  wireLog = new WireLog(clock, undefined, { redact: redactFrameTokens });
  const port = loggedPort(raw, wireLog, clock, sequentialIds("wire"));
  const deps: FiskClientDeps = { port, clock, scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER, validate: (t) => engine.session().validateText(t) };
  client = new FiskClient(deps);
  const script = (req: Record<string, unknown>) => SCRIPTS[String(req.prompt)] ?? {};
  worker = await start({ identity: tag("nats-worker"), task: script });
  storeless = await start({ identity: tag("stateless"), task: script, sessionStore: false });
});

afterAll(async () => {
  await Promise.all(peers.map((p) => p.stop()));
  await raw.close();
});

async function start(options: Parameters<typeof startFiskPeer>[1]): Promise<FiskPeer> {
  const peer = await startFiskPeer(natsUrl, options);
  peers.push(peer);
  return peer;
}

function task(identity: string, input: TaskRequestInput): TaskHandle {
  const h = client.startTask(identity, input, { idleMs: 5000, allowShortIdle: true, requestTimeoutMs: 2000 });
  handles.push(h);
  return h;
}

/** The token in the ack the peer sent for `request`. */
function tokenSentBy(peer: FiskPeer, request: string): string {
  const ack = peer.sent.filter((r) => r.kind === "fisk-ai").map((r) => JSON.parse(r.text) as Record<string, unknown>).find((m) => m.request === request && m.protocol === `${NS}.ack`);
  expect(ack?.conversation_token).toEqual(expect.any(String));
  return String(ack!.conversation_token);
}

/** A finished prompt turn and its token. */
async function turn(prompt: string, identity = worker.identity): Promise<[TaskHandle, string]> {
  const h = task(identity, { kind: "prompt", prompt });
  expect((await h.done).terminal).toMatchObject({ protocol: `${NS}.result` });
  return [h, tokenSentBy(peers.find((p) => p.identity === identity)!, h.request)];
}

const shape = (h: TaskHandle) => h.entries.map((e) => [e.disposition, e.protocol?.slice(NS.length + 1), e.sequence]);
const blockOf = (h: TaskHandle, i: number) => h.entries[i]?.value?.block;

// The last two tests audit the traffic of those before them, so the order is kept.
describe("the fisk-ai client: reading a conversation", { shuffle: false }, () => {
  it("reads a finished turn back: ack, replay_start, the turn's blocks in order, replay_end with its count, then the result", async () => {
    const [, token] = await turn("streams");
    const h = task(worker.identity, { kind: "read", conversation_token: token });
    const result = await h.done;
    expect(shape(h)).toEqual([
      ["ack", "ack", 1],
      ...["status", "prompt", "tool_call", "tool_result", "citation", "text", "status"].map((k, i) => ["event", `event.${k}`, i + 2]),
      ["terminal", "result", 9],
    ]);
    expect(h.entries[0]?.value).toMatchObject({ accepted: true, max_tokens: 200_000 });
    expect(blockOf(h, 1)).toEqual({ phase: "replay_start" });
    expect([2, 3, 4, 5, 6].map((i) => blockOf(h, i))).toEqual([
      { text: "streams" },
      { id: "toolu_01", name: "stream_ls", input: { json: true } },
      { call_id: "toolu_01", output: "ORDERS AUDIT" },
      { source: "rfc1", page: 12 },
      { text: "There are 2 streams.", final: true },
    ]);
    expect(blockOf(h, 7)).toEqual({ phase: "replay_end", usage: USAGE, count: 5 });
    expect(result).toMatchObject({ end: { kind: "terminal" }, terminal: { stop_reason: "end_turn", usage: USAGE }, conversationTokenSeen: true, gaps: 0 });
    expect(h.entries.at(-1)?.final).toBe(true);
    // The client asked for everything the worker will send.
    const sent = worker.received.find((r) => r.kind === "task" && r.text.includes(`"request":"${h.request}"`))!;
    expect(JSON.parse(sent.text)).toMatchObject({ protocol: `${NS}.request.read`, conversation_token: token, replay: 200 });
  });

  it("a short replay gets the newest turn whole and says older blocks were left behind", async () => {
    const [first, token] = await turn("streams");
    const next = first.followUp("consumers", { idleMs: 5000, allowShortIdle: true });
    handles.push(next);
    await next.done;
    const h = task(worker.identity, { kind: "read", conversation_token: token, replay: 1 });
    const result = await h.done;
    expect([2, 3].map((i) => blockOf(h, i))).toEqual([{ text: "consumers" }, { text: "No consumers." }]);
    expect(blockOf(h, 4)).toEqual({ phase: "replay_end", usage: { input_tokens: 5210, output_tokens: 312, llm_calls: 3 }, count: 2, truncated: true });
    expect(result.terminal).toMatchObject({ protocol: `${NS}.result`, usage: { input_tokens: 5210 } });
  });

  it("a read of an unknown token ends with the error code unknown_conversation", async () => {
    const h = task(worker.identity, { kind: "read", conversation_token: "3A819bvTpf9dqcUgxM9ZZ810pkf" });
    const result = await h.done;
    expect(shape(h)).toEqual([
      ["ack", "ack", 1],
      ["terminal", "error", 2],
    ]);
    expect(result.terminal).toMatchObject({ code: "unknown_conversation" });
    expect(h.entries.at(-1)?.final).toBe(true);
  });

  it("a worker without a session store refuses the read: ack false, then the error code rejected", async () => {
    const [, token] = await turn("consumers", storeless.identity);
    const h = task(storeless.identity, { kind: "read", conversation_token: token });
    const result = await h.done;
    expect(h.entries[0]?.value).toMatchObject({ accepted: false, reason: expect.any(String) as unknown });
    expect(result).toMatchObject({ end: { kind: "terminal" }, terminal: { protocol: `${NS}.error`, code: "rejected" }, conversationTokenSeen: false });
  });

  it("never shows a conversation token: not in any redacted entry, nor in the wire log", () => {
    const tokens = new Set(peers.flatMap((p) => p.received.filter((r) => r.kind === "task").map((r) => JSON.parse(r.text) as Record<string, unknown>).map((m) => m.conversation_token)).filter((t) => typeof t === "string"));
    tokens.add("3A819bvTpf9dqcUgxM9ZZ810pkf");
    expect(tokens.size).toBeGreaterThanOrEqual(3);
    let carried = 0;
    for (const h of handles) {
      for (const e of h.entries) {
        const text = utf8.decode(e.message.data);
        const token = [...tokens].find((t) => text.includes(t));
        if (token === undefined) continue;
        carried++;
        expect(h.redactToken(text)).not.toContain(token);
      }
    }
    // Every ack carrying a token was read raw and redacted: the check above is not vacuous.
    expect(carried).toBeGreaterThanOrEqual(5);
    const logged = wireLog.entries();
    expect(logged.some((e) => e.note?.includes("conversation_token redacted"))).toBe(true);
    for (const e of logged) for (const t of tokens) expect(utf8.decode(e.bytes)).not.toContain(t);
  });

  it("the peers sent only valid fisk-ai messages and none of their handlers failed", () => {
    expect(expectPeersFaithful(peers, "fisk-ai/gen2")).toBeGreaterThan(30);
  });
});
