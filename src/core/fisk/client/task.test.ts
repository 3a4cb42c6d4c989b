import { describe, expect, it } from "vitest";
import { NatsRequestError, type NatsMessage } from "../../nats/port.ts";
import { createValidationEngine } from "../../packs/index.ts";
import { startTask } from "./task.ts";
import type { TaskEvent } from "./task-types.ts";
import { microError, NS, peerMessage, reply, scriptedDeps, settle, type Sent } from "./testing/scripted-port.ts";

const engine = createValidationEngine();
const validate = (text: string) => engine.session().validateText(text);
const TOKEN = "3A819bvTpf9dqcUgxM9ZZ810pkf";
const FINAL = { "Fisk-AI-Stream-Final": ["true"] };
const ackFor = (sent: Sent): NatsMessage => reply(peerMessage("ack", String(JSON.parse(sent.text).request), 0, { accepted: true }));

/** A task whose peer is scripted: `peer` delivers to the task's inbox. */
async function started(opts: Parameters<typeof startTask>[3] = {}, extra = {}) {
  const s = scriptedDeps(extra);
  let deliver: (m: NatsMessage) => void = () => undefined;
  s.port.onPublish = (_sent, d) => (deliver = d);
  const handle = startTask(s.deps, "nats-worker", { kind: "prompt", prompt: "how many streams" }, opts);
  const events: TaskEvent[] = [];
  handle.subscribe((e) => events.push(e));
  await settle();
  const peer = (kind: string, sequence: number, extra: Record<string, unknown> = {}, final = false) =>
    deliver(reply(peerMessage(kind, handle.request, sequence, extra), "_INBOX.x", final ? FINAL : undefined));
  return { ...s, handle, events, peer };
}

const select = { question_id: "q1", tool_use_id: "toolu_03Cd", question: "Which cluster?", options: ["east", "west"] };
const sentOn = (sent: readonly Sent[], subject: string) => sent.filter((x) => x.subject === subject).map((x) => JSON.parse(x.text) as Record<string, unknown>);

describe("startTask", () => {
  it("mints the request before sending, reads ack, events of every kind and the terminal, and counts gaps", async () => {
    const { handle, events, peer, port } = await started();
    expect(port.sent).toHaveLength(1);
    expect(port.sent[0]).toMatchObject({ subject: "choria.fisk-ai.task.nats-worker", via: "publish" });
    expect(JSON.parse(port.sent[0]!.text)).toMatchObject({ protocol: `${NS}.request.prompt`, request: handle.request, prompt: "how many streams" });
    peer("ack", 1, { accepted: true, conversation_token: TOKEN });
    peer("event.text", 2, { block: { text: "Looking." } });
    peer("event.citation", 4, { block: { source: "rfc1", page: 12 } });
    peer("result", 5, { stop_reason: "throttled" }, true);
    const result = await handle.done;
    expect(result).toMatchObject({ end: { kind: "terminal" }, terminal: { protocol: `${NS}.result`, stop_reason: "throttled" }, conversationTokenSeen: true, gaps: 1 });
    expect(events.filter((e) => e.type === "entry").map((e) => (e.type === "entry" ? e.entry.protocol : ""))).toEqual(["ack", "event.text", "event.citation", "result"].map((k) => `${NS}.${k}`));
    expect(events.at(-1)).toEqual({ type: "done", result });
    expect(handle.entries).toHaveLength(4);
    const ackText = new TextDecoder().decode(handle.entries[0]!.message.data);
    expect(handle.redactToken(ackText)).not.toContain(TOKEN);
    expect(handle.redactToken(ackText)).toContain('"conversation_token":"•••"');
    expect(JSON.stringify(result.terminal)).not.toContain(TOKEN);
  });

  it("keeps reading when a listener throws", async () => {
    const t = await started();
    t.handle.subscribe(() => {
      throw new Error("ui bug");
    });
    t.peer("ack", 1, { accepted: true });
    t.peer("result", 2, { stop_reason: "end_turn" }, true);
    expect((await t.handle.done).end.kind).toBe("terminal");
    expect(t.events.map((e) => e.type)).toEqual(["entry", "entry", "done"]);
  });

  it.each(["task.other", "task>", "task*", "", "task with space", "x".repeat(65)])("refuses the request id %j before any subscription or send", async (request) => {
    const { deps, port } = scriptedDeps();
    const handle = startTask(deps, "w", { kind: "prompt", prompt: "p" }, { request });
    expect((await handle.done).end).toMatchObject({ kind: "send-failed", message: expect.stringContaining("is not valid") });
    expect(await handle.cancel()).toMatchObject({ kind: "error" });
    expect(port.sent).toEqual([]);
    expect(port.subscriptions).toBe(0);
  });

  it("refuses a request the validator finds invalid, and sends nothing", async () => {
    const { deps, port } = scriptedDeps({ validate });
    const handle = startTask(deps, "w", { kind: "prompt", prompt: "" });
    expect((await handle.done).end).toMatchObject({ kind: "send-failed", message: expect.stringContaining("/prompt") });
    const resume = startTask(deps, "w", { kind: "resume", conversation_token: TOKEN, prompt: "again" });
    expect((await resume.done).end.kind).toBe("send-failed");
    expect(port.sent).toEqual([]);
  });

  it("asks a read for the whole replay by default", async () => {
    const { deps, port } = scriptedDeps();
    startTask(deps, "w", { kind: "read", conversation_token: TOKEN }, { request: "read-1" });
    await settle();
    expect(JSON.parse(port.sent[0]!.text)).toMatchObject({ protocol: `${NS}.request.read`, request: "read-1", conversation_token: TOKEN, replay: 200 });
  });

  it("sends elicit.waiting every wait_ms/3 while a person decides, stops before answering, and the answer is accepted", async () => {
    const t = await started({ idleMs: 30_000 });
    t.port.onRequest = ackFor;
    t.peer("ack", 1, { accepted: true });
    t.peer("elicit.request.select", 2, { ...select, wait_ms: 300 });
    expect(t.events.find((e) => e.type === "question")).toEqual({ type: "question", question: expect.objectContaining(select) });
    expect(t.handle.openQuestions.map((q) => q.question_id)).toEqual(["q1"]);
    const elicit = `choria.fisk-ai.elicit.nats-worker.${t.handle.request}`;
    for (let i = 0; i < 3; i++) {
      t.advance(100);
      await settle();
    }
    const waitings = sentOn(t.port.sent, elicit);
    expect(waitings.map((w) => w.protocol)).toEqual(Array(3).fill(`${NS}.elicit.waiting`));
    expect(waitings[0]).toMatchObject({ request: t.handle.request, question_id: "q1" });
    expect(await t.handle.answer("q1", { kind: "select", index: 1 })).toEqual({ kind: "accepted" });
    expect(sentOn(t.port.sent, elicit).at(-1)).toMatchObject({ protocol: `${NS}.elicit.reply.select`, question_id: "q1", index: 1 });
    t.advance(1000);
    await settle();
    expect(sentOn(t.port.sent, elicit)).toHaveLength(4);
    expect(t.events).toContainEqual({ type: "question-closed", questionId: "q1", how: "answered" });
    expect(t.handle.openQuestions).toEqual([]);
  });

  it("sends no waiting for a question without wait_ms", async () => {
    const t = await started();
    t.port.onRequest = ackFor;
    t.peer("elicit.request.confirm", 1, { question_id: "q2", question: "Sure?" });
    t.advance(100_000);
    await settle();
    expect(t.port.sent.filter((s) => s.via === "request")).toEqual([]);
  });

  it("closes a question whose waiting gets a 404 as gone, keeps a later answer, and keeps no dismissal", async () => {
    const t = await started();
    t.port.onRequest = () => microError("404", 'this run is not waiting on question "q1"');
    t.peer("elicit.request.select", 1, { ...select, wait_ms: 90 });
    t.advance(30);
    await settle();
    expect(t.events).toContainEqual({ type: "question-closed", questionId: "q1", how: "gone" });
    expect(await t.handle.dismiss("q1")).toMatchObject({ kind: "gone" });
    expect(t.handle.unsent).toEqual([]);
    expect(await t.handle.answer("q1", { kind: "select", index: 0 })).toEqual({ kind: "kept", reason: "the run no longer holds this question" });
    expect(t.handle.unsent).toEqual([{ question: expect.objectContaining(select), answer: { kind: "select", index: 0 }, reason: "the run no longer holds this question" }]);
    expect(await t.handle.answer("q9", { kind: "input", value: "x" })).toMatchObject({ kind: "gone", description: 'this task never asked question "q9"' });
    expect(await t.handle.answer("q1", { kind: "select", index: 2 })).toEqual({ kind: "refused", code: "invalid", description: "option 2 is not one of the 2 the question offered" });
    expect(t.handle.unsent).toHaveLength(1);
  });

  it("keeps an answer the run refused with 404, not a no_operator, and leaves the question open after a 400", async () => {
    const t = await started();
    t.peer("elicit.request.input", 1, { question_id: "qa", question: "Name?" });
    t.peer("elicit.request.confirm", 2, { question_id: "qb", question: "Sure?" });
    t.peer("elicit.request.input", 3, { question_id: "qc", question: "Again?" });
    expect(await t.handle.answer("qa", { kind: "confirm", confirmed: false })).toEqual({ kind: "refused", code: "invalid", description: 'question "qa" asks for input, not confirm' });
    t.port.onRequest = () => microError("400", "answer_too_large");
    expect(await t.handle.answer("qa", { kind: "input", value: "x" })).toEqual({ kind: "refused", code: "400", description: "answer_too_large" });
    expect(t.handle.openQuestions.map((q) => q.question_id)).toEqual(["qa", "qb", "qc"]);
    t.port.onRequest = () => microError("404", "gone");
    expect(await t.handle.answer("qa", { kind: "input", value: "" })).toMatchObject({ kind: "kept", reason: expect.stringContaining("404") });
    expect(await t.handle.dismiss("qb")).toMatchObject({ kind: "gone" });
    t.port.onRequest = () => Promise.reject(new NatsRequestError("no-responders", "503"));
    expect(await t.handle.answer("qc", { kind: "input", value: "z" })).toMatchObject({ kind: "kept", reason: expect.stringContaining("ended") });
    expect(t.handle.unsent.map((u) => u.question.question_id)).toEqual(["qa", "qc"]);
    expect(sentOn(t.port.sent, `choria.fisk-ai.elicit.nats-worker.${t.handle.request}`).map((m) => m.protocol)).toEqual(
      ["elicit.reply.input", "elicit.reply.input", "elicit.reply.no_operator", "elicit.reply.input"].map((k) => `${NS}.${k}`),
    );
  });

  it("sends a kept answer as request.answer with the kept token and the option text", async () => {
    const t = await started();
    t.peer("ack", 1, { accepted: true, conversation_token: TOKEN });
    t.peer("elicit.request.select", 2, select);
    t.peer("error", 3, { error: "deferred", code: "deferred" }, true);
    await t.handle.done;
    expect(await t.handle.answer("q1", { kind: "select", index: 1 })).toMatchObject({ kind: "kept" });
    const next = t.handle.sendUnsent(0);
    await settle();
    const sent = JSON.parse(t.port.sent.at(-1)!.text) as Record<string, unknown>;
    expect(sent).toMatchObject({ protocol: `${NS}.request.answer`, request: next.request, conversation_token: TOKEN, answer: { tool_use_id: "toolu_03Cd", kind: "select", answer: "value", value: "west" } });
    expect(next.request).not.toBe(t.handle.request);
    t.port.deliver(t.port.sent.at(-1)!.reply!, reply(peerMessage("ack", next.request, 1, { accepted: true })));
    expect(t.handle.unsent).toEqual([]);
    expect((await t.handle.sendUnsent(5).done).end).toMatchObject({ kind: "send-failed", message: "no kept answer at 5" });
  });

  it("cancels with a request on the cancel subject and reads its reply", async () => {
    const t = await started();
    const cancelSubject = `choria.fisk-ai.cancel.nats-worker.${t.handle.request}`;
    t.port.onRequest = ackFor;
    expect(await t.handle.cancel("changed my mind")).toEqual({ kind: "accepted" });
    expect(sentOn(t.port.sent, cancelSubject)[0]).toMatchObject({ protocol: `${NS}.cancel`, request: t.handle.request, reason: "changed my mind" });
    t.port.onRequest = () => Promise.reject(new NatsRequestError("no-responders", "503"));
    expect(await t.handle.cancel()).toEqual({ kind: "not-running" });
    t.port.onRequest = () => microError("400", "invalid request");
    expect(await t.handle.cancel()).toEqual({ kind: "refused", code: "400", description: "invalid request" });
    t.port.onRequest = (sent) => reply(peerMessage("result", String(JSON.parse(sent.text).request), 0, { stop_reason: "end_turn" }));
    expect(await t.handle.cancel()).toEqual({ kind: "error", message: `a reply to a cancel must be an ack, not ${NS}.result` });
  });

  it("keeps reading past the idle time while a question's waitings are acknowledged", async () => {
    const t = await started({ idleMs: 1000, allowShortIdle: true });
    t.port.onRequest = ackFor;
    t.peer("elicit.request.input", 1, { question_id: "q", question: "Name?", wait_ms: 300 });
    for (let i = 0; i < 30; i++) {
      t.advance(100);
      await settle();
    }
    let ended = false;
    void t.handle.done.then(() => (ended = true));
    await settle();
    expect(ended).toBe(false);
    t.port.onRequest = () => Promise.reject(new NatsRequestError("timeout", "timeout"));
    for (let i = 0; i < 30; i++) {
      t.advance(100);
      await settle();
    }
    expect((await t.handle.done).end).toEqual({ kind: "idle-timeout", idleMs: 1000 });
    expect(t.events).toContainEqual({ type: "question-closed", questionId: "q", how: "gone" });
  });

  it("follows up with the kept token on a new request, and refuses to without one", async () => {
    const t = await started();
    t.peer("ack", 1, { accepted: true, conversation_token: TOKEN });
    t.peer("result", 2, { stop_reason: "end_turn" }, true);
    await t.handle.done;
    const next = t.handle.followUp("and now?");
    await settle();
    expect(JSON.parse(t.port.sent.at(-1)!.text)).toMatchObject({ protocol: `${NS}.request.prompt`, request: next.request, prompt: "and now?", conversation_token: TOKEN });
    const fresh = await started();
    expect((await fresh.handle.followUp("x").done).end).toMatchObject({ kind: "send-failed", message: expect.stringContaining("no conversation token") });
  });
});
