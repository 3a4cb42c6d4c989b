import { describe, expect, it } from "vitest";
import { manualClock } from "../../env/index.ts";
import { answerRequest, cancelMessage, discoveryRequest, elicitReply, elicitWaiting, lateAnswer, promptRequest, readRequest, resumeRequest, toolRequest } from "./builders.ts";
import { decodeFiskMessage } from "./decode.ts";
import { encodeFiskMessage } from "./encode.ts";
import { ksuidTimestamp } from "./ids.ts";
import { FISK_PROTOCOLS as P } from "./protocol-ids.ts";
import { stampReply, stampRequest, type StampContext } from "./stamp.ts";
import type { ElicitRequestSelect, FiskMessage, ToolRequest } from "./types-messages.ts";

const WALL = Date.UTC(2026, 7, 21, 9, 14, 5, 3);

function context(extra: Partial<StampContext> = {}): StampContext {
  let n = 0;
  // Each mint gets its own bytes, so ids differ and can be told apart.
  return { clock: manualClock(0, WALL), random: (b) => b.fill(++n), sender: { name: "console-1" }, ...extra };
}

/** The message survives the wire: Go's encoding decodes back to the same fields. */
function roundTrips(m: FiskMessage): void {
  const decoded = decodeFiskMessage(encodeFiskMessage(m, { go: true }));
  if (!decoded.ok) throw new Error(decoded.error.message);
  expect(decoded.message).toEqual(m);
}

describe("stampRequest", () => {
  it("gives a fresh request request == conversation != id, sequence 0, time now, sender and recipient", () => {
    const m = discoveryRequest(context({ recipient: { name: "nats-tools" } }));
    expect(m.request).toBe(m.conversation);
    expect(m.id).not.toBe(m.request);
    expect(ksuidTimestamp(m.id)).toBe(Math.floor(WALL / 1000));
    expect(m).toMatchObject({ protocol: P.discoveryRequest, sequence: 0, time: "2026-08-21T09:14:05.003Z", sender: { name: "console-1" }, recipient: { name: "nats-tools" } });
    expect(Object.keys(m)).toEqual(["protocol", "id", "request", "conversation", "sequence", "time", "sender", "recipient"]);
    expect(encodeFiskMessage(m, { go: true })).toBe(encodeFiskMessage(m));
  });

  it("keeps the caller's request and conversation and always mints the id", () => {
    const m = stampRequest<ToolRequest>({ protocol: P.toolRequest, request: "task-1", conversation: "conv", name: "ping", id: "ignored" } as never, context());
    expect(m).toMatchObject({ request: "task-1", conversation: "conv", name: "ping" });
    expect(m.id).not.toBe("ignored");
    expect(m.id).toHaveLength(27);
  });

  it("gives a preset request a fresh conversation of its own", () => {
    const m = toolRequest("ping", null, context(), { request: "task-1" });
    expect(m.request).toBe("task-1");
    expect(m.conversation).toHaveLength(27);
    expect(m.conversation).not.toBe(m.id);
  });

  it("sends traceparent only when asked, and parent and must_understand only when set", () => {
    const plain = discoveryRequest(context());
    expect(plain).not.toHaveProperty("traceparent");
    expect(plain).not.toHaveProperty("recipient");
    const traced = toolRequest("t", {}, context({ traceparent: "00-a-b-01" }), { parent: "p", must_understand: true });
    expect(traced).toMatchObject({ traceparent: "00-a-b-01", parent: "p", must_understand: true, input: {} });
  });
});

describe("stampReply", () => {
  it("echoes the request's tags, addresses its sender and numbers from 0", () => {
    const request = discoveryRequest(context());
    const header = stampReply(request, { name: "nats-tools" }, context());
    expect(header).toMatchObject({ request: request.request, conversation: request.conversation, sequence: 0, sender: { name: "nats-tools" }, recipient: { name: "console-1" } });
    expect(header.id).not.toBe(request.id);
    const reply = { protocol: P.ack, ...header, accepted: true } as FiskMessage;
    roundTrips(reply);
  });

  it("sets no recipient for a request that names no sender", () => {
    expect(stampReply({ request: "r", conversation: "c" }, { name: "me" }, context())).not.toHaveProperty("recipient");
  });
});

describe("builders", () => {
  const ctx = (): StampContext => context({ recipient: { name: "nats-worker" } });

  it("builds a tool.request with the remote name and no null input", () => {
    const m = toolRequest("stream_info", undefined, ctx());
    expect(m).not.toHaveProperty("input");
    expect(toolRequest("stream_info", { stream: "ORDERS" }, ctx()).input).toEqual({ stream: "ORDERS" });
    roundTrips(m);
  });

  it("builds each request kind with only the fields given", () => {
    const prompt = promptRequest({ prompt: "how many streams", budget: { max_tokens: 10 }, stream: false, context: undefined }, ctx(), { request: "turn-1" });
    expect(prompt).toMatchObject({ protocol: P.requestPrompt, request: "turn-1", prompt: "how many streams", budget: { max_tokens: 10 }, stream: false });
    expect(prompt).not.toHaveProperty("context");
    const answer = answerRequest({ conversation_token: "tok", answer: { tool_use_id: "t", kind: "input", answer: "value", value: "west" } }, ctx());
    // Go's Answer struct omits an empty value (unlike a live elicit.reply.input, which sends it).
    const empty = answerRequest({ conversation_token: "tok", answer: { tool_use_id: "t", kind: "input", answer: "value", value: "" } }, ctx());
    expect(encodeFiskMessage(empty, { go: true })).toMatch(/"answer":\{"tool_use_id":"t","kind":"input","answer":"value"\}\}$/);
    const resume = resumeRequest({ conversation_token: "tok" }, ctx());
    const read = readRequest({ conversation_token: "tok", replay: 200 }, ctx());
    expect([answer.protocol, resume.protocol, read.protocol]).toEqual([P.requestAnswer, P.requestResume, P.requestRead]);
    expect(encodeFiskMessage(read, { go: true })).toMatch(/"conversation_token":"tok","replay":200}$/);
    for (const m of [prompt, answer, resume, read]) roundTrips(m);
  });

  it("addresses a cancel to the task's request with a conversation of its own", () => {
    const m = cancelMessage("3FqPlpECXVMk11oHUGCiczMSpxk", ctx(), "changed my mind");
    expect(m).toMatchObject({ protocol: P.cancel, request: "3FqPlpECXVMk11oHUGCiczMSpxk", reason: "changed my mind", sequence: 0 });
    expect(m.conversation).not.toBe(m.request);
    expect(cancelMessage("t", ctx())).not.toHaveProperty("reason");
  });

  const question: ElicitRequestSelect = {
    protocol: P.elicitRequestSelect,
    id: "q-msg",
    request: "task-1",
    conversation: "conv-1",
    sequence: 9,
    time: "2026-08-21T09:20:05Z",
    sender: { name: "nats-worker" },
    question_id: "q1",
    tool_use_id: "toolu_03Cd",
    question: "Which cluster?",
    options: ["east", "west"],
    wait_ms: 120000,
  };

  it("answers on the asking task's tags with exactly one value field, zero values sent", () => {
    const select = elicitReply(question, { kind: "select", index: 0 }, ctx());
    expect(select).toMatchObject({ protocol: P.elicitReplySelect, request: "task-1", conversation: "conv-1", question_id: "q1", index: 0 });
    expect(encodeFiskMessage(select, { go: true })).toMatch(/"question_id":"q1","index":0}$/);
    const confirm = elicitReply(question, { kind: "confirm", confirmed: false }, ctx());
    expect(encodeFiskMessage(confirm, { go: true })).toMatch(/"question_id":"q1","confirmed":false}$/);
    const none = elicitReply(question, { kind: "no_operator" }, ctx());
    expect(none.protocol).toBe(P.elicitReplyNoOperator);
    const waiting = elicitWaiting(question, ctx());
    expect(encodeFiskMessage(waiting, { go: true })).toMatch(/"recipient":\{"name":"nats-worker"\},"question_id":"q1"}$/);
    for (const m of [select, confirm, none, waiting]) roundTrips(m);
  });

  it("keeps a late select answer as the option text, and refuses an index out of range", () => {
    expect(lateAnswer(question, { kind: "select", index: 1 })).toEqual({ tool_use_id: "toolu_03Cd", kind: "select", answer: "value", value: "west" });
    expect(() => lateAnswer(question, { kind: "select", index: 2 })).toThrow("option 2 is not one of the 2 the question offered");
    const approve = { ...question, protocol: P.elicitRequestApprove } as const;
    expect(lateAnswer(approve, { kind: "approve", choice: "once" })).toEqual({ tool_use_id: "toolu_03Cd", kind: "approve", answer: "choice", choice: "once" });
    expect(lateAnswer(approve, { kind: "no_operator" })).toMatchObject({ kind: "approve", answer: "no_operator" });
  });
});
