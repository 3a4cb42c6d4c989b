import { CONV, edit, fromConsole, fromWorker, type Json, message, TASK, TOKEN, TRACEPARENT } from "./build.ts";
import { type CorpusEntry, entry, everywhere, gen2Only, split } from "./types.ts";

/** Gen 2: every message kind fully populated (§6.1.1), then more valid and invalid messages per kind. */

const S = "extra";
const usage = { input_tokens: 10, output_tokens: 5, cache_read_tokens: 4, cache_create_tokens: 2, thinking_tokens: 1, llm_calls: 1, tool_calls: 1 };
const budget = { max_tokens: 1000, max_iterations: 5, call_timeout: "60s" };

/** Every optional header field set: the Gen 1 schemas refuse `traceparent`. */
function full(suffix: string, body: Json): Json {
  const base = message(suffix, { sequence: 3, to: "console-1" }, {});
  return {
    ...base,
    parent: "3r5yHUig43kiJfahqSIjOugM1yX",
    sender: { name: "nats-worker", instance: "worker-2" },
    recipient: { name: "console-1", instance: "tab_1" },
    must_understand: false,
    traceparent: TRACEPARENT,
    ...body,
  };
}

const FULL: [string, Json][] = [
  ["discovery.request", {}],
  [
    "discovery.reply",
    {
      name: "nats-tools",
      version: "devel",
      description: "tools",
      model: "claude-sonnet-5",
      protocols: ["io.choria.fisk-ai.v1"],
      tools: [{ name: "stream_ls", description: "Lists streams", input_schema: { type: "object" }, behavior: { read_only: true, destructive: false, idempotent: true, open_world: false } }],
      telemetry: true,
      telemetry_content: false,
    },
  ],
  ["tool.request", { name: "stream_ls", input: { json: true } }],
  ["tool.reply", { is_error: false, code: "capacity", output: "x", exec: { command: "stream ls", exit_code: 2, truncated: true } }],
  ["ack", { accepted: true, reason: "ok", conversation_token: TOKEN, max_tokens: 200000 }],
  ["request.prompt", { prompt: "hi", context: "c", tool_hints: ["stream_ls"], budget, stream: true, conversation_token: TOKEN, replay: 1, force: true }],
  ["request.answer", { conversation_token: TOKEN, answer: { tool_use_id: "toolu_1", kind: "approve", answer: "choice", choice: "always" }, budget, stream: false, replay: 3, force: false }],
  ["request.resume", { conversation_token: TOKEN, budget, stream: true, force: true }],
  ["request.read", { conversation_token: TOKEN, replay: 1 }],
  ["result", { stop_reason: "max_iterations", text: "t", usage, trace_id: "abc", content_exported: true }],
  ["error", { stop_reason: "budget_exhausted", error: "spent", code: "budget_exhausted", usage, trace_id: "abc", content_exported: false }],
  ["cancel", { reason: "stop" }],
  ["elicit.request.approve", { question_id: "q1", tool_use_id: "toolu_1", command: "stream rm", display: "stream rm ORDERS", tag: "ai:confirm", wait_ms: 0 }],
  ["elicit.request.confirm", { question_id: "q1", tool_use_id: "toolu_1", question: "Sure?", wait_ms: 1 }],
  ["elicit.request.select", { question_id: "q1", tool_use_id: "toolu_1", question: "Which?", options: ["a", "b"], wait_ms: 1 }],
  ["elicit.request.input", { question_id: "q1", tool_use_id: "toolu_1", question: "Name?", default: "x", wait_ms: 1 }],
  ["elicit.reply.approve", { question_id: "q1", choice: "no" }],
  ["elicit.reply.confirm", { question_id: "q1", confirmed: true }],
  ["elicit.reply.select", { question_id: "q1", index: 1 }],
  ["elicit.reply.input", { question_id: "q1", value: "hello" }],
  ["elicit.reply.no_operator", { question_id: "q1" }],
  ["elicit.waiting", { question_id: "q1" }],
];

const SHARED = new Set(["discovery.request", "discovery.reply", "tool.request", "tool.reply", "ack", "result", "error", "cancel"]);
/** A fully populated shared-id message is refused by Gen 1 (traceparent at least). */
const fullExpect = (kind: string) => (SHARED.has(kind) ? split("invalid", "valid") : gen2Only("valid"));

const answer = (a: Json, extra: Json = {}) => fromConsole("request.answer", { conversation_token: TOKEN, answer: { tool_use_id: "toolu_1", ...a }, ...extra });
const card = (extra: Json) => fromWorker("discovery.reply", { name: "a", version: "1", ...extra });
const approve = (extra: Json) => fromWorker("elicit.request.approve", { question_id: "q1", command: "c", display: "d", ...extra });
const select = (extra: Json) => fromWorker("elicit.request.select", { question_id: "q1", question: "?", options: ["a"], ...extra });
const base = fromConsole("tool.request", { name: "ping" });

/** [name, kind, expect, message, more] */
const MORE: [string, string, Record<string, "valid" | "invalid" | "unknown">, Json, Partial<CorpusEntry>?][] = [
  // Header.
  ["header sequence -1", "tool.request", everywhere("invalid"), { ...base, sequence: -1 }],
  ['header sequence "1"', "tool.request", everywhere("invalid"), { ...base, sequence: "1" }],
  ["header sequence 1.5", "tool.request", everywhere("invalid"), { ...base, sequence: 1.5 }],
  ["header without time", "tool.request", everywhere("invalid"), edit(base, { time: undefined })],
  ["header time 123", "tool.request", everywhere("invalid"), { ...base, time: 123 }],
  ["header without sender", "tool.request", everywhere("invalid"), edit(base, { sender: undefined })],
  ["header without conversation", "tool.request", everywhere("invalid"), edit(base, { conversation: undefined })],
  ["header without request", "tool.request", everywhere("invalid"), edit(base, { request: undefined })],
  ["header sender a string", "tool.request", everywhere("invalid"), { ...base, sender: "console-1" }],
  ['header must_understand "yes"', "tool.request", everywhere("invalid"), { ...base, must_understand: "yes" }],
  ["header parent 5", "tool.request", everywhere("invalid"), { ...base, parent: 5 }],
  ["header traceparent 5", "tool.request", everywhere("invalid"), { ...base, traceparent: 5 }],
  ["header with an unknown field", "tool.request", split("invalid", "valid"), { ...base, x_vendor: { a: 1 } }],
  // Discovery.
  ["discovery.reply without version", "discovery.reply", everywhere("invalid"), edit(card({}), { version: undefined })],
  ["discovery.reply prompt-only card (no tools)", "discovery.reply", split("invalid", "valid"), card({ model: "m", protocols: ["io.choria.fisk-ai.v1"] })],
  ["discovery.reply tool without name", "discovery.reply", everywhere("invalid"), card({ tools: [{ description: "x" }] })],
  ["discovery.reply input_schema a string", "discovery.reply", everywhere("invalid"), card({ tools: [{ name: "t", input_schema: "object" }] })],
  ["discovery.reply behavior null", "discovery.reply", everywhere("invalid"), card({ tools: [{ name: "t", behavior: null }] })],
  ["discovery.reply behavior with a vendor hint", "discovery.reply", split("invalid", "valid"), card({ tools: [{ name: "t", behavior: { read_only: true, x_cost: "high" } }] })],
  ['discovery.reply telemetry "on"', "discovery.reply", everywhere("invalid"), card({ telemetry: "on" })],
  ["discovery.reply protocols a string", "discovery.reply", everywhere("invalid"), card({ protocols: "io.choria.fisk-ai.v1" })],
  // Tool calls.
  ["tool.request without name", "tool.request", everywhere("invalid"), edit(base, { name: undefined })],
  ["tool.request input an array", "tool.request", everywhere("invalid"), { ...base, input: [1] }],
  ["tool.request input null", "tool.request", everywhere("invalid"), { ...base, input: null }],
  ['tool.reply is_error "true"', "tool.reply", everywhere("invalid"), fromWorker("tool.reply", { is_error: "true" })],
  ["tool.reply exit_code 1.5", "tool.reply", everywhere("invalid"), fromWorker("tool.reply", { exec: { exit_code: 1.5 } })],
  ["tool.reply code 5", "tool.reply", everywhere("invalid"), fromWorker("tool.reply", { code: 5 })],
  ["tool.reply empty (exit 0, no output)", "tool.reply", everywhere("valid"), fromWorker("tool.reply", {})],
  // Ack.
  ["ack without accepted", "ack", everywhere("invalid"), fromWorker("ack", { reason: "x" })],
  ["ack max_tokens -1", "ack", everywhere("invalid"), fromWorker("ack", { accepted: true, max_tokens: -1 })],
  ["ack with token and max_tokens", "ack", split("invalid", "valid"), fromWorker("ack", { accepted: true, conversation_token: TOKEN, max_tokens: 0 })],
  // Requests.
  ['request.prompt prompt ""', "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "" })],
  ["request.prompt with answer", "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", answer: { tool_use_id: "u", kind: "confirm", answer: "no_operator" } })],
  ["request.prompt replay 0", "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", replay: 0 })],
  ["request.prompt tool_hints [1]", "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", tool_hints: [1] })],
  ["request.prompt budget max_tokens -1", "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", budget: { max_tokens: -1 } })],
  ["request.prompt budget with an unknown key", "request.prompt", gen2Only("valid"), fromConsole("request.prompt", { prompt: "hi", budget: { max_cost: 3 } })],
  ["request.answer without answer", "request.answer", gen2Only("invalid"), fromConsole("request.answer", { conversation_token: TOKEN })],
  ["request.answer without token", "request.answer", gen2Only("invalid"), edit(answer({ kind: "confirm", answer: "confirmed", confirmed: true }), { conversation_token: undefined })],
  ['request.answer kind "choose"', "request.answer", gen2Only("invalid"), answer({ kind: "choose", answer: "choice", choice: "once" })],
  ["request.answer value of 4097 characters", "request.answer", gen2Only("invalid"), answer({ kind: "input", answer: "value", value: "v".repeat(4097) })],
  ["request.answer tool_use_id of 257 characters", "request.answer", gen2Only("invalid"), answer({ tool_use_id: "u".repeat(257), kind: "confirm", answer: "confirmed", confirmed: false })],
  ["request.answer with prompt", "request.answer", gen2Only("invalid"), answer({ kind: "confirm", answer: "no_operator" }, { prompt: "hi" })],
  ["request.answer no_operator for approve", "request.answer", gen2Only("valid"), answer({ kind: "approve", answer: "no_operator" })],
  ["request.answer confirm with confirmed false", "request.answer", gen2Only("valid"), answer({ kind: "confirm", answer: "confirmed", confirmed: false })],
  ["request.resume with replay", "request.resume", gen2Only("invalid"), fromConsole("request.resume", { conversation_token: TOKEN, replay: 5 })],
  ["request.resume without token", "request.resume", gen2Only("invalid"), fromConsole("request.resume", {})],
  ["request.read without replay", "request.read", gen2Only("invalid"), fromConsole("request.read", { conversation_token: TOKEN })],
  ["request.read replay 0", "request.read", gen2Only("invalid"), fromConsole("request.read", { conversation_token: TOKEN, replay: 0 })],
  ["request.read with prompt", "request.read", gen2Only("invalid"), fromConsole("request.read", { conversation_token: TOKEN, replay: 1, prompt: "hi" })],
  // Terminals.
  ["result usage input_tokens -1", "result", everywhere("invalid"), fromWorker("result", { stop_reason: "end_turn", usage: { input_tokens: -1 } })],
  ["error without error", "error", everywhere("invalid"), fromWorker("error", { code: "failed" })],
  ["error code 5", "error", everywhere("invalid"), fromWorker("error", { error: "x", code: 5 })],
  ["error with an undefined code", "error", everywhere("valid"), fromWorker("error", { error: "x", code: "exploded" }), { warnings: ["fisk-ai.error-code"] }],
  ["cancel reason 5", "cancel", everywhere("invalid"), fromConsole("cancel", { reason: 5 })],
  ["cancel of a task (request is the task id)", "cancel", everywhere("valid"), message("cancel", { request: TASK, conversation: CONV, from: "console-1" })],
  // Questions and answers.
  ["elicit.request.approve without display", "elicit.request.approve", gen2Only("invalid"), edit(approve({}), { display: undefined })],
  ["elicit.request.approve with question", "elicit.request.approve", gen2Only("invalid"), approve({ question: "?" })],
  ["elicit.request.approve tool_use_id of 257 characters", "elicit.request.approve", gen2Only("invalid"), approve({ tool_use_id: "u".repeat(257) })],
  ['elicit.request.approve question_id "q.1"', "elicit.request.approve", gen2Only("invalid"), approve({ question_id: "q.1" })],
  ["elicit.request.select without options", "elicit.request.select", gen2Only("invalid"), edit(select({}), { options: undefined })],
  ["elicit.request.select options [1]", "elicit.request.select", gen2Only("invalid"), select({ options: [1] })],
  ["elicit.request.select with default", "elicit.request.select", gen2Only("invalid"), select({ default: "a" })],
  ["elicit.request.confirm with options", "elicit.request.confirm", gen2Only("invalid"), fromWorker("elicit.request.confirm", { question_id: "q1", question: "?", options: ["a"] })],
  ["elicit.request.input with command", "elicit.request.input", gen2Only("invalid"), fromWorker("elicit.request.input", { question_id: "q1", question: "?", command: "c" })],
  ["elicit.request.input without question", "elicit.request.input", gen2Only("invalid"), fromWorker("elicit.request.input", { question_id: "q1" })],
  ["elicit.reply.no_operator with choice", "elicit.reply.no_operator", gen2Only("invalid"), fromConsole("elicit.reply.no_operator", { question_id: "q1", choice: "no" })],
  ["elicit.reply.no_operator without question_id", "elicit.reply.no_operator", gen2Only("invalid"), fromConsole("elicit.reply.no_operator", {})],
  ["elicit.waiting with index", "elicit.waiting", gen2Only("invalid"), fromConsole("elicit.waiting", { question_id: "q1", index: 0 })],
  ["elicit.reply.select index -1", "elicit.reply.select", gen2Only("invalid"), fromConsole("elicit.reply.select", { question_id: "q1", index: -1 })],
  ["elicit.reply.select with value", "elicit.reply.select", gen2Only("invalid"), fromConsole("elicit.reply.select", { question_id: "q1", index: 0, value: "a" })],
  ['elicit.reply.confirm confirmed "yes"', "elicit.reply.confirm", gen2Only("invalid"), fromConsole("elicit.reply.confirm", { question_id: "q1", confirmed: "yes" })],
  // Events.
  ['event.warning kind ""', "event.warning", gen2Only("invalid"), fromWorker("event.warning", { block: { kind: "" } })],
  ["event.warning params [1]", "event.warning", gen2Only("invalid"), fromWorker("event.warning", { block: { kind: "pii_redacted", params: [1] } })],
  ["event.warning with an unnamed kind", "event.warning", gen2Only("valid"), fromWorker("event.warning", { block: { kind: "something_new" } })],
  ["event.status count -1", "event.status", gen2Only("invalid"), fromWorker("event.status", { block: { phase: "replay_end", count: -1 } })],
  ["event.status with an empty block", "event.status", gen2Only("valid"), fromWorker("event.status", { block: {} })],
  ["event.tool_call input an array", "event.tool_call", gen2Only("invalid"), fromWorker("event.tool_call", { block: { id: "t", name: "n", input: [] } })],
  ["event.thinking text only", "event.thinking", gen2Only("valid"), fromWorker("event.thinking", { block: { text: "hmm" } })],
  ["event.text block an array", "event.text", gen2Only("invalid"), fromWorker("event.text", { block: [] })],
  ["event.tool_result exec an array", "event.tool_result", gen2Only("invalid"), fromWorker("event.tool_result", { block: { call_id: "c", exec: [] } })],
];

export const GEN2_KIND_ENTRIES: readonly CorpusEntry[] = [
  ...FULL.map(([kind, body]) => entry(`${kind} fully populated`, "§6.1.1", kind, fullExpect(kind), full(kind, body))),
  ...MORE.map(([name, kind, expect, msg, more]) => entry(name, S, kind, expect, msg, more)),
];
