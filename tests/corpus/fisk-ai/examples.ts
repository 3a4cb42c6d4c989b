import { CALL, CONV, GEN1_ID, type Json, message, TASK, TOKEN, TRACEPARENT } from "./build.ts";
import { type CorpusEntry, entry, everywhere, gen1Only, gen2Only, split } from "./types.ts";

/** The example messages of the protocol notes (§1, §1b, §2.4), rebuilt in code. */

const card = (from: string, to: string) => ({ request: "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3", conversation: "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3", from, to });
const call = (id: string, sequence: number, time: string) => ({ id, request: CALL, conversation: CALL, sequence, time, from: "nats-tools", to: "console-1" });
const task = (id: string, sequence: number, time: string, from = "nats-worker", to = "console-1") => ({ id, request: TASK, conversation: CONV, sequence, time, from, to });
const ask = (id: string, time = "2026-08-21T09:20:19.310422518Z") => task(id, 0, time, "console-1", "nats-worker");

const tools = [
  {
    name: "stream_info",
    description: "Shows information about a stream\n\nTags: ai:read_only, ai:idempotent",
    input_schema: {
      properties: { json: { description: "Produce JSON output", type: "boolean" }, stream: { description: "The stream name", type: "string" } },
      required: ["stream"],
      type: "object",
    },
    behavior: { read_only: true, idempotent: true },
  },
  {
    name: "stream_purge",
    description: "Purges a stream\n\nTags: ai:destructive",
    input_schema: { properties: { stream: { type: "string" } }, required: ["stream"], type: "object" },
    behavior: { read_only: false, destructive: true },
  },
];

const capacityText = 'tool "stream_info" on agent "nats-tools" did not run: the agent is already running its maximum of 4 concurrent tool calls';

const gen2: [string, string, Record<string, "valid" | "invalid" | "unknown">, Json][] = [
  ["discovery.request", "discovery.request", everywhere("valid"), message("discovery.request", { id: "3qa7yEeeby3abP3E2Zs8IQ9Y7aJ", time: "2026-08-21T09:14:03.512309871Z", ...card("console-1", "nats-tools") })],
  // Gen 1 refuses behavior, model and telemetry (§0).
  [
    "discovery.reply (tools and prompts)",
    "discovery.reply",
    split("invalid", "valid"),
    message("discovery.reply", { id: "3ZqhB6baeCN6Zj4a3dDVhYRnKTb", time: "2026-08-21T09:14:03.514877102Z", ...card("nats-tools", "console-1") }, {
      name: "nats-tools",
      version: "0.0.5",
      protocols: ["io.choria.fisk-ai.v1"],
      tools,
      model: "claude-sonnet-5",
      telemetry: true,
    }),
  ],
  // Gen 1 refuses traceparent (§0).
  [
    "tool.request with traceparent",
    "tool.request",
    split("invalid", "valid"),
    message("tool.request", { id: "3mL9xVQ2zg4mZaouqKLiMcVbpT4", request: CALL, conversation: CALL, time: "2026-08-21T09:14:05.001936412Z", from: "console-1", to: "nats-tools" }, {
      traceparent: TRACEPARENT,
      name: "stream_info",
      input: { stream: "ORDERS" },
    }),
  ],
  ["ack accepted (reply set)", "ack", everywhere("valid"), message("ack", call("3r5yHUig43kiJfahqSIjOugM1yT", 1, "2026-08-21T09:14:05.00311728Z"), { accepted: true })],
  ["event.status keepalive", "event.status", gen2Only("valid"), message("event.status", call("3MAd7V3DnI8lFPPwtV5ASPZHu8q", 2, "2026-08-21T09:14:15.003402113Z"), { block: { phase: "running-tool" } })],
  [
    "tool.reply exit 0",
    "tool.reply",
    everywhere("valid"),
    message("tool.reply", call("3RtZHjQMhuOzE95B9EgE0VrbBGI", 3, "2026-08-21T09:14:17.220581004Z"), {
      output: "Information for Stream ORDERS created 2026-08-01 10:00:00\n\n  Subjects: orders.>\n  Messages: 1,024\n",
      exec: { command: "stream info -- ORDERS" },
    }),
  ],
  ["tool.reply exit 1", "tool.reply", everywhere("valid"), message("tool.reply", call("3pZPPPP6UeP3C4DSA7Lc360a9Y6", 2, "2026-08-21T09:14:05.412870331Z"), { output: "nats: error: stream not found\n", exec: { command: "stream info -- MISSING", exit_code: 1 } })],
  ["tool.reply harness timeout", "tool.reply", everywhere("valid"), message("tool.reply", call("3yNd14tDdO9eGzMcNU77sVTUUJ5", 5, "2026-08-21T09:14:35.004412905Z"), { is_error: true, output: 'running command "stream info": context deadline exceeded' })],
  ["ack refused (capacity)", "ack", everywhere("valid"), message("ack", call("396lLlGUriAX1DyyXN9iYw1mXJf", 1, "2026-08-21T09:14:05.002004552Z"), { accepted: false, reason: capacityText })],
  // Gen 1 has no code (§0).
  ["tool.reply capacity refusal", "tool.reply", split("invalid", "valid"), message("tool.reply", call("3t5isGXNwAMnEYYnWLeEdpomsCp", 2, "2026-08-21T09:14:05.002091876Z"), { is_error: true, output: capacityText, code: "capacity" })],
  ["event.text final", "event.text", gen2Only("valid"), message("event.text", task("3r5yHUig43kiJfahqSIjOugM1yU", 12, "2026-08-21T09:20:08.9912Z"), { block: { text: "There are 2 streams: ORDERS and AUDIT.", final: true } })],
  ["event.tool_call", "event.tool_call", gen2Only("valid"), message("event.tool_call", task("3uVAgrEAjRWPLQCMK5kN1LZTSj1", 7, "2026-08-21T09:20:02.104217Z"), { block: { id: "toolu_01A9bK2mNpQr", name: "stream_ls", input: { json: true } } })],
  [
    "event.tool_result",
    "event.tool_result",
    gen2Only("valid"),
    message("event.tool_result", task("3Ky9Pf34qY6Nb3wWD25RQ4F5ZR4", 8, "2026-08-21T09:20:02.61Z"), {
      block: { call_id: "toolu_01A9bK2mNpQr", output: '{"command":"stream ls --json","exit_code":0,"output":"[\\"ORDERS\\",\\"AUDIT\\"]\\n"}' },
    }),
  ],
  ["event.status iteration", "event.status", gen2Only("valid"), message("event.status", task("3qa7yEeeby3abP3E2Zs8IQ9Y7aK", 9, "2026-08-21T09:20:03.5Z"), { block: { iteration: 1, usage: { input_tokens: 6120, output_tokens: 88, cache_read_tokens: 4096 } } })],
  [
    "event.status replay_end",
    "event.status",
    gen2Only("valid"),
    message("event.status", task("3H2n6WSZ1mvw4SKdWcWCiHSWYpU", 4, "2026-08-21T09:20:01.52Z"), {
      block: { phase: "replay_end", usage: { input_tokens: 5210, output_tokens: 312, cache_read_tokens: 4096 }, count: 2, truncated: true },
    }),
  ],
  ["event.warning", "event.warning", gen2Only("valid"), message("event.warning", task("3ZqhB6baeCN6Zj4a3dDVhYRnKTc", 10, "2026-08-21T09:20:04.01Z"), { block: { kind: "tool_timeout", name: "stream_report", error: "the tool did not finish within 5m0s" } })],
  ["event.prompt", "event.prompt", gen2Only("valid"), message("event.prompt", task("30np9B9Udk7Z3KhXXZUon6uZ3FC", 3, "2026-08-21T09:20:01.51Z"), { block: { text: "list the streams" } })],
  ["event.citation (unknown kind)", "event.*", gen2Only("valid"), message("event.citation", task("3MAd7V3DnI8lFPPwtV5ASPZHu8r", 13, "2026-08-21T09:20:09.1Z"), { block: { source: "rfc1", page: 12 } })],
  // Gen 1 usage has two fields and no trace_id (§0).
  [
    "result end_turn",
    "result",
    split("invalid", "valid"),
    message("result", task("3RtZHjQMhuOzE95B9EgE0VrbBGJ", 14, "2026-08-21T09:20:09.771020415Z"), {
      stop_reason: "end_turn",
      text: "There are 2 streams: ORDERS and AUDIT.",
      usage: { input_tokens: 11330, output_tokens: 400, cache_read_tokens: 8192, llm_calls: 2, tool_calls: 1 },
      trace_id: "8a8544970433ab6d582fd0eeecd66413",
    }),
  ],
  [
    "error suspended",
    "error",
    split("invalid", "valid"),
    message("error", task("3pZPPPP6UeP3C4DSA7Lc360a9Y7", 9, "2026-08-21T09:20:09.771020415Z"), {
      stop_reason: "suspended",
      error: "the run suspended and left a resumable session",
      code: "suspended",
      usage: { input_tokens: 6120, output_tokens: 88, llm_calls: 1 },
    }),
  ],
  ["cancel", "cancel", everywhere("valid"), message("cancel", { ...ask("3qa7yEeeby3abP3E2Zs8IQ9Y7aL", "2026-08-21T09:20:07.440119003Z"), conversation: "3ZqhB6baeCN6Zj4a3dDVhYRnKTd" }, { reason: "changed my mind" })],
  [
    "elicit.request.approve",
    "elicit.request.approve",
    gen2Only("valid"),
    message("elicit.request.approve", task("3yNd14tDdO9eGzMcNU77sVTUUJ6", 7, "2026-08-21T09:20:03.912084Z"), {
      question_id: "396lLlGUriAX1DyyXN9iYw1mXJg",
      tool_use_id: "toolu_01Xy",
      command: "stream rm",
      display: "stream rm --force -- ORDERS",
      tag: "ai:confirm",
      wait_ms: 120000,
    }),
  ],
  [
    "elicit.request.select",
    "elicit.request.select",
    gen2Only("valid"),
    message("elicit.request.select", task("3MzN5E6EUCLDUdvdr0UwfMpf5rh", 9, "2026-08-21T09:20:05Z"), {
      question_id: "37wOojmCUuBRoeL5pykPTPly5kB",
      tool_use_id: "toolu_03Cd",
      question: "Which cluster?",
      options: ["east", "west"],
      wait_ms: 120000,
    }),
  ],
  ["elicit.reply.approve", "elicit.reply.approve", gen2Only("valid"), message("elicit.reply.approve", ask("3wlMvTgbqvXQqwuW8Y9XW1tSnBd"), { question_id: "396lLlGUriAX1DyyXN9iYw1mXJg", choice: "once" })],
  ["elicit.reply.confirm false", "elicit.reply.confirm", gen2Only("valid"), message("elicit.reply.confirm", ask("30np9B9Udk7Z3KhXXZUon6uZ3FD"), { question_id: "3FqPlpECXVMk11oHUGCiczMSpxl", confirmed: false })],
  ["elicit.waiting", "elicit.waiting", gen2Only("valid"), message("elicit.waiting", ask("3uVAgrEAjRWPLQCMK5kN1LZTSj2"), { question_id: "396lLlGUriAX1DyyXN9iYw1mXJg" })],
  [
    "request.prompt continuing with replay",
    "request.prompt",
    gen2Only("valid"),
    message("request.prompt", ask("37wOojmCUuBRoeL5pykPTPly5kA", "2026-08-21T09:20:00.118220931Z"), {
      traceparent: TRACEPARENT,
      prompt: "how many streams are there",
      context: "We run a three node cluster",
      budget: { max_tokens: 200000, max_iterations: 10 },
      conversation_token: TOKEN,
      replay: 20,
    }),
  ],
  [
    "request.answer select by option text",
    "request.answer",
    gen2Only("valid"),
    message("request.answer", { ...ask("3mL9xVQ2zg4mZaouqKLiMcVbpT6", "2026-08-21T10:40:03.000000001Z"), request: "3r5yHUig43kiJfahqSIjOugM1yV" }, {
      conversation_token: TOKEN,
      answer: { tool_use_id: "toolu_03Cd", kind: "select", answer: "value", value: "west" },
    }),
  ],
  ["request.resume", "request.resume", gen2Only("valid"), message("request.resume", ask("3mL9xVQ2zg4mZaouqKLiMcVbpT7"), { conversation_token: TOKEN })],
  ["request.read", "request.read", gen2Only("valid"), message("request.read", ask("3mL9xVQ2zg4mZaouqKLiMcVbpT8"), { conversation_token: TOKEN, replay: 200 })],
  // §6.11: a raw tool.request from the NATS integration test.
  ["tool.request minimal (integration test)", "tool.request", everywhere("valid"), { protocol: "io.choria.fisk-ai.v1.tool.request", id: "x", request: "x", conversation: "x", sequence: 0, time: "2026-01-01T00:00:00Z", sender: { name: "caller" }, name: "ping" }],
];

const legacy = (id: string, sequence: number, time: string, from: string, to: string) => ({ id, request: GEN1_ID, conversation: GEN1_ID, sequence, time, from, to });

/** §1b: validated upstream against both Gen 1 schema sets. */
const gen1: [string, string, Record<string, "valid" | "invalid" | "unknown">, Json][] = [
  ["gen1 tool.request", "tool.request", everywhere("valid"), message("tool.request", legacy(GEN1_ID, 0, "2026-07-24T12:00:01Z", "console-1", "nats-tools"), { name: "stream_info", input: { stream: "ORDERS" } })],
  [
    "gen1 tool.reply exit 1",
    "tool.reply",
    everywhere("valid"),
    message("tool.reply", legacy("3MzN5E6EUCLDUdvdr0UwfMpf5ri", 0, "2026-07-24T12:00:01.4Z", "nats-tools", "console-1"), { output: "nats: error: stream not found\n", exec: { command: "stream info -- ORDERS", exit_code: 1 } }),
  ],
  [
    "gen1 event tool_result",
    "event",
    gen1Only("valid"),
    message("event", legacy("37wOojmCUuBRoeL5pykPTPly5kC", 2, "2026-07-24T12:00:02Z", "nats-tools", "console-1"), { block: { call_id: "c1", exec: { command: "stream ls" }, output: "ORDERS\n", type: "tool_result" } }),
  ],
  ["gen1 request", "request", gen1Only("valid"), message("request", legacy(GEN1_ID, 0, "2026-07-24T12:00:00Z", "console-1", "nats-tools"), { prompt: "how many streams are there", stream: false })],
];

export const EXAMPLE_ENTRIES: readonly CorpusEntry[] = [
  ...gen2.map(([name, kind, expect, msg]) => entry(`example: ${name}`, "§1 / §2.4", kind, expect, msg)),
  ...gen1.map(([name, kind, expect, msg]) => entry(`example: ${name}`, "§1b", kind, expect, msg)),
];
