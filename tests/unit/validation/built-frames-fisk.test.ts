import { describe, expect, it } from "vitest";
import { FiskClient } from "../../../src/core/fisk/client/index.ts";
import { startTask } from "../../../src/core/fisk/client/task.ts";
import { peerMessage, reply, scriptedDeps, settle as settleTask, type Sent } from "../../../src/core/fisk/client/testing/scripted-port.ts";
import type { NatsMessage } from "../../../src/core/nats/port.ts";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import { Harness } from "../../../src/core/serving/fisk/testing/harness.ts";
import { settle } from "../../../src/core/serving/fisk/testing/memory-bus.ts";
import type { Verdict } from "../../../src/core/validation/types.ts";

/**
 * Every fisk-ai message Patchbay builds passes its own validator: the console's client (discovery,
 * tool calls, tasks with each kind of request, answer, waiting and cancel) and the served agent
 * (discovery cards, acks, keepalives and tool replies of both generations).
 */

const engine = createValidationEngine();
const GEN2 = "fisk-ai/gen2";
const GEN1 = "fisk-ai/gen1-v0.0.3";

interface Frame {
  readonly from: "patchbay" | "peer";
  readonly text: string;
}

/** Each frame in order in one session (questions asked teach it what their answers may be); Patchbay's verdicts. */
function judge(frames: readonly Frame[], packId: string): { kind: string; verdict: Verdict; text: string }[] {
  const session = engine.session();
  return frames.flatMap((f) => {
    const verdict = session.validateText(f.text, { packId });
    return f.from === "patchbay" ? [{ kind: verdict.kindId ?? "?", verdict, text: f.text }] : [];
  });
}

function failures(judged: ReturnType<typeof judge>): string[] {
  return judged
    .filter((j) => j.verdict.status !== "valid" || j.verdict.family !== "fisk-ai")
    .map((j) => `${j.kind} ${j.verdict.status}: ${j.verdict.issues.map((i) => `${i.pointer} ${i.message}`).join("; ")}\n  ${j.text.slice(0, 300)}`);
}

/** The served agent answering the console's client over a memory bus; every body either side published. */
async function servedConversation(generation: "gen1" | "gen2"): Promise<Frame[]> {
  const h = new Harness();
  await h.start({ generation, keepaliveMs: 2_000, callTimeoutMs: 10_000, concurrency: 1 });
  const client = new FiskClient({ port: h.bus.port(), clock: h.clock, scheduler: h.scheduler, random: h.random, sender: { name: "console-1" } });
  const run = async <T>(work: Promise<T>, ms = 0): Promise<T> => {
    await h.advance(ms);
    return work;
  };
  await run(client.discover(h.identity));
  for (const [tool, input] of [["echo", { message: "hi" }], ["add", { a: 1, b: 2.5 }], ["fail", { exit_code: 3 }], ["add", { a: 1 }], ["nope", null], ["confirm", { action: "x" }]] as const) {
    await run(client.callTool(h.identity, tool, input));
  }
  // A call past its keepalive interval, one past the time limit, and one that finds no free slot
  // (Gen 2 refuses it at once, Gen 1 queues it).
  await run(client.callTool(h.identity, "sleep", { seconds: 5 }), 6_000);
  const slow = client.callTool(h.identity, "slow", { seconds: 30 });
  await settle();
  const busy = client.callTool(h.identity, "echo", { message: "busy?" });
  await run(Promise.all([slow, busy]), 12_000);
  // The liveness probe's $SRV.PING answers are NATS micro protocol, not fisk-ai: no pack covers them.
  return h.bus.published.filter((p) => p.text !== "" && !p.text.includes('"type":"io.nats.micro.v1.')).map((p) => ({ from: "patchbay", text: p.text }));
}

const question = { tool_use_id: "toolu_1", wait_ms: 300 };
const QUESTIONS: readonly [string, Record<string, unknown>, Parameters<ReturnType<typeof startTask>["answer"]>[1]][] = [
  ["elicit.request.approve", { question_id: "qa", question: "Run it?" }, { kind: "approve", choice: "once" }],
  ["elicit.request.confirm", { question_id: "qc", question: "Sure?" }, { kind: "confirm", confirmed: true }],
  ["elicit.request.select", { question_id: "qs", question: "Which?", options: ["east", "west"] }, { kind: "select", index: 1 }],
  ["elicit.request.input", { question_id: "qi", question: "Name?" }, { kind: "input", value: "Ada" }],
];

/** The console's task client against a scripted peer: every request kind, answer kind, waiting and cancel. */
async function taskConversation(): Promise<Frame[]> {
  const s = scriptedDeps();
  const frames: Frame[] = [];
  const sentSeen = new Set<Sent>();
  const collect = () => {
    for (const sent of s.port.sent) {
      if (sentSeen.has(sent)) continue;
      sentSeen.add(sent);
      frames.push({ from: "patchbay", text: sent.text });
    }
  };
  const ack = (sent: Sent): NatsMessage => reply(peerMessage("ack", String((JSON.parse(sent.text) as { request: unknown }).request), 0, { accepted: true }));
  s.port.onRequest = (sent) => (collect(), ack(sent));
  let deliver: (m: NatsMessage) => void = () => undefined;
  s.port.onPublish = (_sent, d) => (deliver = d);
  const peer = (request: string, kind: string, sequence: number, extra: Record<string, unknown>, final = false) => {
    collect();
    const body = peerMessage(kind, request, sequence, extra);
    frames.push({ from: "peer", text: JSON.stringify(body) });
    deliver(reply(body, "_INBOX.x", final ? { "Fisk-AI-Stream-Final": ["true"] } : undefined));
  };
  const token = "3A819bvTpf9dqcUgxM9ZZ810pkf";
  const task = startTask(s.deps, "nats-worker", { kind: "prompt", prompt: "how many streams", context: "ops", budget: { max_tokens: 100 }, stream: true });
  await settleTask();
  peer(task.request, "ack", 1, { accepted: true, conversation_token: token });
  let sequence = 2;
  for (const [kind, fields, answer] of QUESTIONS) {
    peer(task.request, kind, sequence++, { ...question, ...fields });
    s.advance(100);
    await settleTask();
    await task.answer(String(fields.question_id), answer);
  }
  peer(task.request, "elicit.request.input", sequence++, { ...question, question_id: "qd", question: "Anyone there?" });
  await task.dismiss("qd");
  peer(task.request, "elicit.request.select", sequence++, { ...question, question_id: "qk", question: "Later?", options: ["a", "b"] });
  await task.cancel("changed my mind");
  peer(task.request, "error", sequence++, { error: "deferred", code: "deferred" }, true);
  await task.done;
  // No run holds the question now: the answer is kept, then sent as request.answer.
  s.port.onRequest = () => Promise.reject(new Error("no responders"));
  await task.answer("qk", { kind: "select", index: 0 });
  task.sendUnsent(0);
  task.followUp("and now?");
  startTask(s.deps, "nats-worker", { kind: "resume", conversation_token: token });
  startTask(s.deps, "nats-worker", { kind: "read", conversation_token: token });
  await settleTask();
  collect();
  return frames;
}

describe("fisk-ai frames Patchbay builds pass its own validator", () => {
  it("Gen 2: the served agent's discovery card, acks, keepalives and tool replies, and the client's requests", async () => {
    const judged = judge(await servedConversation("gen2"), GEN2);
    expect(failures(judged)).toEqual([]);
    expect([...new Set(judged.map((j) => j.kind))].sort()).toEqual(["ack", "discovery.reply", "discovery.request", "event.status", "tool.reply", "tool.request"]);
    // Refusals in-band: an unknown tool, and the capacity refusal with its code.
    expect(judged.filter((j) => j.kind === "tool.reply" && j.text.includes('"is_error":true')).length).toBeGreaterThanOrEqual(4);
    expect(judged.some((j) => j.kind === "tool.reply" && j.text.includes('"code":"capacity"'))).toBe(true);
  });

  it("Gen 1: the served agent's card and single replies pass the strict Gen 1 schema, as do the client's requests", async () => {
    const judged = judge(await servedConversation("gen1"), GEN1);
    expect(failures(judged)).toEqual([]);
    expect([...new Set(judged.map((j) => j.kind))].sort()).toEqual(["discovery.reply", "discovery.request", "tool.reply", "tool.request"]);
  });

  it("the task client's requests, answers, waitings and cancel", async () => {
    const judged = judge(await taskConversation(), GEN2);
    expect(failures(judged)).toEqual([]);
    const kinds = [...new Set(judged.map((j) => j.kind))].sort();
    expect(kinds).toEqual(
      [
        "cancel",
        "elicit.reply.approve",
        "elicit.reply.confirm",
        "elicit.reply.input",
        "elicit.reply.no_operator",
        "elicit.reply.select",
        "elicit.waiting",
        "request.answer",
        "request.prompt",
        "request.read",
        "request.resume",
      ].sort(),
    );
  });
});
