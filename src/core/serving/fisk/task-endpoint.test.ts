import { describe, expect, it } from "vitest";
import { cancelMessage, elicitReply, elicitWaiting, type ElicitRequest } from "../../fisk/codec/index.ts";
import { createValidationEngine } from "../../packs/index.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { engineValidator } from "./fisk-intake.ts";
import { startFiskServer } from "./fisk-server.ts";
import { FINAL_HEADER, SERVICE_ERROR, SERVICE_ERROR_CODE } from "./reply-stream.ts";
import { Harness, type Answer } from "./testing/harness.ts";
import { settle } from "./testing/memory-bus.ts";

const NS = "io.choria.fisk-ai.v1";
const engine = createValidationEngine();
const validate = engineValidator(engine);
const kinds = (set: Answer[]) => set.map((a) => String(a.json?.protocol).slice(NS.length + 1));

/** A complete Gen 2 task reply set: numbered from 1, valid, only the terminal marked final. */
function expectTaskSet(set: Answer[]): void {
  set.forEach((a, i) => {
    expect(a.json?.sequence).toBe(i + 1);
    expect(a.final).toBe(i === set.length - 1);
    // A valid `error` message is an error response, not an invalid message.
    expect(["valid", "error-response"], a.text).toContain(engine.session().validateText(a.text, { packId: "fisk-ai/gen2" }).status);
  });
  expect(kinds(set)[0]).toBe("ack");
  expect(["result", "error"]).toContain(kinds(set).at(-1));
}

const token = (set: Answer[]) => set[0]!.json!.conversation_token as string;
const question = (set: Answer[]) => set.find((a) => kinds([a])[0] === "elicit.request.approve")!.json as unknown as ElicitRequest;

describe("the scripted task runner", () => {
  it("echoes a prompt that names no tool: ack with a token, the final text, a result", async () => {
    const h = new Harness();
    await h.start({ validate, instance: "i-1" });
    const inbox = h.task("prompt", { prompt: "hello there" });
    await settle();
    const set = h.answers(inbox);
    expectTaskSet(set);
    expect(kinds(set)).toEqual(["ack", "event.text", "result"]);
    expect(set[0]!.json).toMatchObject({ accepted: true, sender: { name: "patchbay-demo", instance: "i-1" } });
    expect(token(set)).toMatch(/^[0-9A-Za-z]{27}$/);
    expect(set[1]!.json!.block).toEqual({ text: "hello there", final: true });
    expect(set[2]!.json).toMatchObject({ stop_reason: "end_turn", text: "hello there" });
  });

  it("runs the tool a prompt names: tool_call, tool_result, final text, result with the tool count", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.task("prompt", { prompt: 'run add {"a":2,"b":3}' });
    await settle();
    const set = h.answers(inbox);
    expectTaskSet(set);
    expect(kinds(set)).toEqual(["ack", "event.tool_call", "event.tool_result", "event.text", "result"]);
    const call = set[1]!.json!.block as { id: string };
    expect(set[1]!.json!.block).toEqual({ id: call.id, name: "add", input: { a: 2, b: 3 } });
    expect(call.id).toMatch(/^toolu_/);
    expect(set[2]!.json!.block).toEqual({ call_id: call.id, output: "5" });
    expect(set[4]!.json).toMatchObject({ stop_reason: "end_turn", text: "5", usage: { tool_calls: 1 } });
  });

  it("tool_hints names the tool of a JSON prompt; several run lines run in order; a failing tool is its result", async () => {
    const h = new Harness();
    await h.start({ validate });
    const hinted = h.task("prompt", { prompt: '{"message":"via hint"}', tool_hints: ["echo"] });
    const several = h.task("prompt", { prompt: 'run echo {"message":"one"}\nrun fail {"exit_code":2,"output":"bad\\n"}\nrun add {"a":1}' });
    await settle();
    expect(h.answers(hinted).at(-1)!.json).toMatchObject({ text: "via hint" });
    const set = h.answers(several);
    expectTaskSet(set);
    const results = set.filter((a) => kinds([a])[0] === "event.tool_result").map((a) => a.json!.block as Record<string, unknown>);
    expect(JSON.parse(results[1]!.output as string)).toEqual({ command: "fail 2", exit_code: 2, output: "bad\n" });
    expect(results[2]).toMatchObject({ is_error: true, output: '"b" must be a finite number' });
    expect(set.at(-1)!.json).toMatchObject({ stop_reason: "end_turn", text: 'echo: one\nfail: exit code 2\nbad\n\nadd: failed: "b" must be a finite number', usage: { tool_calls: 3 } });
  });

  it("a tool it does not serve ends in an error naming it, after an unknown_tool warning; bad input JSON is rejected", async () => {
    const h = new Harness();
    await h.start({ validate });
    const unknown = h.task("prompt", { prompt: "run nope {}" });
    const badJson = h.task("prompt", { prompt: "run echo {nope" });
    await settle();
    const set = h.answers(unknown);
    expectTaskSet(set);
    expect(kinds(set)).toEqual(["ack", "event.warning", "error"]);
    expect(set[1]!.json!.block).toEqual({ kind: "unknown_tool", name: "nope" });
    expect(set[2]!.json).toMatchObject({ code: "failed", stop_reason: "error", error: expect.stringContaining('tool "nope", which this agent does not serve') });
    expect(h.answers(badJson).at(-1)!.json).toMatchObject({ code: "rejected", error: expect.stringContaining("the input is not JSON") });
  });

  it("stream:false sends the ack and the terminal only", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.task("prompt", { prompt: 'run echo {"message":"quiet"}', stream: false });
    await settle();
    expect(kinds(h.answers(inbox))).toEqual(["ack", "result"]);
  });

  it("a long tool streams its progress and keepalives, and its slot comes from the shared limit", async () => {
    const h = new Harness();
    await h.start({ validate, keepaliveMs: 1500, concurrency: 1 });
    const inbox = h.task("prompt", { prompt: 'run sleep {"seconds":2}' });
    await settle();
    expect(h.server.status().active).toBe(1);
    await h.advance(2500, 500);
    const set = h.answers(inbox);
    expectTaskSet(set);
    const statuses = set.filter((a) => kinds([a])[0] === "event.status").map((a) => a.json!.block);
    expect(statuses).toContainEqual({ phase: "running-tool", progress: 1, total: 2, message: "1 of 2 s" });
    expect(statuses).toContainEqual({ phase: "running-tool" });
    expect(h.server.status().active).toBe(0);
  });
});

describe("approval of confirm-gated tools", () => {
  it("asks with elicit.request.approve, runs once approved through elicit.reply, and acks the answer", async () => {
    const h = new Harness();
    await h.start({ validate, questionWindowMs: 60_000 });
    const inbox = h.task("prompt", { prompt: 'run confirm {"action":"drop"}' }, { request: "task-approve" });
    await settle();
    const q = question(h.answers(inbox));
    expect(q).toMatchObject({ command: "confirm", display: 'confirm {"action":"drop"}', tag: "ai:confirm", wait_ms: 60_000 });
    const elicit = `choria.fisk-ai.elicit.${h.identity}.task-approve`;
    const waited = h.ask(elicit, elicitWaiting(q, h.stamp()));
    await settle();
    expect(h.answers(waited)[0]!.json).toMatchObject({ protocol: `${NS}.ack`, accepted: true, sequence: 0 });
    const answered = h.ask(elicit, elicitReply(q, { kind: "approve", choice: "once" }, h.stamp()));
    await settle();
    expect(h.answers(answered)[0]!.json).toMatchObject({ accepted: true });
    const set = h.answers(inbox);
    expectTaskSet(set);
    expect(kinds(set)).toEqual(["ack", "event.tool_call", "elicit.request.approve", "event.tool_result", "event.text", "result"]);
    expect(set.at(-1)!.json).toMatchObject({ text: "done: drop" });
    const late = h.ask(elicit, elicitReply(q, { kind: "approve", choice: "once" }, h.stamp()));
    await settle();
    // The task ended: nobody holds its elicit subject any more.
    expect(h.answers(late)).toEqual([]);
  });

  it("a waiting keeps the question open past its window; unanswered, the turn suspends, and request.answer runs it", async () => {
    const h = new Harness();
    await h.start({ validate, questionWindowMs: 10_000 });
    const inbox = h.task("prompt", { prompt: 'run confirm {"action":"a"}\nrun echo {"message":"after"}' }, { request: "task-window" });
    await settle();
    const first = h.answers(inbox);
    const q = question(first);
    await h.advance(8000);
    h.ask(`choria.fisk-ai.elicit.${h.identity}.task-window`, elicitWaiting(q, h.stamp()));
    await h.advance(8000);
    expect(h.answers(inbox).at(-1)!.final).toBe(false);
    await h.advance(3000);
    const set = h.answers(inbox);
    expectTaskSet(set);
    expect(set.at(-1)!.json).toMatchObject({ code: "suspended", stop_reason: "suspended", error: expect.stringContaining("request.answer") });
    const wrongId = h.task("answer", { conversation_token: token(first), answer: { tool_use_id: "toolu_other", kind: "approve", answer: "choice", choice: "once" } });
    const answer = h.task("answer", { conversation_token: token(first), answer: { tool_use_id: q.tool_use_id, kind: "approve", answer: "choice", choice: "once" } });
    await settle();
    expect(h.answers(wrongId).at(-1)!.json).toMatchObject({ code: "unknown_call" });
    const resumed = h.answers(answer);
    expectTaskSet(resumed);
    expect(kinds(resumed)).toEqual(["ack", "event.tool_result", "event.tool_call", "event.tool_result", "event.text", "result"]);
    expect(resumed.at(-1)!.json).toMatchObject({ text: "confirm: done: a\necho: after", usage: { tool_calls: 2 } });
    const again = h.task("answer", { conversation_token: token(first), answer: { tool_use_id: q.tool_use_id, kind: "approve", answer: "choice", choice: "once" } });
    await settle();
    expect(h.answers(again).at(-1)!.json).toMatchObject({ code: "already_answered" });
  });

  it("resume asks again; no declines; no_operator fails closed; a wrong kind is a 400 and an unknown question a 404", async () => {
    const h = new Harness();
    await h.start({ validate, questionWindowMs: 1000 });
    const inbox = h.task("prompt", { prompt: 'run confirm {"action":"r"}' });
    await h.advance(1500);
    const tok = token(h.answers(inbox));
    const resumed = h.task("resume", { conversation_token: tok }, { request: "task-resume" });
    await settle();
    const q = question(h.answers(resumed));
    const elicit = `choria.fisk-ai.elicit.${h.identity}.task-resume`;
    const unknownQ = h.ask(elicit, elicitReply({ ...q, question_id: "nope" }, { kind: "approve", choice: "once" }, h.stamp()));
    const wrongKind = h.ask(elicit, elicitReply(q, { kind: "confirm", confirmed: true }, h.stamp()));
    await settle();
    expect(h.answers(unknownQ)[0]!.headers[SERVICE_ERROR_CODE]).toEqual(["404"]);
    expect(h.answers(unknownQ)[0]!.headers[SERVICE_ERROR]).toEqual(['this run is not waiting on question "nope"']);
    expect(h.answers(wrongKind)[0]!.headers[SERVICE_ERROR_CODE]).toEqual(["400"]);
    h.ask(elicit, elicitReply(q, { kind: "approve", choice: "no" }, h.stamp()));
    await settle();
    expect(h.answers(resumed).at(-1)!.json).toMatchObject({ stop_reason: "end_turn", text: "confirm was not run: the operator declined" });
    const nothing = h.task("resume", { conversation_token: tok });
    const refused = h.task("prompt", { prompt: 'run confirm {"action":"x"}', conversation_token: tok }, { request: "task-noop" });
    await settle();
    expect(h.answers(nothing).at(-1)!.json).toMatchObject({ code: "turn_not_taken" });
    h.ask(`choria.fisk-ai.elicit.${h.identity}.task-noop`, elicitReply(question(h.answers(refused)), { kind: "no_operator" }, h.stamp()));
    await settle();
    expect(h.answers(refused).at(-1)!.json).toMatchObject({ protocol: `${NS}.error`, code: "rejected" });
  });

  it("always approves the tool for the rest of the conversation", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.task("prompt", { prompt: 'run confirm {"action":"1"}' }, { request: "task-always" });
    await settle();
    h.ask(`choria.fisk-ai.elicit.${h.identity}.task-always`, elicitReply(question(h.answers(inbox)), { kind: "approve", choice: "always" }, h.stamp()));
    await settle();
    const next = h.task("prompt", { prompt: 'run confirm {"action":"2"}', conversation_token: token(h.answers(inbox)) });
    await settle();
    expect(kinds(h.answers(next))).not.toContain("elicit.request.approve");
    expect(h.answers(next).at(-1)!.json).toMatchObject({ text: "done: 2" });
  });
});

describe("cancel", () => {
  it("is acked on the task's own subject, stops the running tool and ends canceled; afterwards nobody answers", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.task("prompt", { prompt: 'run slow {"seconds":60}' }, { request: "task-cancel" });
    await settle();
    const subject = `choria.fisk-ai.cancel.${h.identity}.task-cancel`;
    const cancelled = h.ask(subject, cancelMessage("task-cancel", h.stamp(), "changed my mind"));
    await settle();
    expect(h.answers(cancelled)[0]!.json).toMatchObject({ protocol: `${NS}.ack`, accepted: true, sequence: 0, request: "task-cancel" });
    const set = h.answers(inbox);
    expectTaskSet(set);
    expect(set.at(-1)!.json).toMatchObject({ code: "canceled", stop_reason: "canceled", error: "the task was cancelled: changed my mind" });
    expect(h.server.status().active).toBe(0);
    expect(h.bus.to(subject).length).toBe(1);
    const late = h.ask(subject, cancelMessage("task-cancel", h.stamp()));
    await settle();
    expect(h.answers(late)).toEqual([]);
  });

  it("closes an open question; a malformed cancel is a 400 and leaves the task running", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.task("prompt", { prompt: 'run confirm {"action":"x"}' }, { request: "task-q" });
    await settle();
    const subject = `choria.fisk-ai.cancel.${h.identity}.task-q`;
    const bad = h.send(subject, "{not json");
    await settle();
    expect(h.answers(bad)[0]!.headers[SERVICE_ERROR_CODE]).toEqual(["400"]);
    expect(h.answers(inbox).at(-1)!.final).toBe(false);
    h.ask(subject, cancelMessage("task-q", h.stamp()));
    await settle();
    expect(h.answers(inbox).at(-1)!.json).toMatchObject({ code: "canceled" });
  });
});

describe("admission and reads", () => {
  it("refuses past its workers, a duplicate request id, and a second turn of a busy conversation", async () => {
    const h = new Harness();
    await h.start({ validate, taskWorkers: 2 });
    const first = h.task("prompt", { prompt: 'run slow {"seconds":30}' }, { request: "dup" });
    await settle();
    const dup = h.task("prompt", { prompt: "x" }, { request: "dup" });
    const busy = h.task("prompt", { prompt: "y", conversation_token: token(h.answers(first)) });
    await settle();
    const second = h.task("prompt", { prompt: 'run slow {"seconds":30}' });
    await settle();
    const full = h.task("prompt", { prompt: "z" });
    await settle();
    expect(h.answers(dup).map((a) => a.json)).toMatchObject([{ accepted: false, reason: 'request "dup" is already in flight here' }, { code: "duplicate_request" }]);
    expect(h.answers(busy).at(-1)!.json).toMatchObject({ code: "conversation_busy" });
    expect(h.answers(second)[0]!.json).toMatchObject({ accepted: true });
    expect(h.answers(full).map((a) => a.json)).toMatchObject([{ accepted: false, reason: "this worker is running its maximum of 2 prompts" }, { code: "capacity" }]);
    for (const set of [h.answers(dup), h.answers(full)]) expectTaskSet(set);
  });

  it("request.read replays the conversation between replay_start and replay_end, and a prompt can ask for it too", async () => {
    const h = new Harness();
    await h.start({ validate });
    const first = h.task("prompt", { prompt: 'run add {"a":1,"b":1}' });
    await settle();
    const tok = token(h.answers(first));
    h.task("prompt", { prompt: "thanks", conversation_token: tok });
    await settle();
    const read = h.task("read", { conversation_token: tok, replay: 200 });
    await settle();
    const set = h.answers(read);
    expectTaskSet(set);
    expect(set.map((a) => (a.json?.block as { phase?: string } | undefined)?.phase ?? kinds([a])[0])).toEqual([
      "ack",
      "replay_start",
      "event.prompt",
      "event.tool_call",
      "event.tool_result",
      "event.text",
      "event.prompt",
      "event.text",
      "replay_end",
      "result",
    ]);
    expect(set[2]!.json!.block).toEqual({ text: 'run add {"a":1,"b":1}' });
    expect(set.at(-2)!.json!.block).toEqual({ phase: "replay_end", usage: { tool_calls: 1 }, count: 6 });
    expect(set.at(-1)!.json).toMatchObject({ stop_reason: "end_turn", usage: { tool_calls: 1 } });
    const withReplay = h.task("prompt", { prompt: "again", conversation_token: tok, replay: 2 });
    await settle();
    // The newest two blocks widened to the whole last turn, then this turn.
    expect(kinds(h.answers(withReplay))).toEqual(["ack", "event.status", "event.prompt", "event.text", "event.status", "event.text", "result"]);
  });

  it("an unknown token is unknown_conversation once no sibling instance holds it", async () => {
    const h = new Harness();
    await h.start({ validate, shareWaitMs: 500 });
    const read = h.task("read", { conversation_token: "nobodyknowsthis", replay: 5 });
    const prompt = h.task("prompt", { prompt: "hi", conversation_token: "nobodyknowsthis" });
    await h.advance(600, 100);
    expect(h.answers(read).map((a) => a.json)).toMatchObject([{ accepted: true }, { code: "unknown_conversation" }]);
    expect(h.answers(prompt).map((a) => a.json)).toMatchObject([{ accepted: false }, { code: "unknown_conversation" }]);
  });

  it("a conversation moves to whichever instance of the identity takes the next turn", async () => {
    const h = new Harness();
    await h.start({ validate, instance: "one" });
    const other = await startFiskServer({ port: h.bus.port((ms, fn) => h.scheduler.after(ms, fn)), toolkit: DEMO_TOOLKIT, clock: h.clock, scheduler: h.scheduler, random: h.random, validate, instance: "two" });
    const turns: string[] = [];
    let tok: string | undefined;
    for (let i = 0; i < 4; i++) {
      const inbox = h.task("prompt", { prompt: `turn ${i}`, ...(tok ? { conversation_token: tok } : {}) });
      await settle(60);
      const set = h.answers(inbox);
      expect(set.at(-1)!.json).toMatchObject({ protocol: `${NS}.result`, text: `turn ${i}` });
      tok ??= token(set);
      turns.push((set[0]!.json!.sender as { instance: string }).instance);
    }
    // The queue group alternates: both instances took turns of the one conversation.
    expect(new Set(turns)).toEqual(new Set(["one", "two"]));
    const read = h.task("read", { conversation_token: tok!, replay: 200 });
    await settle(60);
    expect(h.answers(read).filter((a) => kinds([a])[0] === "event.prompt").map((a) => (a.json!.block as { text: string }).text)).toEqual(["turn 0", "turn 1", "turn 2", "turn 3"]);
    await other.stop();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["an answer without its token", { answer: { tool_use_id: "t", kind: "approve", answer: "choice", choice: "once" } }, "conversation_token"],
    ["an approval answered with a value", { conversation_token: "tok", answer: { tool_use_id: "t", kind: "approve", answer: "value", value: "yes" } }, "an approval is answered with a choice"],
  ])("refuses %s with a 400 and no ack", async (_name, fields, words) => {
    const h = new Harness();
    await h.start();
    const inbox = h.task("answer", fields);
    await settle();
    const [refusal, ...more] = h.answers(inbox);
    expect(more).toEqual([]);
    expect(refusal!.text).toBe("");
    expect(refusal!.headers[SERVICE_ERROR_CODE]).toEqual(["400"]);
    expect(refusal!.headers[SERVICE_ERROR]?.[0]).toContain(words);
    expect(refusal!.headers[FINAL_HEADER]).toBeUndefined();
  });

  it("refuses a non-request on the task subject, an empty prompt and a resume with replay, each a 400", async () => {
    const h = new Harness();
    await h.start({ validate });
    const subject = `choria.fisk-ai.task.${h.identity}`;
    const cancel = h.ask(subject, cancelMessage("abc", h.stamp()));
    const empty = h.task("prompt", { prompt: "" });
    const resume = h.task("resume", { conversation_token: "tok", replay: 3 } as Record<string, unknown>);
    await settle();
    for (const inbox of [cancel, empty, resume]) expect(h.answers(inbox).map((a) => a.headers[SERVICE_ERROR_CODE]?.[0])).toEqual(["400"]);
    expect(h.answers(cancel)[0]!.headers[SERVICE_ERROR]?.[0]).toContain("this path carries requests");
    expect(h.server.status().endpoints.task).toMatchObject({ errors: 3 });
  });

  it("stop ends a running task with draining and refuses new ones", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.task("prompt", { prompt: 'run slow {"seconds":60}' });
    await settle();
    await h.server.stop();
    expect(h.answers(inbox).at(-1)!.json).toMatchObject({ code: "draining", error: "the agent stopped serving before the task finished" });
    expect(h.bus.subscriptions).toBe(0);
  });
});
