import { edit, fromConsole, fromWorker, gen1, type Json, TOKEN } from "./build.ts";
import { type CorpusEntry, entry, everywhere, gen1Only, gen2Only, split } from "./types.ts";

/** §6.2 (codec, the schema-checkable cases) and §6.10 (Gen 1 only). */

const S2 = "§6.2";
const S10 = "§6.10";
const discovery = (sender: Json) => ({ ...fromConsole("discovery.request", {}), sender });
const toolCall = (request: string) => ({ ...fromConsole("tool.request", { name: "ping" }), request });

const GOOD_NAMES = ["agent", "agent-1", "agent_1", "AGENT9"];
const BAD_NAMES = ["", "svc.example", "with space", "sl/ash"];
const GOOD_REQUESTS = ["2abc", "task-1", "task_1", "3FqPlpECXVMk11oHUGCiczMSpxk", "r".repeat(64)];
const BAD_REQUESTS = ["", "task.other", "task>", "task*", "task with space", "sl/ash", "r".repeat(65)];
const label = (s: string) => (s.length > 30 ? `${s.length} characters` : JSON.stringify(s));

const gen1Block = (block: Json) => gen1("event", { block }, 2);

export const CODEC_CASE_ENTRIES: readonly CorpusEntry[] = [
  // Identity names: the schemas of both generations agree with the codec.
  ...GOOD_NAMES.map((n) => entry(`identity name ${label(n)}`, S2, "discovery.request", everywhere("valid"), discovery({ name: n, instance: n }))),
  ...BAD_NAMES.map((n) => entry(`identity name ${label(n)}`, S2, "discovery.request", everywhere("invalid"), discovery({ name: n }))),
  ...BAD_NAMES.filter((n) => n !== "").map((n) => entry(`identity instance ${label(n)}`, S2, "discovery.request", everywhere("invalid"), discovery({ name: "agent", instance: n }))),
  ...BAD_NAMES.map((n) => entry(`recipient name ${label(n)}`, S2, "discovery.request", everywhere("invalid"), { ...discovery({ name: "agent" }), recipient: { name: n } })),
  // Request ids: Gen 2's schema refuses these; Gen 1's does not, so they are warnings there.
  ...GOOD_REQUESTS.map((r) => entry(`request id ${label(r)}`, S2, "tool.request", everywhere("valid"), toolCall(r))),
  ...BAD_REQUESTS.map((r) => entry(`request id ${label(r)}`, S2, "tool.request", split("valid", "invalid"), toolCall(r), { warnings: ["fisk-ai.request-id"] })),
  entry("conversation with a dot", S2, "tool.request", split("valid", "invalid"), { ...toolCall("task-1"), conversation: "conv.1" }, { warnings: ["fisk-ai.conversation-charset"] }),
  entry("message id with a space", S2, "tool.request", split("valid", "invalid"), { ...toolCall("task-1"), id: "id 1" }, { warnings: ["fisk-ai.id-charset"] }),
  // StopReason.Valid is false for these; the schema says "" is invalid and the rest are accepted.
  entry('result stop_reason "end_trun"', S2, "result", split("invalid", "valid"), fromWorker("result", { stop_reason: "end_trun" }), { warnings: ["fisk-ai.stop-reason"] }),
  entry('result stop_reason "tool_use"', S2, "result", split("invalid", "valid"), fromWorker("result", { stop_reason: "tool_use" }), { warnings: ["fisk-ai.stop-reason"] }),
  entry('error stop_reason ""', S2, "error", everywhere("invalid"), fromWorker("error", { error: "x", stop_reason: "" })),
  // Blocks.
  entry("event.zap with an empty block", S2, "event.*", gen2Only("valid"), fromWorker("event.zap", { block: {} })),
  entry("event.text block with a Gen 1 type key", S2, "event.text", gen2Only("valid"), fromWorker("event.text", { block: { type: "text", text: "hi" } })),
  entry("event.zap with a string block", S2, "event.*", gen2Only("invalid"), fromWorker("event.zap", { block: "hello" })),
  entry("event.zap with a null block", S2, "event.*", gen2Only("invalid"), fromWorker("event.zap", { block: null })),
  entry("result carrying a block", S2, "result", split("invalid", "valid"), fromWorker("result", { stop_reason: "end_turn", block: { text: "x" } })),
  // stream defaults to true; an explicit false is carried.
  entry("request.prompt stream false", S2, "request.prompt", gen2Only("valid"), fromConsole("request.prompt", { prompt: "hi", stream: false })),
  entry('request.prompt stream "no"', S2, "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", stream: "no" })),
  // A follow-up carries the token; a token outside the character set is refused.
  entry("request.prompt follow-up with token", S2, "request.prompt", gen2Only("valid"), fromConsole("request.prompt", { prompt: "and now?", conversation_token: TOKEN })),
  entry("request.prompt token with a dot", S2, "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", conversation_token: "tok.en" })),
  entry("request.prompt token of 128 characters", S2, "request.prompt", gen2Only("valid"), fromConsole("request.prompt", { prompt: "hi", conversation_token: "t".repeat(128) })),
  entry("request.prompt token of 129 characters", S2, "request.prompt", gen2Only("invalid"), fromConsole("request.prompt", { prompt: "hi", conversation_token: "t".repeat(129) })),
  entry("ack token with a space", S2, "ack", everywhere("invalid"), fromWorker("ack", { accepted: true, conversation_token: "a b" })),
  // §6.10: Gen 1 is strict.
  ...(
    [
      ["tool.request", { name: "ping" }],
      ["tool.reply", { output: "ok" }],
      ["discovery.request", {}],
      ["ack", { accepted: true }],
      ["cancel", {}],
      ["result", { stop_reason: "end_turn" }],
    ] as [string, Json][]
  ).map(([kind, body]) => entry(`gen1 ${kind} with bogus property`, S10, kind, split("invalid", "valid"), gen1(kind, { ...body, bogus: "nope" }))),
  entry("gen1 request with bogus property", S10, "request", gen1Only("invalid"), gen1("request", { prompt: "hi", bogus: "nope" })),
  entry('gen1 event block type "bogus"', S10, "event", gen1Only("invalid"), gen1Block({ type: "bogus" })),
  entry("gen1 event block without type", S10, "event", gen1Only("invalid"), gen1Block({ text: "hi" })),
  entry("gen1 event text block with final", S10, "event", gen1Only("invalid"), gen1Block({ final: true, text: "hi", type: "text" })),
  entry("gen1 event block with an extra key", S10, "event", gen1Only("invalid"), gen1Block({ text: "hi", type: "text", extra: 1 })),
  entry("gen1 identity with an extra key", S10, "discovery.request", split("invalid", "valid"), edit(gen1("discovery.request", {}), { sender: { name: "console-1", region: "eu" } })),
  entry("gen1 usage with cache tokens", S10, "result", split("invalid", "valid"), gen1("result", { stop_reason: "end_turn", usage: { input_tokens: 1, cache_read_tokens: 1 } })),
];
