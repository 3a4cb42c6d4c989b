import { gen1, type Json } from "./build.ts";
import { type CorpusEntry, entry, everywhere, gen1Only, split } from "./types.ts";

/** Gen 1: every id fully populated, every block type, and Gen 1-specific invalid messages. */

const S = "§1b";

/** Every optional Gen 1 header field (no traceparent: Gen 1 has none). */
const full = (suffix: string, body: Json, sequence = 0): Json => ({
  ...gen1(suffix, {}, sequence),
  parent: "3r5yHUig43kiJfahqSIjOugM1yX",
  sender: { name: "console-1", instance: "tab-1" },
  recipient: { name: "nats-tools", instance: "host_2" },
  must_understand: true,
  ...body,
});

const budget = { max_tokens: 100, max_iterations: 3, call_timeout: "30s" };

const SHARED: [string, Json][] = [
  ["discovery.request", {}],
  ["discovery.reply", { name: "nats-tools", version: "0.0.3", description: "d", protocols: ["io.choria.fisk-ai.v1"], tools: [{ name: "stream_ls", description: "Lists", input_schema: { type: "object" } }] }],
  ["tool.request", { name: "stream_ls", input: { json: true } }],
  ["tool.reply", { is_error: true, output: "boom", exec: { command: "stream ls", exit_code: 3, truncated: true } }],
  ["ack", { accepted: false, reason: "busy" }],
  ["result", { stop_reason: "end_turn", text: "t", usage: { input_tokens: 1, output_tokens: 2 } }],
  ["error", { stop_reason: "error", error: "failed", code: "failed" }],
  ["cancel", { reason: "stop" }],
];

const BLOCKS: Json[] = [
  { provider: "anthropic", signature: "s", text: "hmm", type: "thinking" },
  { text: "hello", type: "text" },
  { id: "toolu_1", input: { json: true }, name: "stream_ls", type: "tool_call" },
  { call_id: "toolu_1", exec: { command: "stream ls", exit_code: 0, truncated: false }, is_error: false, output: "ORDERS\n", type: "tool_result" },
  { id: "c1", name: "helper", task: "t1", type: "agent_call" },
  { iteration: 1, phase: "calling-llm", type: "status", usage: { input_tokens: 1, output_tokens: 1 } },
];

const event = (block: unknown) => gen1("event", { block }, 2);
const request = (body: Json) => gen1("request", body);

const MORE: [string, string, Record<string, "valid" | "invalid" | "unknown">, Json][] = [
  ["gen1 request fully populated", "request", gen1Only("valid"), { ...full("request", {}), prompt: "hi", context: "c", tool_hints: ["stream_ls"], budget, stream: true }],
  ['gen1 request prompt ""', "request", gen1Only("valid"), request({ prompt: "" })],
  ["gen1 request with conversation_token", "request", gen1Only("invalid"), request({ prompt: "hi", conversation_token: "t" })],
  ["gen1 request budget with an unknown key", "request", gen1Only("invalid"), request({ prompt: "hi", budget: { max_cost: 1 } })],
  ['gen1 request stream "no"', "request", gen1Only("invalid"), request({ prompt: "hi", stream: "no" })],
  ["gen1 event status block with only type", "event", gen1Only("valid"), event({ type: "status" })],
  ["gen1 event status block with count", "event", gen1Only("invalid"), event({ type: "status", count: 2 })],
  ["gen1 event tool_call without name", "event", gen1Only("invalid"), event({ id: "t", type: "tool_call" })],
  ["gen1 event without block", "event", gen1Only("invalid"), gen1("event", {}, 2)],
  ["gen1 event block a string", "event", gen1Only("invalid"), event("text")],
  ['gen1 event warning block (a Gen 2 kind)', "event", gen1Only("invalid"), event({ kind: "unknown_tool", type: "warning" })],
  ["gen1 exec_result with an unknown key", "tool.reply", split("invalid", "valid"), gen1("tool.reply", { exec: { command: "x", pid: 4 } })],
  ["gen1 tool descriptor with behavior", "discovery.reply", split("invalid", "valid"), gen1("discovery.reply", { name: "a", version: "1", tools: [{ name: "t", behavior: { read_only: true } }] })],
  ["gen1 error with usage", "error", split("invalid", "valid"), gen1("error", { error: "x", usage: { input_tokens: 1 } })],
  ["gen1 result with trace_id", "result", split("invalid", "valid"), gen1("result", { stop_reason: "end_turn", trace_id: "abc" })],
];

export const GEN1_KIND_ENTRIES: readonly CorpusEntry[] = [
  ...SHARED.map(([kind, body]) => entry(`gen1 ${kind} fully populated`, S, kind, everywhere("valid"), full(kind, body))),
  ...BLOCKS.map((block) => entry(`gen1 event ${String(block.type)} block fully populated`, S, "event", gen1Only("valid"), event(block))),
  ...MORE.map(([name, kind, expect, msg]) => entry(name, S, kind, expect, msg)),
];
