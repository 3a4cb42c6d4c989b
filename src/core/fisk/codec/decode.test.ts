import { describe, expect, it } from "vitest";
import { decodeFiskMessage, type DecodeResult } from "./decode.ts";
import { encodeFiskMessage } from "./encode.ts";
import { isUnknownEvent } from "./guards.ts";

const NS = "io.choria.fisk-ai.v1";
const HEADER = `"id":"a","request":"r","conversation":"c","sequence":0,"time":"2026-08-21T09:14:05Z","sender":{"name":"s"}`;
const msg = (protocol: string, body = ""): string => `{"protocol":${JSON.stringify(protocol)},${HEADER}${body}}`;

function errorCode(result: DecodeResult): string {
  expect(result.ok).toBe(false);
  return result.ok ? "ok" : result.error.code;
}

function ok(result: DecodeResult): Extract<DecodeResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result;
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("decodeFiskMessage routing", () => {
  it.each([
    ["discovery.request", "either"],
    ["tool.reply", "either"],
    ["ack", "either"],
    ["request.prompt", "gen2"],
    ["request.answer", "gen2"],
    ["request.resume", "gen2"],
    ["request.read", "gen2"],
    ["event.thinking", "gen2"],
    ["event.agent_call", "gen2"],
    ["elicit.request.input", "gen2"],
    ["elicit.reply.no_operator", "gen2"],
    ["elicit.waiting", "gen2"],
    ["request", "gen1"],
    ["event", "gen1"],
  ])("routes %s as %s", (kind, generation) => {
    const result = ok(decodeFiskMessage(msg(`${NS}.${kind}`, ',"block":{}')));
    expect(result.kind).toBe(kind);
    expect(result.generation).toBe(generation);
  });

  it("keeps an unknown single-segment event kind with its block text", () => {
    const text = msg(`${NS}.event.citation`, ',"block": { "source" : "rfc1",\n "page":12 }');
    const result = ok(decodeFiskMessage(text));
    expect(result.kind).toBe("event.citation");
    expect(isUnknownEvent(result.message)).toBe(true);
    expect(result.message).toMatchObject({ rawBlock: '{ "source" : "rfc1",\n "page":12 }' });
    // The block goes back out as it came, whitespace and all; Go's encoder compacts it.
    expect(encodeFiskMessage(result.message)).toBe(text.replace('"block": ', '"block":'));
    expect(encodeFiskMessage(result.message, { go: true })).toBe(msg(`${NS}.event.citation`, ',"block":{"source":"rfc1","page":12}'));
  });

  it("keeps the last block when the key repeats, as JSON.parse and Go do", () => {
    const result = ok(decodeFiskMessage(msg(`${NS}.event.x`, ',"block":{"a":1},"bl\\u006fck":{"b":2}')));
    expect(result.message).toMatchObject({ rawBlock: '{"b":2}', block: { b: 2 } });
  });

  it("does not treat named kinds as unknown", () => {
    const result = ok(decodeFiskMessage(msg(`${NS}.event.text`, ',"block":{"text":"hi"}')));
    expect(isUnknownEvent(result.message)).toBe(false);
    expect(result.message).not.toHaveProperty("rawBlock");
  });

  it.each([`${NS}.event.`, `${NS}.event.text.evil`, `${NS}.event..x`])("refuses the event id %s", (protocol) => {
    expect(errorCode(decodeFiskMessage(msg(protocol)))).toBe("invalid-event-id");
  });

  it.each([
    `${NS}.bogus`,
    `${NS}.citation`,
    `${NS}.elicit.request.interrogate`,
    `${NS}.elicit.reply`,
    `${NS}.request.prompts`,
    `${NS}.requestfoo`,
    "io.choria.fisk-ai.v2.ack",
    "",
  ])("refuses the unknown id %j", (protocol) => {
    const result = decodeFiskMessage(msg(protocol));
    expect(errorCode(result)).toBe("unknown-protocol");
    expect(result.ok ? "" : result.error.message).toContain("unknown protocol id");
  });

  it("decodes bytes and text alike, keeping the text exactly", () => {
    const text = msg(`${NS}.ack`, ',"accepted":true,"reason":"ünïcödé & <b>"');
    expect(ok(decodeFiskMessage(bytes(text))).text).toBe(text);
    expect(ok(decodeFiskMessage(text)).text).toBe(text);
  });
});

describe("decodeFiskMessage on hostile input", () => {
  it.each([
    ["not JSON", "not json"],
    ["truncated", '{"protocol":"x"'],
    ["empty", ""],
    ["trailing garbage", `${msg(`${NS}.ack`)} x`],
    ["a leading BOM", `\ufeff${msg(`${NS}.ack`)}`],
  ])("refuses %s as not-json", (_label, text) => {
    expect(errorCode(decodeFiskMessage(text))).toBe("not-json");
  });

  it("says where the JSON broke", () => {
    const result = decodeFiskMessage('{\n  "protocol": nope}');
    expect(result.ok ? "" : result.error.message).toMatch(/line 2, column 15/);
  });

  it.each([
    ["an array", `[${msg(`${NS}.ack`)}]`],
    ["a string", '"io.choria.fisk-ai.v1.ack"'],
    ["a number", "42"],
    ["null", "null"],
  ])("refuses %s as not-object", (label, text) => {
    const result = decodeFiskMessage(text);
    expect(errorCode(result)).toBe("not-object");
    expect(result.ok ? "" : result.error.message).toContain(label === "a number" ? "a number" : label);
  });

  it.each([
    ["missing", "{}"],
    ["a number", '{"protocol":7}'],
    ["null", '{"protocol":null}'],
    ["an object", '{"protocol":{"toString":"x"}}'],
    ["an array", '{"protocol":["io.choria.fisk-ai.v1.ack"]}'],
  ])("refuses a protocol that is %s", (_label, text) => {
    expect(errorCode(decodeFiskMessage(text))).toBe("no-protocol");
  });

  it("caps bodies at 786432 bytes before decoding them", () => {
    const pad = (n: number): string => msg(`${NS}.ack`, `,"reason":"${"x".repeat(n)}"`);
    const base = msg(`${NS}.ack`, ',"reason":""').length;
    const atLimit = pad(786_432 - base);
    expect(bytes(atLimit).length).toBe(786_432);
    expect(ok(decodeFiskMessage(atLimit)).kind).toBe("ack");
    expect(ok(decodeFiskMessage(bytes(atLimit))).kind).toBe("ack");
    const over = pad(786_433 - base);
    expect(errorCode(decodeFiskMessage(over))).toBe("too-large");
    expect(errorCode(decodeFiskMessage(bytes(over)))).toBe("too-large");
  });

  it("counts bytes, not characters: 300,000 three-byte characters are too large", () => {
    const text = msg(`${NS}.ack`, `,"reason":"${"€".repeat(300_000)}"`);
    expect(text.length).toBeLessThan(786_432);
    const result = decodeFiskMessage(text);
    expect(errorCode(result)).toBe("too-large");
    expect(result.ok ? "" : result.error.message).toMatch(/^the body is 9\d{5} bytes, over the 786432 byte limit$/);
  });

  it("refuses a 1 MB body, even one that is not JSON or not UTF-8", () => {
    expect(errorCode(decodeFiskMessage(new Uint8Array(1_048_576).fill(0xff)))).toBe("too-large");
    expect(errorCode(decodeFiskMessage("{".repeat(1_048_576)))).toBe("too-large");
  });

  it.each([
    ["a lone continuation byte", [0x7b, 0x80, 0x7d]],
    ["an overlong encoding", [0x22, 0xc0, 0xaf, 0x22]],
    ["a truncated sequence", [0x22, 0xe2, 0x82, 0x22]],
    ["an encoded surrogate", [0x22, 0xed, 0xa0, 0x80, 0x22]],
  ])("refuses %s as not-utf8", (_label, raw) => {
    expect(errorCode(decodeFiskMessage(new Uint8Array(raw)))).toBe("not-utf8");
  });

  it("refuses bad UTF-8 inside an otherwise valid message", () => {
    const good = bytes(msg(`${NS}.ack`, ',"reason":"XX"'));
    const at = good.indexOf(0x58);
    good[at] = 0xff;
    expect(errorCode(decodeFiskMessage(good))).toBe("not-utf8");
  });

  it("refuses a string holding a lone surrogate", () => {
    expect(errorCode(decodeFiskMessage(msg(`${NS}.ack`, ',"reason":"\ud800"')))).toBe("not-utf8");
  });

  it("refuses nesting deeper than Go's 10,000 levels without overflowing the stack", () => {
    const deep = (n: number): string => msg(`${NS}.tool.request`, `,"name":"x","input":{"a":${"[".repeat(n)}${"]".repeat(n)}}`);
    const result = decodeFiskMessage(deep(200_000));
    expect(errorCode(result)).toBe("not-json");
    expect(result.ok ? "" : result.error.message).toContain("deeper than the limit of 10000");
    // Just inside the limit decodes, and re-encodes without recursion either.
    const inside = ok(decodeFiskMessage(deep(9_990)));
    expect(encodeFiskMessage(inside.message)).toBe(inside.text);
    expect(encodeFiskMessage(inside.message, { go: true })).toBe(inside.text);
  });

  it("never throws, whatever the bytes", () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    const alphabet = ['{"protocol":"io.choria.fisk-ai.v1.event.', "x", '"', ":", ",", "{", "}", "[", "]", "\\", "block", "\u00e9", " "];
    for (let i = 0; i < 2000; i++) {
      const parts = Array.from({ length: next() % 30 }, () => alphabet[next() % alphabet.length]!);
      const text = parts.join("");
      expect(() => decodeFiskMessage(text)).not.toThrow();
      const raw = Uint8Array.from({ length: next() % 40 }, () => next() % 256);
      expect(() => decodeFiskMessage(raw)).not.toThrow();
    }
  });

  it("keeps __proto__ and other odd keys as plain data", () => {
    const result = ok(decodeFiskMessage(msg(`${NS}.ack`, ',"accepted":true,"__proto__":{"polluted":1}')));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(encodeFiskMessage(result.message)).toBe(result.text);
  });
});
