/**
 * The fisk-ai client's task path against a real nats-server and the wire-level test peer, on one
 * server and across a three-node cluster. Cases of the note's §6.4/§6.5 that apply to a client,
 * by test name:
 *
 * - "streams ack, events of every kind…"                  order ack → events → terminal; unknown kind delivered; token kept privately
 * - "sends elicit.waiting while a person decides…"        waitings every wait_ms/3 keep a question past its window; answer accepted; waitings stop
 * - "a waiting that gets 404 closes the question…"        404 means the question is gone; a dismissal is not kept
 * - "an answer the run no longer waits for is kept…"      404 to an answer → kept in unsent → later sent as request.answer
 * - "a dismissal sends no_operator…"                      no_operator accepted, not kept; the unanswered approval ends suspended
 * - "a cancel reaches only the instance running…"         cancel addressed to the task's request, sibling hears nothing, ends suspended; after the end: not running
 * - "invalid request ids are refused before any send"     task.other, task>, task*, "", task with space
 * - "a task past the worker's limit…"                     ack false, then a final error with code capacity
 * - "a follow-up carries the kept token…"                 follow-up turn with the token and a new request tag
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_SENDER, FiskClient, type FiskClientDeps, type TaskEvent, type TaskHandle } from "../../src/core/fisk/client/index.ts";
import { elicitReply, encodeFiskBytes, type ElicitAnswerInput, type ElicitRequest } from "../../src/core/fisk/codec/index.ts";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { startFiskPeer, type FiskPeer, type TaskScript } from "../helpers/fisk-peer/index.ts";
import { eventually, startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const engine = createValidationEngine();
const clock = systemClock(performance, Date);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const peers: FiskPeer[] = [];
let raw: NatsPort;
let deps: FiskClientDeps;
let client: FiskClient;
let worker: FiskPeer;

const SCRIPTS: Record<string, TaskScript> = {
  events: {
    ack: { max_tokens: 200_000 },
    steps: [
      { kind: "event", event: "text", block: { text: "Looking at the streams." } },
      { kind: "event", event: "tool_call", block: { id: "toolu_01", name: "stream_ls", input: { json: true } } },
      { kind: "event", event: "tool_result", block: { call_id: "toolu_01", output: '{"command":"stream ls --json","exit_code":0}' } },
      { kind: "event", event: "status", block: { iteration: 1, usage: { input_tokens: 6120, output_tokens: 88 } } },
      { kind: "event", event: "citation", block: { source: "rfc1", page: 12 } },
    ],
    end: { kind: "result", text: "There are 2 streams." },
  },
  select: { steps: [{ kind: "elicit", question: { kind: "select", tool_use_id: "toolu_03Cd", question: "Which cluster?", options: ["east", "west"] }, windowMs: 150 }], end: { kind: "result", text: "done" } },
  short: { steps: [{ kind: "elicit", question: { kind: "confirm", tool_use_id: "toolu_02", question: "Sure?" }, windowMs: 150 }, { kind: "pause", ms: 1500 }] },
  long: { steps: [{ kind: "elicit", question: { kind: "input", tool_use_id: "toolu_04", question: "Name?" }, windowMs: 3000 }, { kind: "pause", ms: 200 }] },
  approve: { steps: [{ kind: "elicit", question: { kind: "approve", tool_use_id: "toolu_01Xy", command: "stream rm", display: "stream rm --force -- ORDERS" }, windowMs: 3000 }] },
  hold: { steps: [{ kind: "until-cancel" }] },
};
const script = (req: Record<string, unknown>): TaskScript => SCRIPTS[String(req.prompt)] ?? {};

let peerUrl = natsUrl;
let clientUrl = natsUrl;

async function start(options: Parameters<typeof startFiskPeer>[1]): Promise<FiskPeer> {
  const peer = await startFiskPeer(peerUrl, options);
  peers.push(peer);
  // On the cluster the peer subscribed on node 3: wait until the client's node 1 knows of it.
  if (peerUrl !== clientUrl) await eventually(async () => (await client.discover(peer.identity, { timeoutMs: 1000 })).outcome.kind !== "no-such-agent", `${peer.identity} reachable from the client's node`);
  return peer;
}

/** Resolves with the first event that matches, now or later. */
function eventOf<T extends TaskEvent["type"]>(h: TaskHandle, type: T, match: (e: Extract<TaskEvent, { type: T }>) => boolean = () => true): Promise<Extract<TaskEvent, { type: T }>> {
  return new Promise((resolve) => {
    const off = h.subscribe((e) => {
      if (e.type === type && match(e as Extract<TaskEvent, { type: T }>)) {
        off();
        resolve(e as Extract<TaskEvent, { type: T }>);
      }
    });
  });
}

const prompt = (text: string, identity = worker.identity) => client.startTask(identity, { kind: "prompt", prompt: text }, { idleMs: 5000, allowShortIdle: true, requestTimeoutMs: 2000 });
/** Someone else answers the question on the elicit subject, behind the client's back. */
async function answerElsewhere(h: TaskHandle, q: ElicitRequest, answer: ElicitAnswerInput): Promise<void> {
  const body = encodeFiskBytes(elicitReply(q, answer, { clock, random: deps.random, sender: { name: "other-console" } }));
  const reply = await raw.request(`choria.fisk-ai.elicit.${worker.identity}.${h.request}`, body, { timeoutMs: 2000 });
  expect(JSON.parse(new TextDecoder().decode(reply.data))).toMatchObject({ protocol: `${NS}.ack`, accepted: true });
}
const elicitReceived = (h: TaskHandle, kind: string) => worker.received.filter((r) => r.subject.endsWith(`.${h.request}`) && r.kind === "elicit" && JSON.parse(r.text).protocol === `${NS}.${kind}`);
const tokenSentTo = (request: string) => String(JSON.parse(worker.sent.find((r) => r.text.includes(`"request":"${request}"`) && r.text.includes(`"${NS}.ack"`))!.text).conversation_token);

/** The same cases on one server, and across a three-node cluster (the peers on node 3, the client on node 1). */
describe.each(["a single server", "a three-node cluster"] as const)("on %s", (target) => {
  let cluster: NatsCluster | undefined;
  beforeAll(async () => {
    if (target === "a three-node cluster") {
      cluster = await startNatsCluster();
      clientUrl = cluster.nodes[0]!.url;
      peerUrl = cluster.nodes[2]!.url;
    }
    raw = await tcpConnector().connect({ servers: clientUrl, name: "fisk-client-tasks" });
    deps = { port: raw, clock, scheduler: systemScheduler(), random: (b) => crypto.getRandomValues(b), sender: DEFAULT_SENDER, validate: (t) => engine.session().validateText(t) };
    client = new FiskClient(deps);
    worker = await start({ identity: tag("nats-worker"), taskWorkers: 4, task: script });
  }, 30_000);

  afterAll(async () => {
    await Promise.all(peers.splice(0).map((p) => p.stop()));
    await raw.close();
    await cluster?.stop();
    clientUrl = peerUrl = natsUrl;
  });

  describe("the fisk-ai client: tasks", () => {
    it("streams ack, events of every kind (unknown too) and the result, keeping the token out of sight", async () => {
      const h = prompt("events");
      const result = await h.done;
      expect(h.entries.map((e) => [e.disposition, e.protocol, e.sequence])).toEqual([
        ["ack", `${NS}.ack`, 1],
        ...["text", "tool_call", "tool_result", "status", "citation"].map((k, i) => ["event", `${NS}.event.${k}`, i + 2]),
        ["terminal", `${NS}.result`, 7],
      ]);
      expect(h.entries[5]?.value?.block).toEqual({ source: "rfc1", page: 12 });
      expect(h.entries[0]?.value).toMatchObject({ accepted: true, max_tokens: 200_000 });
      expect(result).toMatchObject({ end: { kind: "terminal" }, terminal: { stop_reason: "end_turn", text: "There are 2 streams." }, conversationTokenSeen: true, gaps: 0 });
      const token = tokenSentTo(h.request);
      expect(JSON.stringify(result.terminal)).not.toContain(token);
      expect(h.redactToken(new TextDecoder().decode(h.entries[0]!.message.data))).not.toContain(token);
    });

    it("sends elicit.waiting while a person decides, keeping the question past its window, then the answer is accepted", async () => {
      const h = prompt("select");
      const { question } = await eventOf(h, "question");
      expect(question).toMatchObject({ protocol: `${NS}.elicit.request.select`, options: ["east", "west"], wait_ms: 150 });
      await sleep(400);
      expect(elicitReceived(h, "elicit.waiting").length).toBeGreaterThanOrEqual(5);
      expect(h.openQuestions).toHaveLength(1);
      expect(await h.answer(question.question_id, { kind: "select", index: 1 })).toEqual({ kind: "accepted" });
      const sentWaitings = elicitReceived(h, "elicit.waiting").length;
      expect(elicitReceived(h, "elicit.reply.select").map((r) => JSON.parse(r.text))).toMatchObject([{ question_id: question.question_id, index: 1 }]);
      expect((await h.done).terminal).toMatchObject({ protocol: `${NS}.result`, text: "done" });
      await sleep(120);
      expect(elicitReceived(h, "elicit.waiting")).toHaveLength(sentWaitings);
    });

    it("a waiting that gets 404 closes the question as gone, and a dismissal of it is not kept", async () => {
      const h = prompt("short");
      const { question } = await eventOf(h, "question");
      const gone = eventOf(h, "question-closed");
      await answerElsewhere(h, question, { kind: "confirm", confirmed: true });
      expect(await gone).toEqual({ type: "question-closed", questionId: question.question_id, how: "gone" });
      expect(await h.dismiss(question.question_id)).toMatchObject({ kind: "gone" });
      expect(h.unsent).toEqual([]);
      await h.cancel();
      await h.done;
    });

    it("an answer the run no longer waits for is kept, and is sent later as request.answer with the kept token", async () => {
      const h = prompt("long");
      const { question } = await eventOf(h, "question");
      await answerElsewhere(h, question, { kind: "input", value: "east" });
      const outcome = await h.answer(question.question_id, { kind: "input", value: "west" });
      expect(outcome).toMatchObject({ kind: "kept", reason: expect.stringContaining("404") });
      expect(h.unsent).toEqual([{ question: expect.objectContaining({ question_id: question.question_id }), answer: { kind: "input", value: "west" }, reason: outcome.kind === "kept" ? outcome.reason : "" }]);
      await h.done;
      const later = h.sendUnsent(0);
      expect((await later.done).terminal).toMatchObject({ protocol: `${NS}.result` });
      const sent = worker.received.find((r) => r.kind === "task" && r.text.includes(`"request":"${later.request}"`))!;
      expect(JSON.parse(sent.text)).toMatchObject({ protocol: `${NS}.request.answer`, conversation_token: tokenSentTo(h.request), answer: { tool_use_id: "toolu_04", kind: "input", answer: "value", value: "west" } });
      expect(h.unsent).toEqual([]);
    });

    it("a dismissal sends no_operator, is not kept, and the unanswered approval ends suspended", async () => {
      const h = prompt("approve");
      const { question } = await eventOf(h, "question");
      expect(await h.dismiss(question.question_id)).toEqual({ kind: "accepted" });
      expect(elicitReceived(h, "elicit.reply.no_operator")).toHaveLength(1);
      expect((await h.done).terminal).toMatchObject({ protocol: `${NS}.error`, code: "suspended" });
      expect(h.unsent).toEqual([]);
    });

    it("a cancel reaches only the instance running the task, which ends suspended; after the end nothing is running", async () => {
      const identity = tag("twin");
      const twins = [await start({ identity, task: SCRIPTS.hold }), await start({ identity, task: SCRIPTS.hold })];
      const h = prompt("hold", identity);
      await eventOf(h, "entry", (e) => e.entry.disposition === "ack");
      expect(await h.cancel("changed my mind")).toEqual({ kind: "accepted" });
      expect((await h.done).terminal).toMatchObject({ protocol: `${NS}.error`, code: "suspended", stop_reason: "suspended" });
      const cancels = twins.map((t) => t.received.filter((r) => r.kind === "cancel"));
      expect(cancels.map((c) => c.length).sort()).toEqual([0, 1]);
      expect(JSON.parse(cancels.flat()[0]!.text)).toMatchObject({ protocol: `${NS}.cancel`, request: h.request, reason: "changed my mind" });
      expect(await h.cancel()).toEqual({ kind: "not-running" });
    });

    it("invalid request ids are refused before any send", async () => {
      let calls = 0;
      const counting: NatsPort = { ...raw, server: raw.server, publish: () => void calls++, subscribe: () => (calls++, { unsubscribe: () => undefined }), request: () => (calls++, Promise.reject(new Error("sent"))) };
      const strict = new FiskClient({ ...deps, port: counting });
      for (const request of ["task.other", "task>", "task*", "", "task with space"]) {
        const h = strict.startTask(worker.identity, { kind: "prompt", prompt: "events" }, { request });
        expect((await h.done).end, request).toMatchObject({ kind: "send-failed" });
        expect((await h.cancel()).kind).toBe("error");
      }
      expect(calls).toBe(0);
    });

    it("a task past the worker's limit is refused: ack false, then a final error with code capacity", async () => {
      const single = await start({ identity: tag("busy-worker"), task: SCRIPTS.hold });
      const first = prompt("hold", single.identity);
      await eventOf(first, "entry", (e) => e.entry.disposition === "ack");
      const second = prompt("hold", single.identity);
      expect((await second.done).terminal).toMatchObject({ protocol: `${NS}.error`, code: "capacity" });
      expect(second.entries[0]?.value).toMatchObject({ accepted: false, reason: "this worker is running its maximum of 1 prompts" });
      expect(await first.cancel()).toEqual({ kind: "accepted" });
      await first.done;
    });

    it("a follow-up carries the kept token on a new request tag", async () => {
      const h = prompt("events");
      await h.done;
      const next = h.followUp("and the consumers?");
      await next.done;
      const sent = JSON.parse(worker.received.find((r) => r.kind === "task" && r.text.includes(`"request":"${next.request}"`))!.text);
      expect(next.request).not.toBe(h.request);
      expect(sent).toMatchObject({ protocol: `${NS}.request.prompt`, prompt: "and the consumers?", conversation_token: tokenSentTo(h.request) });
    });

    it("left every test peer healthy", () => {
      for (const p of peers) expect(p.failures).toEqual([]);
    });
  });
});
