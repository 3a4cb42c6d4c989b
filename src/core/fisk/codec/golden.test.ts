import { describe, expect, it } from "vitest";
import { decodeFiskMessage } from "./decode.ts";
import { encodeFiskMessage } from "./encode.ts";
import { createValidationEngine } from "../../packs/index.ts";
import { goCompact } from "./json-text.ts";

/**
 * Every example message of the fisk-ai note (§1.4, §1b, §2.4, §6.11), as the exact compact wire
 * text. Decoding one and encoding it again with `go: true` must give back the same bytes. One
 * example (a tool.reply whose output holds `orders.>`) prints `>` raw, which Go never sends: Go
 * writes it as \u003e, so that one is compared with Go's escaping applied.
 */

const COMPACT: readonly string[] = [
  String.raw`{"protocol":"io.choria.fisk-ai.v1.discovery.request","id":"3qa7yEeeby3abP3E2Zs8IQ9Y7aJ","request":"3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3","conversation":"3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3","sequence":0,"time":"2026-08-21T09:14:03.512309871Z","sender":{"name":"console-1"},"recipient":{"name":"nats-tools"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.request.answer","id":"3mL9xVQ2zg4mZaouqKLiMcVbpT6","request":"3r5yHUig43kiJfahqSIjOugM1yV","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":0,"time":"2026-08-21T10:40:03.000000001Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"conversation_token":"3A819bvTpf9dqcUgxM9ZZ810pkf","answer":{"tool_use_id":"toolu_03Cd","kind":"select","answer":"value","value":"west"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.text","id":"3r5yHUig43kiJfahqSIjOugM1yU","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":12,"time":"2026-08-21T09:20:08.9912Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"text":"There are 2 streams: ORDERS and AUDIT.","final":true}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.tool_call","id":"3uVAgrEAjRWPLQCMK5kN1LZTSj1","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":7,"time":"2026-08-21T09:20:02.104217Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"id":"toolu_01A9bK2mNpQr","name":"stream_ls","input":{"json":true}}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.tool_result","id":"3Ky9Pf34qY6Nb3wWD25RQ4F5ZR4","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":8,"time":"2026-08-21T09:20:02.61Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"call_id":"toolu_01A9bK2mNpQr","output":"{\"command\":\"stream ls --json\",\"exit_code\":0,\"output\":\"[\\\"ORDERS\\\",\\\"AUDIT\\\"]\\n\"}"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.status","id":"3qa7yEeeby3abP3E2Zs8IQ9Y7aK","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":9,"time":"2026-08-21T09:20:03.5Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"iteration":1,"usage":{"input_tokens":6120,"output_tokens":88,"cache_read_tokens":4096}}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.status","id":"3H2n6WSZ1mvw4SKdWcWCiHSWYpU","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":4,"time":"2026-08-21T09:20:01.52Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"phase":"replay_end","usage":{"input_tokens":5210,"output_tokens":312,"cache_read_tokens":4096},"count":2,"truncated":true}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.warning","id":"3ZqhB6baeCN6Zj4a3dDVhYRnKTc","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":10,"time":"2026-08-21T09:20:04.01Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"kind":"tool_timeout","name":"stream_report","error":"the tool did not finish within 5m0s"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.prompt","id":"30np9B9Udk7Z3KhXXZUon6uZ3FC","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":3,"time":"2026-08-21T09:20:01.51Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"text":"list the streams"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.citation","id":"3MAd7V3DnI8lFPPwtV5ASPZHu8r","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":13,"time":"2026-08-21T09:20:09.1Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"block":{"source":"rfc1","page":12}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.result","id":"3RtZHjQMhuOzE95B9EgE0VrbBGJ","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":14,"time":"2026-08-21T09:20:09.771020415Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"stop_reason":"end_turn","text":"There are 2 streams: ORDERS and AUDIT.","usage":{"input_tokens":11330,"output_tokens":400,"cache_read_tokens":8192,"llm_calls":2,"tool_calls":1},"trace_id":"8a8544970433ab6d582fd0eeecd66413"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.error","id":"3pZPPPP6UeP3C4DSA7Lc360a9Y7","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":9,"time":"2026-08-21T09:20:09.771020415Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"stop_reason":"suspended","error":"the run suspended and left a resumable session","code":"suspended","usage":{"input_tokens":6120,"output_tokens":88,"llm_calls":1}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.cancel","id":"3qa7yEeeby3abP3E2Zs8IQ9Y7aL","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3ZqhB6baeCN6Zj4a3dDVhYRnKTd","sequence":0,"time":"2026-08-21T09:20:07.440119003Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"reason":"changed my mind"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.elicit.request.approve","id":"3yNd14tDdO9eGzMcNU77sVTUUJ6","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":7,"time":"2026-08-21T09:20:03.912084Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"question_id":"396lLlGUriAX1DyyXN9iYw1mXJg","tool_use_id":"toolu_01Xy","command":"stream rm","display":"stream rm --force -- ORDERS","tag":"ai:confirm","wait_ms":120000}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.elicit.request.select","id":"3MzN5E6EUCLDUdvdr0UwfMpf5rh","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":9,"time":"2026-08-21T09:20:05Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"question_id":"37wOojmCUuBRoeL5pykPTPly5kB","tool_use_id":"toolu_03Cd","question":"Which cluster?","options":["east","west"],"wait_ms":120000}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.elicit.reply.approve","id":"3wlMvTgbqvXQqwuW8Y9XW1tSnBd","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":0,"time":"2026-08-21T09:20:19.310422518Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"question_id":"396lLlGUriAX1DyyXN9iYw1mXJg","choice":"once"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.elicit.reply.confirm","id":"30np9B9Udk7Z3KhXXZUon6uZ3FD","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":0,"time":"2026-08-21T09:20:19.310422518Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"question_id":"3FqPlpECXVMk11oHUGCiczMSpxl","confirmed":false}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.elicit.waiting","id":"3uVAgrEAjRWPLQCMK5kN1LZTSj2","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":0,"time":"2026-08-21T09:20:19.310422518Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"question_id":"396lLlGUriAX1DyyXN9iYw1mXJg"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.request","id":"3t5isGXNwAMnEYYnWLeEdpomsCr","request":"3t5isGXNwAMnEYYnWLeEdpomsCr","conversation":"3t5isGXNwAMnEYYnWLeEdpomsCr","sequence":0,"time":"2026-07-24T12:00:01Z","sender":{"name":"console-1"},"recipient":{"name":"nats-tools"},"name":"stream_info","input":{"stream":"ORDERS"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.reply","id":"3MzN5E6EUCLDUdvdr0UwfMpf5ri","request":"3t5isGXNwAMnEYYnWLeEdpomsCr","conversation":"3t5isGXNwAMnEYYnWLeEdpomsCr","sequence":0,"time":"2026-07-24T12:00:01.4Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"output":"nats: error: stream not found\n","exec":{"command":"stream info -- ORDERS","exit_code":1}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event","id":"37wOojmCUuBRoeL5pykPTPly5kC","request":"3t5isGXNwAMnEYYnWLeEdpomsCr","conversation":"3t5isGXNwAMnEYYnWLeEdpomsCr","sequence":2,"time":"2026-07-24T12:00:02Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"block":{"call_id":"c1","exec":{"command":"stream ls"},"output":"ORDERS\n","type":"tool_result"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.request","id":"3t5isGXNwAMnEYYnWLeEdpomsCr","request":"3t5isGXNwAMnEYYnWLeEdpomsCr","conversation":"3t5isGXNwAMnEYYnWLeEdpomsCr","sequence":0,"time":"2026-07-24T12:00:00Z","sender":{"name":"console-1"},"recipient":{"name":"nats-tools"},"prompt":"how many streams are there","stream":false}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.ack","id":"3r5yHUig43kiJfahqSIjOugM1yT","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":1,"time":"2026-08-21T09:14:05.00311728Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"accepted":true}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.event.status","id":"3MAd7V3DnI8lFPPwtV5ASPZHu8q","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":2,"time":"2026-08-21T09:14:15.003402113Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"block":{"phase":"running-tool"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.reply","id":"3RtZHjQMhuOzE95B9EgE0VrbBGI","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":3,"time":"2026-08-21T09:14:17.220581004Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"output":"Information for Stream ORDERS created 2026-08-01 10:00:00\n\n  Subjects: orders.>\n  Messages: 1,024\n","exec":{"command":"stream info -- ORDERS"}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.reply","id":"3pZPPPP6UeP3C4DSA7Lc360a9Y6","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":2,"time":"2026-08-21T09:14:05.412870331Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"output":"nats: error: stream not found\n","exec":{"command":"stream info -- MISSING","exit_code":1}}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.reply","id":"3yNd14tDdO9eGzMcNU77sVTUUJ5","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":5,"time":"2026-08-21T09:14:35.004412905Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"is_error":true,"output":"running command \"stream info\": context deadline exceeded"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.ack","id":"396lLlGUriAX1DyyXN9iYw1mXJf","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":1,"time":"2026-08-21T09:14:05.002004552Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"accepted":false,"reason":"tool \"stream_info\" on agent \"nats-tools\" did not run: the agent is already running its maximum of 4 concurrent tool calls"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.reply","id":"3t5isGXNwAMnEYYnWLeEdpomsCp","request":"3xTNJFoBinF5aJXVuLkSIc47WQA","conversation":"3xTNJFoBinF5aJXVuLkSIc47WQA","sequence":2,"time":"2026-08-21T09:14:05.002091876Z","sender":{"name":"nats-tools"},"recipient":{"name":"console-1"},"is_error":true,"output":"tool \"stream_info\" on agent \"nats-tools\" did not run: the agent is already running its maximum of 4 concurrent tool calls","code":"capacity"}`,
  // §6.11: the raw tool.request of the binding's integration test.
  String.raw`{"protocol":"io.choria.fisk-ai.v1.tool.request","id":"x","request":"x","conversation":"x","sequence":0,"time":"2026-01-01T00:00:00Z","sender":{"name":"caller"},"name":"ping"}`,
  // §1.4 in words: resume carries the header and the token; read adds "replay":200.
  String.raw`{"protocol":"io.choria.fisk-ai.v1.request.resume","id":"3mL9xVQ2zg4mZaouqKLiMcVbpT7","request":"3r5yHUig43kiJfahqSIjOugM1yW","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":0,"time":"2026-08-21T10:41:00Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"conversation_token":"3A819bvTpf9dqcUgxM9ZZ810pkf"}`,
  String.raw`{"protocol":"io.choria.fisk-ai.v1.request.read","id":"3mL9xVQ2zg4mZaouqKLiMcVbpT8","request":"3r5yHUig43kiJfahqSIjOugM1yX","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":0,"time":"2026-08-21T10:42:00.5Z","sender":{"name":"console-1"},"recipient":{"name":"nats-worker"},"conversation_token":"3A819bvTpf9dqcUgxM9ZZ810pkf","replay":200}`,
  // §6.11: an ack on the task path carrying the conversation token and the bound.
  String.raw`{"protocol":"io.choria.fisk-ai.v1.ack","id":"3uVAgrEAjRWPLQCMK5kN1LZTSj3","request":"3FqPlpECXVMk11oHUGCiczMSpxk","conversation":"3MzN5E6EUCLDUdvdr0UwfMpf5rg","sequence":1,"time":"2026-08-21T09:20:00.2Z","sender":{"name":"nats-worker"},"recipient":{"name":"console-1"},"accepted":true,"conversation_token":"3A819bvTpf9dqcUgxM9ZZ810pkf","max_tokens":1000000}`,
];

/** §1.4's pretty-printed examples; on the wire they are compact with the keys in this order. */
const PRETTY: readonly string[] = [
  String.raw`{
  "protocol": "io.choria.fisk-ai.v1.discovery.reply",
  "id": "3ZqhB6baeCN6Zj4a3dDVhYRnKTb",
  "request": "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3",
  "conversation": "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3",
  "sequence": 0,
  "time": "2026-08-21T09:14:03.514877102Z",
  "sender": {"name": "nats-tools"},
  "recipient": {"name": "console-1"},
  "name": "nats-tools",
  "version": "0.0.5",
  "protocols": ["io.choria.fisk-ai.v1"],
  "tools": [
    {
      "name": "stream_info",
      "description": "Shows information about a stream\n\nTags: ai:read_only, ai:idempotent",
      "input_schema": {"properties": {"json": {"description": "Produce JSON output", "type": "boolean"}, "stream": {"description": "The stream name", "type": "string"}}, "required": ["stream"], "type": "object"},
      "behavior": {"read_only": true, "idempotent": true}
    },
    {
      "name": "stream_purge",
      "description": "Purges a stream\n\nTags: ai:destructive",
      "input_schema": {"properties": {"stream": {"type": "string"}}, "required": ["stream"], "type": "object"},
      "behavior": {"read_only": false, "destructive": true}
    }
  ],
  "model": "claude-sonnet-5",
  "telemetry": true
}`,
  String.raw`{
  "protocol": "io.choria.fisk-ai.v1.tool.request",
  "id": "3mL9xVQ2zg4mZaouqKLiMcVbpT4",
  "request": "3xTNJFoBinF5aJXVuLkSIc47WQA",
  "conversation": "3xTNJFoBinF5aJXVuLkSIc47WQA",
  "sequence": 0,
  "time": "2026-08-21T09:14:05.001936412Z",
  "sender": {"name": "console-1"},
  "recipient": {"name": "nats-tools"},
  "traceparent": "00-8a8544970433ab6d582fd0eeecd66413-5c0c4929b744a202-01",
  "name": "stream_info",
  "input": {"stream": "ORDERS"}
}`,
  String.raw`{
  "protocol": "io.choria.fisk-ai.v1.request.prompt",
  "id": "37wOojmCUuBRoeL5pykPTPly5kA",
  "request": "3FqPlpECXVMk11oHUGCiczMSpxk",
  "conversation": "3MzN5E6EUCLDUdvdr0UwfMpf5rg",
  "sequence": 0,
  "time": "2026-08-21T09:20:00.118220931Z",
  "sender": {"name": "console-1"},
  "recipient": {"name": "nats-worker"},
  "traceparent": "00-8a8544970433ab6d582fd0eeecd66413-5c0c4929b744a202-01",
  "prompt": "how many streams are there",
  "context": "We run a three node cluster",
  "budget": {"max_tokens": 200000, "max_iterations": 10},
  "conversation_token": "3A819bvTpf9dqcUgxM9ZZ810pkf",
  "replay": 20
}`,
];

const NAMESPACE = "io.choria.fisk-ai.v1.";
const compactInOrder = (pretty: string): string => JSON.stringify(JSON.parse(pretty));
const ALL = [...COMPACT, ...PRETTY.map(compactInOrder)];

describe("golden examples from the note", () => {
  it("covers every example: 29 compact lines, 3 pretty-printed, 4 more from §1.4 and §6.11", () => {
    expect(COMPACT).toHaveLength(33);
    expect(ALL).toHaveLength(36);
  });

  it.each(ALL.map((text) => [JSON.parse(text).protocol as string, text]))("%s re-encodes byte for byte with go: true", (_id, text) => {
    const decoded = decodeFiskMessage(text);
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(decoded.text).toBe(text);
    expect(encodeFiskMessage(decoded.message, { go: true })).toBe(goCompact(text));
  });

  it("differs from the note's text only where the note prints > unescaped", () => {
    const differing = ALL.filter((text) => goCompact(text) !== text);
    expect(differing).toHaveLength(1);
    expect(goCompact(differing[0]!)).toBe(differing[0]!.replace("orders.>", "orders.\\u003e"));
  });

  it.each(ALL.map((text) => [JSON.parse(text).protocol as string, text]))("%s re-encodes unchanged in the plain mode", (_id, text) => {
    const decoded = decodeFiskMessage(text);
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(encodeFiskMessage(decoded.message)).toBe(text);
  });

  it("decodes the pretty-printed forms too, and Go's encoding compacts them", () => {
    for (const pretty of PRETTY) {
      const decoded = decodeFiskMessage(pretty);
      if (!decoded.ok) throw new Error(decoded.error.message);
      expect(encodeFiskMessage(decoded.message, { go: true })).toBe(compactInOrder(pretty));
    }
  });

  it("names each example's kind and generation from its id alone", () => {
    const seen = new Map<string, string>();
    for (const text of ALL) {
      const decoded = decodeFiskMessage(text);
      if (!decoded.ok) throw new Error(decoded.error.message);
      const id = (JSON.parse(text) as { protocol: string }).protocol;
      expect(decoded.kind).toBe(id.slice(NAMESPACE.length));
      seen.set(decoded.kind, decoded.generation);
    }
    expect(seen.get("request")).toBe("gen1");
    expect(seen.get("event")).toBe("gen1");
    expect(seen.get("tool.reply")).toBe("either");
    expect(seen.get("discovery.reply")).toBe("either");
    expect(seen.get("event.citation")).toBe("gen2");
    expect(seen.get("elicit.waiting")).toBe("gen2");
    expect(seen.get("request.read")).toBe("gen2");
  });

  it("keeps the unknown event.citation block as its original text", () => {
    const text = COMPACT.find((t) => t.includes("event.citation"))!;
    const decoded = decodeFiskMessage(text);
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(decoded.message).toMatchObject({ rawBlock: '{"source":"rfc1","page":12}', block: { source: "rfc1", page: 12 } });
  });

  it("every example, re-encoded by Go's rules, is valid for the project's fisk-ai schemas", () => {
    const engine = createValidationEngine();
    for (const text of ALL) {
      const decoded = decodeFiskMessage(text);
      if (!decoded.ok) throw new Error(decoded.error.message);
      const verdict = engine.session().validateText(encodeFiskMessage(decoded.message, { go: true }));
      // An error message is valid too; the engine files it as an error response.
      const status = decoded.kind === "error" ? "error-response" : "valid";
      expect([verdict.kindId, verdict.status]).toEqual([decoded.kind === "event.citation" ? "event.*" : decoded.kind, status]);
    }
  });
});
