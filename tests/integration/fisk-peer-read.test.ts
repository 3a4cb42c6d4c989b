import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFiskPeer, type FiskPeer, type TaskScript } from "../helpers/fisk-peer/index.ts";
import { expectPeersFaithful, expectReplySet, KSUID } from "../helpers/fisk-peer/expect-wire.ts";
import { call, clientRequest, openInbox } from "../helpers/fisk-peer/raw-client.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const subject = (kind: string, ...parts: string[]) => ["choria.fisk-ai", kind, ...parts].join(".");
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

const texts = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ kind: "event" as const, event: "text", block: { text: `${prefix} ${i}` } }));
const SCRIPTS: Record<string, TaskScript> = {
  streams: {
    ack: { max_tokens: 200_000 },
    steps: [
      { kind: "event", event: "tool_call", block: { id: "toolu_01", name: "stream_ls", input: { json: true } } },
      { kind: "event", event: "tool_result", block: { call_id: "toolu_01", output: "ORDERS AUDIT" } },
      { kind: "event", event: "citation", block: { source: "rfc1", page: 12 } },
      { kind: "event", event: "text", block: { text: "There are 2 streams.", final: true } },
    ],
    end: { kind: "result", text: "There are 2 streams.", usage: { input_tokens: 5000, output_tokens: 300, llm_calls: 2 } },
  },
  consumers: { steps: [{ kind: "event", event: "text", block: { text: "No consumers." } }], end: { kind: "result", usage: { input_tokens: 210, output_tokens: 12, llm_calls: 1 } } },
  hundred: { steps: texts(100, "line"), end: { kind: "result", usage: { output_tokens: 1 } } },
  hold: { steps: [{ kind: "until-cancel" }] },
};

let nc: NatsConnection;
let worker: FiskPeer;
const peers: FiskPeer[] = [];
const start = async (...args: Parameters<typeof startFiskPeer>) => {
  const p = await startFiskPeer(...args);
  peers.push(p);
  return p;
};

beforeAll(async () => {
  nc = await connect({ servers: natsUrl, name: "fisk-peer-read-test" });
  worker = await start(natsUrl, { identity: tag("nats-worker"), taskWorkers: 1, task: (req) => SCRIPTS[String(req.prompt)] ?? {} });
});

afterAll(async () => {
  await Promise.all(peers.map((p) => p.stop()));
  await nc?.close();
});

/** A whole prompt turn; returns the token its ack carried. */
async function turn(prompt: string, token?: string, agent = worker): Promise<string> {
  const set = await call(nc, subject("task", agent.identity), clientRequest("request.prompt", agent.identity, token ? { prompt, conversation_token: token } : { prompt }));
  expect(set.at(-1)?.json?.protocol).toBe(`${NS}.result`);
  return String(set[0]!.json!.conversation_token);
}

async function read(token: string, replay = 200, agent = worker) {
  const request = tag("read");
  const set = await call(nc, subject("task", agent.identity), clientRequest("request.read", agent.identity, { conversation_token: token, replay }, { request }));
  expectReplySet(set, request, agent.identity);
  return set;
}

const blocksOf = (set: Awaited<ReturnType<typeof read>>) => set.slice(2, -2).map((r) => [String(r.json!.protocol).slice(NS.length + 7), r.json!.block]);

// The last test audits the traffic of those before it, so the order is kept.
describe("the fisk-ai test peer answers request.read from its session store", { shuffle: false }, () => {
  it("replays a finished turn between replay_start and replay_end, then a result with the conversation's usage", async () => {
    const token = await turn("streams");
    expect(token).toMatch(KSUID);
    const set = await read(token);
    const events = ["status", "prompt", "tool_call", "tool_result", "citation", "text", "status"].map((k) => `${NS}.event.${k}`);
    expect(set.map((r) => r.json!.protocol)).toEqual([`${NS}.ack`, ...events, `${NS}.result`]);
    expect(set[0]!.json).toEqual(expect.objectContaining({ accepted: true, conversation_token: token, max_tokens: 200_000 }));
    expect(set[1]!.json!.block).toEqual({ phase: "replay_start" });
    expect(blocksOf(set)).toEqual([
      ["prompt", { text: "streams" }],
      ["tool_call", { id: "toolu_01", name: "stream_ls", input: { json: true } }],
      ["tool_result", { call_id: "toolu_01", output: "ORDERS AUDIT" }],
      ["citation", { source: "rfc1", page: 12 }],
      ["text", { text: "There are 2 streams.", final: true }],
    ]);
    const usage = { input_tokens: 5000, output_tokens: 300, llm_calls: 2 };
    // Go's omitempty: an untruncated replay has no `truncated` field.
    expect(set.at(-2)!.text).toContain(`"block":{"phase":"replay_end","usage":${JSON.stringify(usage)},"count":5}`);
    expect(set.at(-1)!.json).toMatchObject({ protocol: `${NS}.result`, stop_reason: "end_turn", usage });
    expect(set.at(-1)!.json).not.toHaveProperty("text");
  });

  it("keeps every turn of a conversation and replays the newest, rounded outwards to whole turns", async () => {
    const token = await turn("streams");
    expect(await turn("consumers", token)).toBe(token);
    const all = await read(token);
    expect(blocksOf(all).map((b) => b[0])).toEqual(["prompt", "tool_call", "tool_result", "citation", "text", "prompt", "text"]);
    expect(all.at(-2)!.json!.block).toEqual({ phase: "replay_end", usage: { input_tokens: 5210, output_tokens: 312, llm_calls: 3 }, count: 7 });
    const last = await read(token, 2);
    expect(blocksOf(last)).toEqual([["prompt", { text: "consumers" }], ["text", { text: "No consumers." }]]);
    expect(last.at(-2)!.json!.block).toMatchObject({ count: 2, truncated: true, usage: { input_tokens: 5210 } });
    // Three blocks cut into the first turn, which is then sent whole.
    const widened = await read(token, 3);
    expect(widened.at(-2)!.json!.block).toMatchObject({ count: 7 });
    expect(widened.at(-2)!.json!.block).not.toHaveProperty("truncated");
  });

  it("sends at most 200 blocks however many are asked for, widened to the turn the cap cuts into", async () => {
    let token = await turn("hundred");
    for (let i = 0; i < 2; i++) token = await turn("hundred", token);
    const set = await read(token, 500);
    expect(set.at(-2)!.json!.block).toEqual({ phase: "replay_end", usage: { output_tokens: 3 }, count: 202, truncated: true });
    expect(set).toHaveLength(202 + 4);
    expect(blocksOf(set)[0]).toEqual(["prompt", { text: "hundred" }]);
    expect(blocksOf(set)[101]).toEqual(["prompt", { text: "hundred" }]);
  });

  it("answers a read at once while a turn of the worker is running, taking no slot", async () => {
    const token = await turn("consumers");
    const held = { request: tag("task"), reader: openInbox(nc) };
    await nc.flush();
    nc.publish(subject("task", worker.identity), clientRequest("request.prompt", worker.identity, { prompt: "hold" }, { request: held.request }), { reply: held.reader.inbox });
    expect((await held.reader.next()).json).toMatchObject({ accepted: true });
    expect(worker.runningTasks()).toEqual([held.request]);
    const set = await read(token);
    expect(set.at(-1)!.json).toMatchObject({ protocol: `${NS}.result`, stop_reason: "end_turn" });
    expect(worker.runningTasks()).toEqual([held.request]);
    const cancel = await nc.request(subject("cancel", worker.identity, held.request), clientRequest("cancel", worker.identity, {}, { request: held.request }), { timeout: 2000 });
    expect(JSON.parse(cancel.string())).toMatchObject({ accepted: true });
    expect((await held.reader.next()).json).toMatchObject({ protocol: `${NS}.error`, code: "suspended" });
    held.reader.close();
  });

  it("ends a read of an unknown token with unknown_conversation, and a worker without a store refuses with rejected", async () => {
    const unknown = await read("3A819bvTpf9dqcUgxM9ZZ810pkf");
    expect(unknown.map((r) => r.json)).toMatchObject([
      { protocol: `${NS}.ack`, accepted: true },
      { protocol: `${NS}.error`, code: "unknown_conversation" },
    ]);
    expect(unknown[1]!.json!.error).not.toContain("3A819bvTpf9dqcUgxM9ZZ810pkf");
    const storeless = await start(natsUrl, { identity: tag("stateless"), sessionStore: false, task: SCRIPTS.consumers });
    const token = await turn("consumers", undefined, storeless);
    const refused = await read(token, 200, storeless);
    expect(refused.map((r) => r.json)).toMatchObject([
      { protocol: `${NS}.ack`, accepted: false, reason: expect.stringContaining("no sessions") as unknown },
      { protocol: `${NS}.error`, code: "rejected" },
    ]);
    expect(refused[0]!.json).not.toHaveProperty("conversation_token");
  });

  it("sent only valid fisk-ai messages, and no peer handler failed", () => {
    expect(expectPeersFaithful(peers, "fisk-ai/gen2")).toBeGreaterThan(300);
  });
});
