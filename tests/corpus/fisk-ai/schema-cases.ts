import { edit, fromConsole, fromWorker, type Json, NS, TOKEN, TRACEPARENT, withProtocol } from "./build.ts";
import { type CorpusEntry, entry, everywhere, gen2Only, split } from "./types.ts";

/** §6.1: the cases of fisk-ai's schema and validator tests (`internal/a2a/schema_test.go`). */

const S = "§6.1";
const toolRequest = fromConsole("tool.request", { name: "stream_info", input: { stream: "ORDERS" } });
const result = (stopReason: unknown): Json => fromWorker("result", { stop_reason: stopReason, text: "done" });
const error = (extra: Json): Json => fromWorker("error", { error: "it failed", ...extra });

const traceparents = ["", TRACEPARENT, "01-8a8544970433ab6d582fd0eeecd66413-5c0c4929b744a202-01-future", "nonsense"];

const EMPTY_BLOCK_REJECTED = ["text", "thinking", "tool_result", "warning", "prompt"];
const NAMED_EVENTS: [string, Json][] = [
  ["thinking", { text: "considering", signature: "sig", provider: "anthropic" }],
  ["text", { text: "hello", final: false }],
  ["tool_call", { id: "toolu_1", name: "stream_ls", input: {} }],
  ["tool_result", { call_id: "toolu_1", is_error: false, output: "ok", exec: { command: "stream ls", exit_code: 0, truncated: false } }],
  ["agent_call", { id: "call_1", name: "helper", task: "3r5yHUig43kiJfahqSIjOugM1yW" }],
  ["status", { iteration: 2, phase: "replay_end", usage: { input_tokens: 10, output_tokens: 5, cache_read_tokens: 4, cache_create_tokens: 2, thinking_tokens: 1, llm_calls: 1, tool_calls: 1 }, count: 3, truncated: false }],
  ["warning", { kind: "unknown_tool", name: "stream_zap", count: 1, params: ["a"], error: "no such tool" }],
  ["prompt", { text: "list the streams" }],
];
const NAMED_STOP_REASONS = ["end_turn", "max_tokens", "refusal", "canceled", "error", "budget_exhausted", "suspended", "max_iterations"];
/** v0.0.2 lacks the last two. */
const v002Knows = (reason: string) => !["suspended", "max_iterations"].includes(reason);

const replies = {
  approve: (v: Json) => fromConsole("elicit.reply.approve", { question_id: "q1", ...v }),
  confirm: (v: Json) => fromConsole("elicit.reply.confirm", { question_id: "q1", ...v }),
  select: (v: Json) => fromConsole("elicit.reply.select", { question_id: "q1", ...v }),
  input: (v: Json) => fromConsole("elicit.reply.input", { question_id: "q1", ...v }),
};
const question = (wait: unknown) => fromWorker("elicit.request.confirm", { question_id: "q1", question: "Proceed?", ...(wait === undefined ? {} : { wait_ms: wait }) });

export const SCHEMA_CASE_ENTRIES: readonly CorpusEntry[] = [
  // 2. traceparent is never constrained on Gen 2; Gen 1 has no such field.
  ...traceparents.map((tp) => entry(`traceparent ${JSON.stringify(tp)}`, `${S}.2`, "tool.request", split("invalid", "valid"), { ...toolRequest, traceparent: tp })),
  // 3. An unknown event kind goes through the fallback.
  entry("event.citation with an arbitrary block", `${S}.3`, "event.*", gen2Only("valid"), fromWorker("event.citation", { block: { source: "rfc1", page: 12, nested: { any: [1, "two"] } } })),
  // 4. Each named kind is held to its own block.
  ...EMPTY_BLOCK_REJECTED.map((kind) => entry(`event.${kind} with an empty block`, `${S}.4`, `event.${kind}`, gen2Only("invalid"), fromWorker(`event.${kind}`, { block: {} }))),
  entry("event.tool_call with only id", `${S}.4`, "event.tool_call", gen2Only("invalid"), fromWorker("event.tool_call", { block: { id: "toolu_1" } })),
  entry("event.agent_call with only id", `${S}.4`, "event.agent_call", gen2Only("invalid"), fromWorker("event.agent_call", { block: { id: "call_1" } })),
  entry('event.status with iteration "two"', `${S}.4`, "event.status", gen2Only("invalid"), fromWorker("event.status", { block: { iteration: "two" } })),
  // 1 and 5. Every named kind fully populated validates; without its header id it does not.
  ...NAMED_EVENTS.map(([kind, block]) => entry(`event.${kind} fully populated`, `${S}.1`, `event.${kind}`, gen2Only("valid"), fromWorker(`event.${kind}`, { block }))),
  ...NAMED_EVENTS.map(([kind, block]) => entry(`event.${kind} without header id`, `${S}.5`, `event.${kind}`, gen2Only("invalid"), edit(fromWorker(`event.${kind}`, { block }), { id: undefined }))),
  // 6. Every named stop reason on result and error; an unnamed one is accepted with a warning.
  ...NAMED_STOP_REASONS.map((r) =>
    entry(`result stop_reason ${r}`, `${S}.6`, "result", { "gen1-v0.0.2": v002Knows(r) ? "valid" : "invalid", "gen1-v0.0.3": "valid", gen2: "valid" }, result(r)),
  ),
  ...NAMED_STOP_REASONS.map((r) =>
    entry(`error stop_reason ${r}`, `${S}.6`, "error", { "gen1-v0.0.2": v002Knows(r) ? "valid" : "invalid", "gen1-v0.0.3": "valid", gen2: "valid" }, error({ stop_reason: r })),
  ),
  entry("result stop_reason throttled", `${S}.6`, "result", split("invalid", "valid"), result("throttled"), { warnings: ["fisk-ai.stop-reason"] }),
  entry("error stop_reason throttled", `${S}.6`, "error", split("invalid", "valid"), error({ stop_reason: "throttled" }), { warnings: ["fisk-ai.stop-reason"] }),
  // 7.
  entry("error without stop_reason", `${S}.7`, "error", everywhere("valid"), error({})),
  entry("result without stop_reason", `${S}.7`, "result", everywhere("invalid"), edit(result("end_turn"), { stop_reason: undefined })),
  // 8. Elicit replies: zero values must be present.
  entry("elicit.reply.confirm confirmed false", `${S}.8`, "elicit.reply.confirm", gen2Only("valid"), replies.confirm({ confirmed: false })),
  entry("elicit.reply.select index 0", `${S}.8`, "elicit.reply.select", gen2Only("valid"), replies.select({ index: 0 })),
  entry('elicit.reply.input value ""', `${S}.8`, "elicit.reply.input", gen2Only("valid"), replies.input({ value: "" })),
  entry("elicit.reply.confirm without confirmed", `${S}.8`, "elicit.reply.confirm", gen2Only("invalid"), replies.confirm({})),
  entry("elicit.reply.select without index", `${S}.8`, "elicit.reply.select", gen2Only("invalid"), replies.select({})),
  entry("elicit.reply.input without value", `${S}.8`, "elicit.reply.input", gen2Only("invalid"), replies.input({})),
  entry("elicit.reply.approve without choice", `${S}.8`, "elicit.reply.approve", gen2Only("invalid"), replies.approve({})),
  entry("elicit.reply.maybe (unknown answer id)", `${S}.8`, null, everywhere("unknown"), fromConsole("elicit.reply.maybe", { question_id: "q1", choice: "once" })),
  entry('elicit.reply.approve choice "maybe"', `${S}.8`, "elicit.reply.approve", gen2Only("invalid"), replies.approve({ choice: "maybe" })),
  entry("elicit.reply.input value of 4096 characters", `${S}.8`, "elicit.reply.input", gen2Only("valid"), replies.input({ value: "v".repeat(4096) })),
  entry("elicit.reply.input value of 4097 characters", `${S}.8`, "elicit.reply.input", gen2Only("invalid"), replies.input({ value: "v".repeat(4097) })),
  // 9.
  entry("elicit.request.interrogate (unknown question kind)", `${S}.9`, null, everywhere("unknown"), fromWorker("elicit.request.interrogate", { question_id: "q1", question: "Why?" })),
  // 10.
  entry("elicit.request.confirm wait_ms -1", `${S}.10`, "elicit.request.confirm", gen2Only("invalid"), question(-1)),
  entry("elicit.request.confirm wait_ms 120000", `${S}.10`, "elicit.request.confirm", gen2Only("valid"), question(120000)),
  entry("elicit.request.confirm without wait_ms", `${S}.10`, "elicit.request.confirm", gen2Only("valid"), question(undefined)),
  // 11. An answer given after the run carries the option text.
  entry(
    "request.answer select carries the option text",
    `${S}.11`,
    "request.answer",
    gen2Only("valid"),
    fromConsole("request.answer", { conversation_token: TOKEN, answer: { tool_use_id: "toolu_03Cd", kind: "select", answer: "value", value: "west" } }),
  ),
  // 12. The bare family id is a Gen 1 id; without prompt it is invalid there and unknown on Gen 2.
  entry("bare request id without prompt", `${S}.12`, "request", { "gen1-v0.0.2": "invalid", "gen1-v0.0.3": "invalid", gen2: "unknown" }, fromConsole("request", {})),
  // 13. Invalid inputs.
  entry("request.prompt without prompt", `${S}.13`, "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { context: "x" })),
  entry('sender.name ""', `${S}.13`, "tool.request", everywhere("invalid"), { ...toolRequest, sender: { name: "" } }),
  entry("protocol …v1.bogus", `${S}.13`, null, everywhere("unknown"), withProtocol(toolRequest, `${NS}.bogus`)),
  entry('behavior.read_only "yes"', `${S}.13`, "discovery.reply", everywhere("invalid"), fromWorker("discovery.reply", { name: "a", version: "1", tools: [{ name: "t", behavior: { read_only: "yes" } }] })),
  entry("model of 128 characters", `${S}.13`, "discovery.reply", split("invalid", "valid"), fromWorker("discovery.reply", { name: "a", version: "1", model: "m".repeat(128) })),
  entry("model of 129 characters", `${S}.13`, "discovery.reply", everywhere("invalid"), fromWorker("discovery.reply", { name: "a", version: "1", model: "m".repeat(129) })),
  entry("malformed block under event.text", `${S}.13`, "event.text", gen2Only("invalid"), fromWorker("event.text", { block: { text: 5 } })),
  ...(["", null, 7, "Throttled", "two words", "a\nb", "x".repeat(65)] as const).map((r) =>
    entry(`result stop_reason ${JSON.stringify(r).slice(0, 20)}`, `${S}.13`, "result", everywhere("invalid"), result(r)),
  ),
  entry("result stop_reason of 64 characters", `${S}.13`, "result", split("invalid", "valid"), result("x".repeat(64)), { warnings: ["fisk-ai.stop-reason"] }),
  entry("event id …event (Gen 1 id) with a Gen 2 block", `${S}.13`, "event", { "gen1-v0.0.2": "invalid", "gen1-v0.0.3": "invalid", gen2: "unknown" }, fromWorker("event", { block: { text: "x" } })),
  entry("event id …event.", `${S}.13`, "event.*", { "gen1-v0.0.2": "unknown", "gen1-v0.0.3": "unknown", gen2: "invalid" }, fromWorker("event.", { block: { text: "x" } })),
  entry("event id …event.text.evil", `${S}.13`, "event.*", { "gen1-v0.0.2": "unknown", "gen1-v0.0.3": "unknown", gen2: "invalid" }, fromWorker("event.text.evil", { block: { text: "x" } })),
  entry("event id …v1.citation", `${S}.13`, null, everywhere("unknown"), fromWorker("citation", { block: { text: "x" } })),
  entry("event id null", `${S}.13`, null, everywhere("unknown"), withProtocol(fromWorker("event.text", { block: { text: "x" } }), null)),
  entry("event id 7", `${S}.13`, null, everywhere("unknown"), withProtocol(fromWorker("event.text", { block: { text: "x" } }), 7)),
  entry("event.text without block", `${S}.13`, "event.text", gen2Only("invalid"), fromWorker("event.text", {})),
  entry("event.citation without block", `${S}.13`, "event.*", gen2Only("invalid"), fromWorker("event.citation", {})),
];
