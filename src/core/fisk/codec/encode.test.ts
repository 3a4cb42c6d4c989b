import { describe, expect, it } from "vitest";
import { decodeFiskMessage } from "./decode.ts";
import { encodeFiskBytes, encodeFiskMessage } from "./encode.ts";
import { FiskEncodeError } from "./json-text.ts";
import { FISK_PROTOCOLS as P } from "./protocol-ids.ts";
import type { FiskMessage } from "./types-messages.ts";

const HEADER = {
  id: "i",
  request: "r",
  conversation: "c",
  sequence: 0,
  time: "2026-08-21T09:14:05Z",
  sender: { name: "s" },
};
const HEADER_TEXT = '"id":"i","request":"r","conversation":"c","sequence":0,"time":"2026-08-21T09:14:05Z","sender":{"name":"s"}';
const go = (m: object): string => encodeFiskMessage(m as FiskMessage, { go: true });
const wire = (protocol: string, body: string): string => `{"protocol":"${protocol}",${HEADER_TEXT}${body}}`;

describe("encodeFiskMessage with go: true: omitempty exactly as Go", () => {
  it("always sends sequence, accepted, error and a result's stop_reason, even when zero", () => {
    expect(go({ protocol: P.ack, ...HEADER, accepted: false })).toBe(wire(P.ack, ',"accepted":false'));
    expect(go({ protocol: P.error, ...HEADER, error: "", stop_reason: "" })).toBe(wire(P.error, ',"error":""'));
    expect(go({ protocol: P.result, ...HEADER, stop_reason: "" })).toBe(wire(P.result, ',"stop_reason":""'));
  });

  it("leaves out exit_code 0, empty output and is_error false", () => {
    const m = { protocol: P.toolReply, ...HEADER, is_error: false, output: "", exec: { command: "ping", exit_code: 0, truncated: false } };
    expect(go(m)).toBe(wire(P.toolReply, ',"exec":{"command":"ping"}'));
    expect(go({ ...m, exec: { exit_code: 3 } })).toBe(wire(P.toolReply, ',"exec":{"exit_code":3}'));
  });

  it("sends an elicit reply's zero value: confirmed:false, index:0, value:\"\"", () => {
    const q = { ...HEADER, question_id: "q" };
    expect(go({ protocol: P.elicitReplyConfirm, ...q, confirmed: false })).toBe(wire(P.elicitReplyConfirm, ',"question_id":"q","confirmed":false'));
    expect(go({ protocol: P.elicitReplySelect, ...q, index: 0 })).toBe(wire(P.elicitReplySelect, ',"question_id":"q","index":0'));
    expect(go({ protocol: P.elicitReplyInput, ...q, value: "" })).toBe(wire(P.elicitReplyInput, ',"question_id":"q","value":""'));
    // Only the field the id names goes out.
    expect(go({ protocol: P.elicitReplyNoOperator, ...q, value: "x", index: 2 })).toBe(wire(P.elicitReplyNoOperator, ',"question_id":"q"'));
  });

  it("writes Go's zero value for a field a Go struct always holds", () => {
    const bare = { protocol: P.elicitReplySelect, question_id: "q" };
    expect(go(bare)).toBe(
      `{"protocol":"${P.elicitReplySelect}","id":"","request":"","conversation":"","sequence":0,"time":"0001-01-01T00:00:00Z","sender":{"name":""},"question_id":"q","index":0}`,
    );
  });

  it("keeps pointer booleans: stream:false and behaviour false are sent, unset ones are not", () => {
    expect(go({ protocol: P.requestResume, ...HEADER, conversation_token: "t", stream: false })).toBe(
      wire(P.requestResume, ',"stream":false,"conversation_token":"t"'),
    );
    const card = (behavior: unknown): string =>
      go({ protocol: P.discoveryReply, ...HEADER, name: "a", version: "1", tools: [{ name: "t", behavior }] });
    expect(card({ read_only: false })).toContain('"tools":[{"name":"t","behavior":{"read_only":false}}]');
    expect(card({})).toContain('"tools":[{"name":"t"}]');
    expect(card({ read_only: null })).toContain('"tools":[{"name":"t"}]');
  });

  it("leaves out empty lists, nil pointers and null optional values", () => {
    const m = { protocol: P.discoveryReply, ...HEADER, recipient: null, name: "a", version: "1", protocols: [], tools: [], description: "" };
    expect(go(m)).toBe(wire(P.discoveryReply, ',"name":"a","version":"1"'));
  });
});

describe("encodeFiskMessage with go: true: order, maps and escaping", () => {
  it("writes fields in declaration order, header first, whatever the object's order", () => {
    const scrambled = { reason: "no", accepted: false, ...HEADER, sender: { instance: "2", name: "s" }, protocol: P.ack, traceparent: "t" };
    expect(go(scrambled)).toBe(
      `{"protocol":"${P.ack}","id":"i","request":"r","conversation":"c","sequence":0,"time":"2026-08-21T09:14:05Z","sender":{"name":"s","instance":"2"},"traceparent":"t","accepted":false,"reason":"no"}`,
    );
  });

  it("drops properties the Go struct does not declare; the plain mode keeps them", () => {
    const m = { protocol: P.cancel, ...HEADER, reason: "x", extra: { keep: true } };
    expect(go(m)).toBe(wire(P.cancel, ',"reason":"x"'));
    expect(encodeFiskMessage(m as FiskMessage)).toBe(`{"protocol":"${P.cancel}",${HEADER_TEXT},"reason":"x","extra":{"keep":true}}`);
  });

  it("sorts map keys at every level (input_schema, input) and keeps array order", () => {
    const schema = { type: "object", required: ["z", "a"], properties: { z: { type: "string", description: "d" }, a: { type: "boolean" } } };
    const reply = go({ protocol: P.discoveryReply, ...HEADER, name: "a", version: "1", tools: [{ name: "t", input_schema: schema }] });
    expect(reply).toContain(
      '"input_schema":{"properties":{"a":{"type":"boolean"},"z":{"description":"d","type":"string"}},"required":["z","a"],"type":"object"}',
    );
    const request = go({ protocol: P.toolRequest, ...HEADER, name: "t", input: { b: 1, a: { d: 2, c: 3 } } });
    expect(request).toBe(wire(P.toolRequest, ',"name":"t","input":{"a":{"c":3,"d":2},"b":1}'));
  });

  it("sorts keys in Go's byte order, not UTF-16 order", () => {
    const input = { "\u{1F600}": 1, "\uFF5E": 2, b: 3 };
    expect(go({ protocol: P.toolRequest, ...HEADER, name: "t", input })).toContain('"input":{"b":3,"\uFF5E":2,"\u{1F600}":1}');
  });

  it("escapes <, >, &, U+2028 and U+2029, control characters, and lone surrogates as Go does", () => {
    const reason = "a<b>&c\u2028\u2029\u0001\u001f\b\f\n\r\t\"\\\u007f é\ud800";
    expect(go({ protocol: P.ack, ...HEADER, accepted: true, reason })).toContain(
      String.raw`"reason":"a\u003cb\u003e\u0026c\u2028\u2029\u0001\u001f\b\f\n\r\t\"\\` + '\u007f é' + String.raw`\ufffd"`,
    );
    expect(go({ protocol: P.toolRequest, ...HEADER, name: "t", input: { "<k>": "&" } })).toContain(String.raw`"input":{"\u003ck\u003e":"\u0026"}`);
  });

  it("writes numbers in maps as Go writes float64, integers in full", () => {
    const input = { a: -0, b: 1e21, c: 1.5, d: 1e-7, e: 123456789012 };
    expect(go({ protocol: P.toolRequest, ...HEADER, name: "t", input })).toContain('"input":{"a":-0,"b":1e+21,"c":1.5,"d":1e-7,"e":123456789012}');
    expect(go({ protocol: P.ack, ...HEADER, accepted: true, max_tokens: 1e21 })).toContain('"max_tokens":1000000000000000000000');
  });

  it("re-writes time as Go would after decoding it: trimmed fraction, the sender's offset kept", () => {
    const at = (time: string): string => go({ protocol: P.cancel, ...HEADER, time });
    expect(at("2026-08-21T09:14:05.000Z")).toContain('"time":"2026-08-21T09:14:05Z"');
    expect(at("2026-08-21T09:14:05.120+02:00")).toContain('"time":"2026-08-21T09:14:05.12+02:00"');
    expect(at("2026-08-21T09:14:05+00:00")).toContain('"time":"2026-08-21T09:14:05Z"');
    expect(at("2026-08-21T09:14:05.1234567891Z")).toContain('"time":"2026-08-21T09:14:05.123456789Z"');
  });
});

describe("encodeFiskMessage: events", () => {
  it("writes Gen 1 blocks with sorted keys, type included, empty fields left out", () => {
    const block = { type: "tool_result", output: "ORDERS\n", is_error: false, exec: { exit_code: 0, command: "stream ls" }, call_id: "c1" };
    const m = { protocol: P.gen1Event, ...HEADER, traceparent: "dropped: Gen 1 has no such field", block };
    expect(go(m)).toBe(wire(P.gen1Event, ',"block":{"call_id":"c1","exec":{"command":"stream ls"},"output":"ORDERS\\n","type":"tool_result"}'));
    const status = { protocol: P.gen1Event, ...HEADER, block: { usage: { output_tokens: 2, input_tokens: 1, llm_calls: 9 }, type: "status", iteration: 1 } };
    expect(go(status)).toContain('"block":{"iteration":1,"type":"status","usage":{"input_tokens":1,"output_tokens":2}}');
  });

  it("always sends a Gen 1 request's prompt", () => {
    expect(go({ protocol: P.gen1Request, ...HEADER, prompt: "", stream: false })).toBe(wire(P.gen1Request, ',"prompt":"","stream":false'));
  });

  it("re-emits an unknown block from its text: verbatim plain, compacted and escaped by Go", () => {
    const raw = '{ "b" : "<x>",\n "a" : [1, 2.50] }';
    const text = `{"protocol":"io.choria.fisk-ai.v1.event.future",${HEADER_TEXT},"block":${raw}}`;
    const decoded = decodeFiskMessage(text);
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(encodeFiskMessage(decoded.message)).toBe(text);
    expect(encodeFiskMessage(decoded.message, { go: true })).toContain(String.raw`"block":{"b":"\u003cx\u003e","a":[1,2.50]}`);
  });

  it("keeps {} under an unknown kind distinct from a missing block", () => {
    const withEmpty = decodeFiskMessage(`{"protocol":"io.choria.fisk-ai.v1.event.x",${HEADER_TEXT},"block":{}}`);
    if (!withEmpty.ok) throw new Error(withEmpty.error.message);
    expect(encodeFiskMessage(withEmpty.message, { go: true })).toContain('"block":{}');
    const without = decodeFiskMessage(`{"protocol":"io.choria.fisk-ai.v1.event.x",${HEADER_TEXT}}`);
    if (!without.ok) throw new Error(without.error.message);
    expect(encodeFiskMessage(without.message)).toBe(without.text);
    expect(() => encodeFiskMessage(without.message, { go: true })).toThrow(/carries no block/);
  });

  it("writes a hand-built unknown event from its rawBlock alone", () => {
    const m = { protocol: "io.choria.fisk-ai.v1.event.note", ...HEADER, rawBlock: '{"n":1}' } as unknown as FiskMessage;
    expect(encodeFiskMessage(m)).toBe(`{"protocol":"io.choria.fisk-ai.v1.event.note",${HEADER_TEXT},"block":{"n":1}}`);
    expect(() => encodeFiskMessage({ ...m, rawBlock: "{nope" } as FiskMessage)).toThrow(FiskEncodeError);
  });

  it("refuses a named event without a block object", () => {
    expect(() => go({ protocol: P.eventText, ...HEADER })).toThrow(/carries no block/);
    expect(() => go({ protocol: P.eventText, ...HEADER, block: [1] })).toThrow(FiskEncodeError);
  });
});

describe("encodeFiskMessage: refusals and bytes", () => {
  it.each([
    ["an unknown id", { protocol: "io.choria.fisk-ai.v1.bogus" }],
    ["an invalid event id", { protocol: "io.choria.fisk-ai.v1.event.text.evil" }],
    ["no protocol", { id: "x" }],
  ])("refuses %s in both modes", (_label, m) => {
    expect(() => encodeFiskMessage(m as unknown as FiskMessage)).toThrow(FiskEncodeError);
    expect(() => go(m)).toThrow(FiskEncodeError);
  });

  it.each([
    ["a string sequence", { sequence: "1" }, /message.sequence must be an integer/],
    ["a fractional sequence", { sequence: 1.5 }, /must be an integer/],
    ["a time Go cannot parse", { time: "yesterday" }, /message.time must be RFC 3339/],
    ["a sender that is not an object", { sender: "s" }, /message.sender must be an object/],
  ])("refuses %s with go: true", (_label, patch, message) => {
    expect(() => go({ protocol: P.cancel, ...HEADER, ...patch })).toThrow(message);
  });

  it("refuses values with no JSON form", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => encodeFiskMessage({ protocol: P.toolRequest, ...HEADER, name: "t", input: cyclic } as unknown as FiskMessage)).toThrow(/refers to itself/);
    expect(() => go({ protocol: P.toolRequest, ...HEADER, name: "t", input: { n: Number.NaN } })).toThrow(/no JSON form/);
  });

  it("encodes UTF-8 bytes of the same text", () => {
    const m = { protocol: P.ack, ...HEADER, accepted: true, reason: "é<" } as FiskMessage;
    expect(new TextDecoder().decode(encodeFiskBytes(m, { go: true }))).toBe(encodeFiskMessage(m, { go: true }));
    expect(encodeFiskBytes(m).length).toBe(new TextEncoder().encode(encodeFiskMessage(m)).length);
  });
});
