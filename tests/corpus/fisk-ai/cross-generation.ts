import { fromConsole, fromWorker, gen1, type Json, TOKEN } from "./build.ts";
import { type CorpusEntry, entry, everywhere, gen2Only, split } from "./types.ts";

/**
 * §0's cross-generation facts, field by field, and the messages upstream refuses outside JSON
 * Schema: over the body cap, a time its decoder cannot read, an answer that does not fit its kind.
 */

const S0 = "§0";
const card = (extra: Json) => fromWorker("discovery.reply", { name: "nats-tools", version: "0.0.5", protocols: ["io.choria.fisk-ai.v1"], ...extra });

/** Pads a tool.reply's output so its compact JSON text is exactly `bytes` long (ASCII only). */
function replyOfSize(bytes: number): { message: Json; text: string } {
  const shell = fromWorker("tool.reply", { output: "" });
  const pad = bytes - JSON.stringify(shell).length;
  const message = { ...shell, output: "x".repeat(pad) };
  return { message, text: JSON.stringify(message) };
}

/** Under the cap in characters, over it in UTF-8 bytes. */
function multibyteOverCap(): { message: Json; text: string } {
  const message = fromWorker("tool.reply", { output: "é".repeat(400_000) });
  return { message, text: JSON.stringify(message) };
}

const atCap = replyOfSize(786_432);
const overCap = replyOfSize(786_433);
const wide = multibyteOverCap();

export const CROSS_GENERATION_ENTRIES: readonly CorpusEntry[] = [
  // A Gen 2 card fails Gen 1 on each of its Gen 2 fields alone.
  entry("Gen 2 card with behavior", S0, "discovery.reply", split("invalid", "valid"), card({ tools: [{ name: "t", behavior: { idempotent: true } }] })),
  entry("Gen 2 card with model", S0, "discovery.reply", split("invalid", "valid"), card({ model: "claude-sonnet-5" })),
  entry("Gen 2 card with telemetry", S0, "discovery.reply", split("invalid", "valid"), card({ telemetry: false })),
  entry("Gen 2 card with telemetry_content", S0, "discovery.reply", split("invalid", "valid"), card({ telemetry_content: true })),
  entry("card valid in both generations", S0, "discovery.reply", everywhere("valid"), card({ tools: [{ name: "stream_ls", description: "Lists", input_schema: { type: "object" } }] })),
  // A Gen 2 event.text is no Gen 1 event; a Gen 1 event is no Gen 2 event.
  entry("Gen 2 event.text", S0, "event.text", gen2Only("valid"), fromWorker("event.text", { block: { text: "hi", final: true } })),
  entry("Gen 1 event text", S0, "event", { "gen1-v0.0.2": "valid", "gen1-v0.0.3": "valid", gen2: "unknown" }, gen1("event", { block: { text: "hi", type: "text" } }, 2)),
  // v0.0.3 added suspended and max_iterations.
  entry("Gen 1-shaped result suspended", S0, "result", { "gen1-v0.0.2": "invalid", "gen1-v0.0.3": "valid", gen2: "valid" }, gen1("result", { stop_reason: "suspended", text: "paused" })),
  entry("Gen 1-shaped error max_iterations", S0, "error", { "gen1-v0.0.2": "invalid", "gen1-v0.0.3": "valid", gen2: "valid" }, gen1("error", { stop_reason: "max_iterations", error: "too many" })),
  // The body cap counts UTF-8 bytes of the text as sent.
  entry("tool.reply of exactly 786,432 bytes", "§1.1", "tool.reply", everywhere("valid"), atCap.message, { text: atCap.text }),
  entry("tool.reply of 786,433 bytes", "§1.1", "tool.reply", everywhere("invalid"), overCap.message, { text: overCap.text, errorRule: "fisk-ai.body-size" }),
  entry("tool.reply of 400,000 two-byte characters", "§1.1", "tool.reply", everywhere("invalid"), wide.message, { text: wide.text, errorRule: "fisk-ai.body-size" }),
  // fisk-ai's decoder takes RFC 3339 only; its schema does not assert the format.
  entry('time "yesterday"', "§1.1", "cancel", everywhere("invalid"), { ...fromConsole("cancel", {}), time: "yesterday" }, { errorRule: "fisk-ai.time" }),
  entry('time "2026-08-21 09:14:05Z"', "§1.1", "cancel", everywhere("invalid"), { ...fromConsole("cancel", {}), time: "2026-08-21 09:14:05Z" }, { errorRule: "fisk-ai.time" }),
  entry("time with an offset", "§1.1", "cancel", everywhere("valid"), { ...fromConsole("cancel", {}), time: "2026-08-21T11:14:05.5+02:00" }),
  // The task endpoint refuses an answer that does not fit its question (§1.4 Request).
  entry(
    "request.answer approve answered with value",
    "§1.4",
    "request.answer",
    gen2Only("invalid"),
    fromConsole("request.answer", { conversation_token: TOKEN, answer: { tool_use_id: "toolu_1", kind: "approve", answer: "value", value: "yes" } }),
    { errorRule: "fisk-ai.answer-kind" },
  ),
];
