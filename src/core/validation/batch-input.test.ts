import { describe, expect, it } from "vitest";
import { manualClock } from "../env/defaults.ts";
import { encodeBase64, WireLog, wireJsonlLines, type WireFrameInput } from "../wire/index.ts";
import { MAX_MESSAGE_CHARS, splitInput, splitItems, type SplitInput } from "./batch-input.ts";

const enc = new TextEncoder();
const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const RESULT = '{"jsonrpc":"2.0","id":1,"result":{}}';

function texts(split: SplitInput): string[] {
  return splitItems(split).map((i) => i.text);
}

/** The split as data, to compare whole. */
function plain(split: SplitInput) {
  return { format: split.format, items: splitItems(split), notes: split.notes };
}

describe("splitInput: single JSON and arrays", () => {
  it("keeps a pretty-printed message whole", () => {
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { a: [1, 2] } }, null, 2);
    expect(plain(splitInput("msg.json", text))).toEqual({ format: "json", items: [{ source: "msg.json", text }], notes: [] });
  });

  it("splits a JSON array into its elements with positions and lines", () => {
    const text = `[\n  ${PING},\n\n  {\n    "b": 2\n  },\n  ${RESULT}\n]\n`;
    const split = splitInput("capture.json", text);
    expect(split.format).toBe("json-array");
    expect(splitItems(split)).toEqual([
      { source: "capture.json", text: PING, position: 0, line: 2, column: 3 },
      { source: "capture.json", text: '{\n    "b": 2\n  }', position: 1, line: 4, column: 3 },
      { source: "capture.json", text: RESULT, position: 2, line: 7, column: 3 },
    ]);
  });

  it("keeps the good elements around a broken one", () => {
    const split = splitInput("a.json", `[${PING},\n {"b": },\n ${RESULT}]`);
    expect(split.format).toBe("json-array");
    expect(texts(split)).toEqual([PING, '{"b": }', RESULT]);
    expect(splitItems(split).map((i) => i.line)).toEqual([1, 2, 3]);
  });

  it("reads an empty array as no messages", () => {
    expect(plain(splitInput("a.json", " [ ] "))).toEqual({ format: "json-array", items: [], notes: [] });
  });

  it("treats an array it cannot split as one message, so the parser places the error", () => {
    const text = `[${PING}, {"a": [}]`;
    expect(plain(splitInput("a.json", text))).toEqual({ format: "json", items: [{ source: "a.json", text }], notes: [] });
  });

  it("turns text that is no format into one message", () => {
    for (const text of ["hello world", "hello\nworld\nagain", "42", ""]) {
      expect(plain(splitInput("x.txt", text))).toEqual({ format: "json", items: [{ source: "x.txt", text }], notes: [] });
    }
  });

  it("drops a byte order mark", () => {
    expect(splitItems(splitInput("bom.json", `\uFEFF${PING}`))).toEqual([{ source: "bom.json", text: PING }]);
    expect(texts(splitInput("bom.jsonl", `\uFEFF${PING}\n${RESULT}\n`))).toEqual([PING, RESULT]);
    expect(splitInput("bom.json", `\uFEFF[${PING}]`).format).toBe("json-array");
  });

  it("refuses a message over the size limit with a reason, keeping the others", () => {
    const huge = `{"blob":"${"x".repeat(MAX_MESSAGE_CHARS)}"}`;
    const single = splitInput("big.json", huge);
    expect(splitItems(single)).toHaveLength(1);
    expect(splitItems(single)[0]?.text).toBe("");
    expect(splitItems(single)[0]?.error).toMatch(/^The message is 8\.0 M characters, over the 8 M this tool validates\.$/);
    const lines = splitInput("big.jsonl", `${PING}\n${huge}\n${RESULT}\n`);
    expect(splitItems(lines).map((i) => [i.position, i.line, i.error === undefined])).toEqual([
      [0, 1, true],
      [1, 2, false],
      [2, 3, true],
    ]);
  });

  it("keeps a broken pretty-printed message whole", () => {
    const text = '{\n  "items": [\n    {"x": 1}\n  ],\n  "b": \n}';
    expect(plain(splitInput("msg.json", text))).toEqual({ format: "json", items: [{ source: "msg.json", text }], notes: [] });
  });
});

describe("splitInput: JSON Lines", () => {
  it("gives each non-blank line with its position and line number, CRLF or LF", () => {
    const split = splitInput("cap.jsonl", `${PING}\r\n\r\n${RESULT}\r\n  \n${PING}`);
    expect(split.format).toBe("jsonl");
    expect(splitItems(split)).toEqual([
      { source: "cap.jsonl", text: PING, position: 0, line: 1 },
      { source: "cap.jsonl", text: RESULT, position: 1, line: 3 },
      { source: "cap.jsonl", text: PING, position: 2, line: 5 },
    ]);
  });

  it("reads two objects on two lines as JSONL, not one broken message", () => {
    expect(texts(splitInput("cap.jsonl", `${PING}\n${RESULT}`))).toEqual([PING, RESULT]);
  });

  it("keeps going past broken lines, including a broken first line", () => {
    const split = splitInput("cap.jsonl", `{"jsonrpc": "2.0", "id": \n${PING}\nnot json\n${RESULT}\n`);
    expect(split.format).toBe("jsonl");
    expect(splitItems(split).map((i) => [i.line, i.text])).toEqual([
      [1, '{"jsonrpc": "2.0", "id": '],
      [2, PING],
      [3, "not json"],
      [4, RESULT],
    ]);
    expect(splitInput("cap.jsonl", `garbage\n${PING}\n${RESULT}`).format).toBe("jsonl");
  });

  it("reads a single object followed by blank lines as one message", () => {
    expect(plain(splitInput("one.jsonl", `${PING}\n\n`))).toEqual({ format: "json", items: [{ source: "one.jsonl", text: `${PING}\n\n` }], notes: [] });
  });

  it("reads JSONL whose first line is a batch array line by line, the batch's elements as messages", () => {
    const split = splitInput("cap.jsonl", `[${PING}]\n${RESULT}\n`);
    expect(split.format).toBe("jsonl");
    expect(texts(split)).toEqual([PING, RESULT]);
    expect(splitItems(split)[0]).toMatchObject({ line: 1, position: 0, label: "batch element 0" });
    expect(splitItems(split)[1]).toMatchObject({ line: 2, position: 1 });
  });
});

describe("splitInput: JSON Lines held as offsets", () => {
  /** What a line-by-line split with eager items gives, to hold the offsets to. */
  function eager(text: string): [number, string][] {
    const out: [number, string][] = [];
    text.split("\n").forEach((raw, i) => {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line.trim() !== "") out.push([i + 1, line]);
    });
    return out;
  }

  it("gives the same lines and texts as splitting the text, CR, blank and last lines included", () => {
    const shapes = [PING, RESULT, "", "  ", "\r", "not json", `  ${PING}`, '{"a": "\u00e9"}'];
    for (let seed = 1; seed <= 40; seed++) {
      const lines = Array.from({ length: 2 + (seed % 7) }, (_, i) => shapes[(seed * 7 + i * 3) % shapes.length]!);
      const text = lines.join(seed % 2 === 0 ? "\n" : "\r\n") + (seed % 3 === 0 ? "\n" : "");
      const split = splitInput("cap.jsonl", `${PING}\n${RESULT}\n${text}`);
      if (split.format !== "jsonl") throw new Error(`seed ${seed} was read as ${split.format}`);
      expect(splitItems(split).map((i) => [i.line, i.text])).toEqual(eager(`${PING}\n${RESULT}\n${text}`));
      expect(splitItems(split).map((i) => i.position)).toEqual(Array.from({ length: split.count }, (_, i) => i));
    }
  });

  it("makes an item each time it is asked for, equal each time, and refuses an index outside the file", () => {
    const split = splitInput("cap.jsonl", `${PING}\n[${PING}, ${RESULT}]\n${RESULT}`);
    expect(split.count).toBe(4);
    expect(split.item(3)).toEqual(split.item(3));
    expect(split.item(3)).toEqual({ source: "cap.jsonl", text: RESULT, position: 3, line: 3 });
    expect(split.item(2)).toMatchObject({ text: RESULT, position: 2, line: 2, label: "batch element 1" });
    for (const bad of [-1, 4, 1.5, Number.NaN]) expect(() => split.item(bad)).toThrow(new RangeError(`There is no message #${bad}: the input holds 4.`));
  });

  it("holds more messages than lines when every line is a batch", () => {
    const batchLine = `[${PING}, ${RESULT}, ${PING}, ${RESULT}]`;
    const split = splitInput("cap.jsonl", `${batchLine}\n${batchLine}\n${PING}\n${batchLine}`);
    expect(split.count).toBe(13);
    expect(splitItems(split).map((i) => [i.position, i.line, i.text === PING])).toEqual(
      [1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 4, 4, 4].map((line, k) => [k, line, [1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0][k] === 1]),
    );
  });

  it("holds more messages than one block of its offset table", () => {
    const lines = Array.from({ length: 9_000 }, (_, i) => (i % 3 === 2 ? "" : `{"n":${i}}`));
    const split = splitInput("cap.jsonl", lines.join("\n"));
    expect(split.count).toBe(6_000);
    expect(split.item(5_999)).toEqual({ source: "cap.jsonl", text: '{"n":8998}', position: 5_999, line: 8_999 });
    expect(split.item(4_096)).toEqual({ source: "cap.jsonl", text: '{"n":6144}', position: 4_096, line: 6_145 });
  });

  it("answers for an array-like file too", () => {
    const split = splitInput("a.json", `[${PING}]`);
    expect(split.count).toBe(1);
    expect(() => split.item(1)).toThrow(RangeError);
  });
});

function har(entries: unknown[]): string {
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test", version: "1" }, entries } });
}

function entry(request: Record<string, unknown>, response: Record<string, unknown>): unknown {
  return { request: { method: "POST", url: "https://agent.test/mcp", ...request }, response: { status: 200, ...response } };
}

describe("splitInput: HAR", () => {
  it("takes JSON request and response bodies, labelled by entry and side", () => {
    const split = splitInput(
      "s.har",
      har([entry({ postData: { mimeType: "application/json", text: PING } }, { content: { mimeType: "application/json; charset=utf-8", text: RESULT } })]),
    );
    expect(plain(split)).toEqual({
      format: "har",
      items: [
        { source: "s.har", text: PING, position: 0, label: "entry 0 request (POST https://agent.test/mcp)" },
        { source: "s.har", text: RESULT, position: 1, label: "entry 0 response (POST https://agent.test/mcp)" },
      ],
      notes: [],
    });
  });

  it("splits an event-stream response into its events' data", () => {
    const sse = `event: message\ndata: ${PING}\n\n: keep-alive\n\nevent: message\ndata: ${RESULT}\n\n`;
    const split = splitInput("s.har", har([entry({}, { content: { mimeType: "text/event-stream", text: sse } })]));
    expect(splitItems(split).map((i) => [i.label, i.text])).toEqual([
      ["entry 0 response (POST https://agent.test/mcp), message 0", PING],
      ["entry 0 response (POST https://agent.test/mcp), message 1", RESULT],
    ]);
  });

  it("decodes a base64 body, and reports one that is not UTF-8 or not base64", () => {
    const good = { mimeType: "application/json", encoding: "base64", text: encodeBase64(enc.encode(RESULT)) };
    const notUtf8 = { mimeType: "application/json", encoding: "base64", text: encodeBase64(new Uint8Array([0xff, 0xfe, 0x7b])) };
    const notBase64 = { mimeType: "application/json", encoding: "base64", text: "%%%" };
    const split = splitInput("s.har", har([entry({}, { content: good }), entry({}, { content: notUtf8 }), entry({}, { content: notBase64 })]));
    expect(splitItems(split)[0]).toMatchObject({ text: RESULT, position: 0 });
    expect(splitItems(split)[1]).toMatchObject({ text: "", position: 1, error: "The response body cannot be read: the base64 body is not UTF-8 text." });
    expect(splitItems(split)[2]).toMatchObject({ text: "", position: 2, error: "The response body cannot be read: the base64 body does not decode." });
  });

  it("skips bodies that are not JSON with a note, and empty bodies silently", () => {
    const split = splitInput(
      "s.har",
      har([
        entry({ method: "GET", postData: { mimeType: "text/plain", text: "" } }, { content: { mimeType: "text/html", text: "<html></html>" } }),
        entry({ postData: { mimeType: "text/plain", text: PING } }, { content: { mimeType: "image/png", text: "PNG" } }),
        entry({}, {}),
      ]),
    );
    expect(splitItems(split).map((i) => [i.label, i.text])).toEqual([["entry 1 request (POST https://agent.test/mcp)", PING]]);
    expect(split.notes).toEqual(["2 HAR bodies were not JSON and were skipped."]);
    const one = splitInput("s.har", har([entry({}, { content: { mimeType: "text/html", text: "<p>" } })]));
    expect(one.notes).toEqual(["1 HAR body was not JSON and was skipped."]);
  });

  it("splits a JSON-RPC batch body into its messages", () => {
    const split = splitInput("s.har", har([entry({ postData: { mimeType: "application/json", text: `[${PING}, ${PING}]` } }, {})]));
    expect(splitItems(split).map((i) => [i.position, i.label, i.text])).toEqual([
      [0, "entry 0 request (POST https://agent.test/mcp), message 0", PING],
      [1, "entry 0 request (POST https://agent.test/mcp), message 1", PING],
    ]);
  });

  it("keeps a JSON body that does not parse, so its error is reported", () => {
    const split = splitInput("s.har", har([entry({}, { content: { mimeType: "application/json", text: '{"a": ' } })]));
    expect(texts(split)).toEqual(['{"a": ']);
  });

  it("ignores entries that are not objects", () => {
    expect(splitItems(splitInput("s.har", har([null, 3, entry({ postData: { text: PING } }, {})])))).toEqual([
      { source: "s.har", text: PING, position: 0, label: "entry 2 request (POST https://agent.test/mcp)" },
    ]);
  });
});

function frame(bytes: Uint8Array, extra: Partial<WireFrameInput> = {}): WireFrameInput {
  return { channel: "mcp", direction: "out", target: "https://agent.test/mcp", bytes, ...extra };
}

function wirelog(frames: readonly WireFrameInput[]): string {
  const clock = manualClock(10);
  const log = new WireLog(clock, 100);
  for (const f of frames) {
    clock.advance(1);
    log.record(f);
  }
  return Array.from(wireJsonlLines(log.entries(), { capacity: 100, dropped: 0, exportedAt: 1_700_000_000_000 })).join("");
}

describe("splitInput: Patchbay traffic export", () => {
  it("gives each frame's payload, labelled by frame", () => {
    const text = wirelog([frame(enc.encode(PING)), frame(enc.encode(RESULT), { direction: "in", channel: "nats", target: "svc.tool" })]);
    expect(plain(splitInput("traffic.jsonl", text))).toEqual({
      format: "wirelog",
      items: [
        { source: "traffic.jsonl", text: PING, position: 0, label: "frame #1 mcp out https://agent.test/mcp" },
        { source: "traffic.jsonl", text: RESULT, position: 1, label: "frame #2 nats in svc.tool" },
      ],
      notes: [],
    });
  });

  it("skips frames without payload with a note, and makes a non-UTF-8 payload an error item", () => {
    const text = wirelog([frame(new Uint8Array(0)), frame(new Uint8Array([0xc3, 0x28])), frame(enc.encode(PING)), frame(new Uint8Array(0))]);
    const split = splitInput("traffic.jsonl", text);
    expect(splitItems(split)).toEqual([
      { source: "traffic.jsonl", text: "", position: 0, label: "frame #2 mcp out https://agent.test/mcp", error: "The payload is not UTF-8 text." },
      { source: "traffic.jsonl", text: PING, position: 1, label: "frame #3 mcp out https://agent.test/mcp" },
    ]);
    expect(split.notes).toEqual(["2 frames had no payload and were skipped."]);
    expect(splitInput("t.jsonl", wirelog([frame(new Uint8Array(0)), frame(enc.encode(PING))])).notes).toEqual(["1 frame had no payload and was skipped."]);
  });

  it("reports broken entry lines as notes and keeps the rest", () => {
    const lines = wirelog([frame(enc.encode(PING)), frame(enc.encode(RESULT))]).split("\n");
    lines[1] = "{broken";
    const split = splitInput("traffic.jsonl", lines.join("\n"));
    expect(split.format).toBe("wirelog");
    expect(texts(split)).toEqual([RESULT]);
    expect(split.notes).toEqual([expect.stringMatching(/^line 2: not JSON/)]);
  });

  it("makes an export it cannot read one error item", () => {
    const newer = `{"format":"patchbay.wirelog","version":99,"exportedAt":"x","capacity":1,"dropped":0,"count":0}\n${PING}\n`;
    const split = splitInput("traffic.jsonl", newer);
    expect(split.format).toBe("wirelog");
    expect(splitItems(split)).toEqual([{ source: "traffic.jsonl", text: "", error: expect.stringMatching(/version 99/) }]);
  });
});
