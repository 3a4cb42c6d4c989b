import { describe, expect, it } from "vitest";
import { type SseEvent, SseReader, type SseOptions } from "./sse-parser.ts";

/** Feed `chunks` one by one and collect what comes out. */
function parse(chunks: (string | number[])[], options: SseOptions = {}) {
  const events: SseEvent[] = [];
  const reader = new SseReader((e) => events.push(e), options);
  for (const c of chunks) reader.push(typeof c === "string" ? Buffer.from(c) : new Uint8Array(c));
  reader.end();
  return events;
}

describe("the SSE reader", () => {
  it("reads events with every line ending, split anywhere, and keeps the last id", () => {
    const whole = 'id: 1\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: endpoint\rdata: /m\r\rdata: x\n\n';
    const expected = [
      { event: "message", data: '{"a":\n1}', id: "1" },
      { event: "endpoint", data: "/m", id: "1" },
      { event: "message", data: "x", id: "1" },
    ];
    expect(parse([whole])).toEqual(expected);
    // Every split point, including between "\r" and "\n".
    for (let i = 1; i < whole.length; i++) expect(parse([whole.slice(0, i), whole.slice(i)])).toEqual(expected);
  });

  it("skips comments and a leading BOM, honours retry, and ignores an id with NUL", () => {
    const retries: number[] = [];
    const lines: number[] = [];
    const events = parse(["\uFEFF: keepalive\n\nretry: 250\nid: a\0b\ndata: hi\n\n"], { onRetry: (ms) => retries.push(ms), onLine: () => lines.push(1) });
    expect(events).toEqual([{ event: "message", data: "hi" }]);
    expect(retries).toEqual([250]);
    expect(lines).toHaveLength(6);
  });

  it("delivers an event left unterminated at a clean end", () => {
    expect(parse(["data: last"])).toEqual([{ event: "message", data: "last" }]);
  });

  it("drops an oversize event, says so once, and goes on with the next one", () => {
    const sizes: number[] = [];
    const big = "z".repeat(300);
    const events = parse([`data: ok1\n\ndata: ${big.slice(0, 100)}`, big.slice(100), `\ndata: more\n\ndata: ok2\n\n`], { maxEventBytes: 200, onOversize: (n) => sizes.push(n) });
    expect(events.map((e) => e.data)).toEqual(["ok1", "ok2"]);
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeGreaterThan(200);
  });

  it("counts data across lines: many small lines can make an oversize event too", () => {
    const sizes: number[] = [];
    const events = parse([`${"data: 0123456789\n".repeat(30)}\ndata: fine\n\n`], { maxEventBytes: 100, onOversize: (n) => sizes.push(n) });
    expect(events.map((e) => e.data)).toEqual(["fine"]);
    expect(sizes).toEqual([109]);
  });

  it("accepts an event of exactly the limit", () => {
    expect(parse([`data: ${"q".repeat(64)}\n\n`], { maxEventBytes: 64 })).toEqual([{ event: "message", data: "q".repeat(64) }]);
  });

  it("flags invalid UTF-8 per event and keeps multi-byte characters split across chunks intact", () => {
    const euro = [...Buffer.from("data: €\n\n")];
    const events = parse([euro.slice(0, 8), euro.slice(8), [...Buffer.from("data: a"), 0xc3, 0x28, ...Buffer.from("\n\n")]]);
    expect(events).toEqual([
      { event: "message", data: "€" },
      { event: "message", data: "a\uFFFD(", invalidUtf8: true },
    ]);
  });
});
