import { describe, expect, it } from "vitest";
import { manualClock } from "../env/defaults.ts";
import { decodeFrame, DECODE_LIMIT_BYTES } from "./decode.ts";
import { importWireJsonl, replaceLogContents, WireImportError, wireJsonlLines, type WireExportMeta } from "./jsonl.ts";
import type { WireEntry, WireFrameInput } from "./wire-entry.ts";
import { WireLog } from "./wire-log.ts";

const enc = new TextEncoder();
const META = { capacity: 100, dropped: 3, exportedAt: Date.UTC(2025, 0, 2, 3, 4, 5, 678) };

function frame(bytes: Uint8Array, extra: Partial<WireFrameInput> = {}): WireFrameInput {
  return { channel: "nats", direction: "out", target: "svc.echo", bytes, ...extra };
}

function recorded(frames: WireFrameInput[], capacity = 1000): WireEntry[] {
  const clock = manualClock(1000.25);
  const log = new WireLog(clock, capacity);
  for (const f of frames) {
    clock.advance(0.125);
    log.record(f);
  }
  return log.entries();
}

/** The whole export as one string, as a download would hold it. */
function exportWireJsonl(entries: readonly WireEntry[], meta: WireExportMeta): string {
  return Array.from(wireJsonlLines(entries, meta)).join("");
}

function lines(text: string): string[] {
  expect(text.endsWith("\n")).toBe(true);
  return text.slice(0, -1).split("\n");
}

function fileOf(entryLines: string[], count = entryLines.length, version = 1): string {
  const header = { format: "patchbay.wirelog", version, exportedAt: "2025-01-02T03:04:05.678Z", capacity: 10, dropped: 0, count };
  return [JSON.stringify(header), ...entryLines].join("\n") + "\n";
}

/** Index of the first differing byte, or -1; toEqual on megabyte arrays is far too slow. */
function firstDifference(a: Uint8Array | undefined, b: Uint8Array): number {
  if (!a) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function pseudoRandomBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 42;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe("wireJsonlLines", () => {
  it("writes the header, then one line per entry with every field and no decoded view", () => {
    const entries = recorded([
      frame(enc.encode('{"method":"tools/list"}'), {
        headers: { "Nats-Msg-Id": ["a", "b"] },
        correlationId: "c-1",
      }),
      frame(new Uint8Array(0), { direction: "in", status: 503, rttMs: 1.5, note: "no responders", correlationId: "c-1" }),
    ]);
    const out = lines(exportWireJsonl(entries, META));
    expect(out).toHaveLength(3);
    expect(JSON.parse(out[0] as string)).toEqual({
      format: "patchbay.wirelog",
      version: 1,
      exportedAt: "2025-01-02T03:04:05.678Z",
      capacity: 100,
      dropped: 3,
      count: 2,
    });
    const first = JSON.parse(out[1] as string) as Record<string, unknown>;
    expect(first).toEqual({
      seq: 1,
      ts: 1000.375,
      wall: entries[0]?.wall,
      channel: "nats",
      direction: "out",
      target: "svc.echo",
      headers: { "Nats-Msg-Id": ["a", "b"] },
      correlationId: "c-1",
      size: 23,
      bytes: { text: '{"method":"tools/list"}' },
    });
    const second = JSON.parse(out[2] as string) as Record<string, unknown>;
    expect(second).toMatchObject({ status: 503, rttMs: 1.5, note: "no responders", size: 0, bytes: { text: "" } });
    expect(second).not.toHaveProperty("decoded");
    expect(second).not.toHaveProperty("headers");
  });

  it("uses base64 exactly when the bytes are not valid UTF-8", () => {
    const entries = recorded([
      frame(new Uint8Array([0xff, 0x00, 0x41])),
      frame(new Uint8Array([0xed, 0xa0, 0x80])), // an encoded surrogate is not valid UTF-8
      frame(enc.encode("plain é")),
    ]);
    const out = lines(exportWireJsonl(entries, META)).slice(1).map((l) => (JSON.parse(l) as { bytes: unknown }).bytes);
    expect(out).toEqual([{ base64: "/wBB" }, { base64: "7aCA" }, { text: "plain é" }]);
  });

  it("streams one newline-terminated line per chunk", () => {
    const entries = recorded([frame(enc.encode("a\nb")), frame(enc.encode("c"))]);
    const chunks = Array.from(wireJsonlLines(entries, META));
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) expect(chunk.indexOf("\n")).toBe(chunk.length - 1);
  });
});

describe("round trip", () => {
  const payloads: [string, Uint8Array][] = [
    ["JSON", enc.encode('{"jsonrpc":"2.0","id":1,"method":"ping"}')],
    ["astral unicode", enc.encode("clef 𝄞, emoji 😀, CJK 漢字, combining é")],
    ["a leading byte order mark", new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])],
    ["binary", new Uint8Array([0, 1, 2, 0x80, 0xff, 0xc3])],
    ["an empty payload", new Uint8Array(0)],
    ["control characters and line breaks", enc.encode("a\nb\r\nc\u2028d\u0000e\"\\")],
  ];

  for (const [name, bytes] of payloads) {
    it(`keeps ${name} byte-exact`, () => {
      const [original] = recorded([frame(bytes, { headers: { x: ["1"] }, correlationId: "k" })]);
      const result = importWireJsonl(exportWireJsonl([original as WireEntry], META));
      expect(result.problems).toEqual([]);
      const back = result.entries[0] as WireEntry;
      expect(back.bytes).toEqual(bytes);
      expect(back).toEqual(original);
    });
  }

  it("keeps 5 MB payloads whole, binary and text, beyond the decode limit", () => {
    const binary = pseudoRandomBytes(5 * 1024 * 1024);
    const text = enc.encode("x".repeat(5 * 1024 * 1024));
    const original = recorded([frame(binary), frame(text)]);
    const back = importWireJsonl(exportWireJsonl(original, META));
    expect(back.problems).toEqual([]);
    expect(back.entries[0]?.size).toBe(binary.length);
    expect(firstDifference(back.entries[0]?.bytes, binary)).toBe(-1);
    expect(firstDifference(back.entries[1]?.bytes, text)).toBe(-1);
    expect(back.entries[1]?.size).toBeGreaterThan(DECODE_LIMIT_BYTES);
    expect(back.entries[1]?.decoded.jsonError).toMatch(/decode limit/);
  });

  it("derives the decoded view again on import", () => {
    const [original] = recorded([frame(enc.encode('{"method":"tasks/get","protocol":"fisk.a2a"}'))]);
    const back = importWireJsonl(exportWireJsonl([original as WireEntry], META)).entries[0];
    expect(back?.decoded).toEqual({ json: { method: "tasks/get", protocol: "fisk.a2a" }, method: "tasks/get", protocolId: "fisk.a2a" });
  });

  it("reads back the header", () => {
    const result = importWireJsonl(exportWireJsonl([], META));
    expect(result.header).toMatchObject({ version: 1, capacity: 100, dropped: 3, count: 0 });
    expect(result.entries).toEqual([]);
  });
});

const good = (seq: number): string =>
  JSON.stringify({ seq, ts: seq, wall: 1, channel: "mcp", direction: "in", target: "http://x/mcp", size: 2, bytes: { text: "{}" } });

describe("importWireJsonl with bad lines", () => {
  it("reports each bad line with its number and reason, and imports the rest", () => {
    const bad = (patch: Record<string, unknown>) => JSON.stringify({ ...(JSON.parse(good(9)) as object), ...patch });
    const file = fileOf([
      good(1),
      "{not json",
      bad({ channel: "smtp" }),
      bad({ size: 3 }),
      bad({ bytes: { base64: "Zm9" } }),
      bad({ bytes: { text: "\ud800" } }),
      bad({ bytes: { text: "{}", base64: "e30=" } }),
      bad({ seq: 0 }),
      bad({ ts: "soon" }),
      bad({ headers: { a: "not-an-array" } }),
      "[1,2]",
      good(2),
    ]);
    const result = importWireJsonl(file);
    expect(result.entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(result.problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const reasons = result.problems.map((p) => p.reason);
    expect(reasons[0]).toMatch(/^not JSON/);
    expect(reasons[1]).toMatch(/"channel" must be one of mcp, a2a-http, nats, got "smtp"/);
    expect(reasons[2]).toMatch(/"size" says 3 bytes but the payload holds 2/);
    expect(reasons[3]).toMatch(/"bytes.base64": base64 length 3/);
    expect(reasons[4]).toMatch(/lone surrogate/);
    expect(reasons[5]).toMatch(/exactly one of/);
    expect(reasons[6]).toMatch(/"seq" must be a positive integer/);
    expect(reasons[7]).toMatch(/"ts" must be a finite number, got "soon"/);
    expect(reasons[8]).toMatch(/header "a" must be an array of strings/);
    expect(reasons[9]).toMatch(/must be a JSON object/);
  });

  it("imports a line with unknown fields but says which were ignored", () => {
    const line = JSON.stringify({ ...(JSON.parse(good(1)) as object), decoded: { json: 1 }, extra: true });
    const result = importWireJsonl(fileOf([line]));
    expect(result.entries).toHaveLength(1);
    expect(result.entries[0]?.decoded).toEqual(decodeFrame(enc.encode("{}")));
    expect(result.problems).toEqual([{ line: 2, reason: "imported; unknown field(s) ignored: decoded, extra" }]);
  });

  it("reports a count that disagrees with the lines present", () => {
    const result = importWireJsonl(fileOf([good(1)], 3));
    expect(result.entries).toHaveLength(1);
    expect(result.problems).toEqual([
      { line: 1, reason: "the header announces 3 entries but the file holds 1 entry lines (truncated or edited?)" },
    ]);
  });

  it("accepts CRLF line endings, blank lines and a leading BOM", () => {
    const file = "\ufeff" + fileOf([good(1), "", good(2)]).replaceAll("\n", "\r\n");
    const result = importWireJsonl(file);
    expect(result.entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(result.problems).toEqual([{ line: 1, reason: expect.stringMatching(/announces 3 entries/) as unknown as string }]);
  });

  it("keeps a hostile __proto__ header name as a plain key", () => {
    const line = '{"seq":1,"ts":0,"wall":0,"channel":"nats","direction":"in","target":"t","headers":{"__proto__":["x"]},"size":0,"bytes":{"text":""}}';
    const entry = importWireJsonl(fileOf([line])).entries[0] as WireEntry;
    expect(Object.keys(entry.headers ?? {})).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(entry.headers)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("importWireJsonl rejects files that are not wire logs", () => {
  const cases: [string, string, RegExp][] = [
    ["an empty file", "", /the file is empty/],
    ["a blank file", "\n  \n", /the file is empty/],
    ["a non-JSON header", "hello\n", /line 1: not a Patchbay wire log: the header is not JSON/],
    ["another JSON format", '{"format":"har","version":1}\n', /line 1: not a Patchbay wire log: the header must have "format"/],
    ["a newer version", fileOf([], 0, 2), /format version 2; this Patchbay reads up to version 1/],
    ["version zero", fileOf([], 0, 0), /"version" must be a positive integer, got 0/],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => {
      expect(() => importWireJsonl(text)).toThrow(WireImportError);
      expect(() => importWireJsonl(text)).toThrow(message);
    });
  }
});

describe("replaceLogContents", () => {
  it("keeps the newest entries when the file holds more than the log's capacity", () => {
    const big = recorded(Array.from({ length: 10 }, (_, i) => frame(enc.encode(`m${i}`))), 10);
    const imported = importWireJsonl(exportWireJsonl(big, { capacity: 10, dropped: 0, exportedAt: 0 }));
    const log = new WireLog(manualClock(), 4);
    log.record(frame(enc.encode("live")));
    const outcome = replaceLogContents(log, imported.entries);
    expect(outcome).toEqual({ kept: 4, dropped: 6 });
    expect(log.entries().map((e) => e.seq)).toEqual([7, 8, 9, 10]);
    expect(new TextDecoder().decode(log.entries()[0]?.bytes)).toBe("m6");
  });

  it("replaces everything when the file fits", () => {
    const log = new WireLog(manualClock(), 50);
    log.record(frame(enc.encode("live")));
    const entries = recorded([frame(enc.encode("a")), frame(enc.encode("b"))]);
    expect(replaceLogContents(log, entries)).toEqual({ kept: 2, dropped: 0 });
    expect(log.entries()).toEqual(entries);
  });
});
