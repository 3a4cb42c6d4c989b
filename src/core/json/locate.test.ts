import { describe, expect, it } from "vitest";
import { JsonLocator, locatePointer, locatePointerKey } from "./locate.ts";
import { JsonPointerSyntaxError } from "./pointer.ts";

const NESTED = ['{', '  "list": [', "    10,", '    {"x~y": true, "a/b": null}', "  ]", "}"].join("\n");
const CRLF = '{\r\n  "a": {\r\n    "b": 2\r\n  }\r\n}';

interface Golden {
  readonly name: string;
  readonly text: string;
  readonly pointer: string;
  readonly key?: boolean;
  readonly at: [line: number, column: number, endLine: number, endColumn: number];
  readonly found?: boolean;
  readonly resolved?: string;
}

// Expected positions were counted by hand from the texts above (1-based, end exclusive).
const GOLDEN: Golden[] = [
  { name: "root", text: '{"a": 1}', pointer: "", at: [1, 1, 1, 9] },
  { name: "member value", text: '{"a": 1}', pointer: "/a", at: [1, 7, 1, 8] },
  { name: "member key", text: '{"a": 1}', pointer: "/a", key: true, at: [1, 2, 1, 5] },
  { name: "array item", text: NESTED, pointer: "/list/0", at: [3, 5, 3, 7] },
  { name: "~0 in a pointer", text: NESTED, pointer: "/list/1/x~0y", at: [4, 13, 4, 17] },
  { name: "~1 in a pointer", text: NESTED, pointer: "/list/1/a~1b", at: [4, 26, 4, 30] },
  { name: "key of an escaped name", text: NESTED, pointer: "/list/1/a~1b", key: true, at: [4, 19, 4, 24] },
  { name: "multi-line array", text: NESTED, pointer: "/list", at: [2, 11, 5, 4] },
  { name: "index past the end", text: NESTED, pointer: "/list/2", at: [2, 11, 5, 4], found: false, resolved: "/list" },
  { name: '"-" names no element', text: NESTED, pointer: "/list/-", at: [2, 11, 5, 4], found: false, resolved: "/list" },
  { name: "leading zero index", text: NESTED, pointer: "/list/01", at: [2, 11, 5, 4], found: false, resolved: "/list" },
  { name: "missing member", text: NESTED, pointer: "/missing/deeper", at: [1, 1, 6, 2], found: false, resolved: "" },
  { name: "key of a missing member", text: NESTED, pointer: "/list/1/nope", key: true, at: [4, 5, 4, 31], found: false, resolved: "/list/1" },
  { name: "CRLF line breaks", text: CRLF, pointer: "/a/b", at: [3, 10, 3, 11] },
  { name: "CRLF container", text: CRLF, pointer: "/a", at: [2, 8, 4, 4] },
  { name: "lone CR line breaks", text: '{\r"a":\r1}', pointer: "/a", at: [3, 1, 3, 2] },
  { name: "\\u escape in a key", text: '{"caf\\u00e9": 1}', pointer: "/café", at: [1, 15, 1, 16] },
  { name: "\\u escaped key range", text: '{"caf\\u00e9": 1}', pointer: "/café", key: true, at: [1, 2, 1, 13] },
  { name: "escaped quote in a key", text: '{"say \\"hi\\"": 0}', pointer: '/say "hi"', at: [1, 16, 1, 17] },
  { name: "duplicate key: last wins", text: '{"a": 1, "a": [2]}', pointer: "/a", at: [1, 15, 1, 18] },
  { name: "into the last duplicate", text: '{"a": 1, "a": [2]}', pointer: "/a/0", at: [1, 16, 1, 17] },
  { name: "empty key", text: '{"": 5}', pointer: "/", at: [1, 6, 1, 7] },
  { name: "digit key on an object", text: '{"0": true}', pointer: "/0", at: [1, 7, 1, 11] },
  { name: "key spelled ~1", text: '{"~1": 0}', pointer: "/~01", at: [1, 8, 1, 9] },
  { name: "token into a scalar", text: '{"a": "str"}', pointer: "/a/0", at: [1, 7, 1, 12], found: false, resolved: "/a" },
  { name: "surrogate pairs count as two columns", text: '{"k": "😀", "n": 1}', pointer: "/n", at: [1, 18, 1, 19] },
  { name: "string value with escapes", text: '["a\\"b"]', pointer: "/0", at: [1, 2, 1, 8] },
  { name: "scalar root", text: "  42 ", pointer: "", at: [1, 3, 1, 5] },
];

describe("locatePointer golden table", () => {
  for (const g of GOLDEN) {
    it(g.name, () => {
      const loc = locatePointer(g.text, g.pointer, { target: g.key ? "key" : "value" });
      expect([loc.line, loc.column, loc.endLine, loc.endColumn]).toEqual(g.at);
      expect(loc.found).toBe(g.found ?? true);
      expect(loc.resolvedPointer).toBe(g.resolved ?? g.pointer);
      // The offsets agree with the line/column pair.
      const before = g.text.slice(0, loc.offset).split(/\r\n|\r|\n/);
      expect(before.length).toBe(loc.line);
      expect(before.at(-1)!.length + 1).toBe(loc.column);
    });
  }
});

describe("locatePointer edge cases", () => {
  it("reports the node kind and what the range covers", () => {
    expect(locatePointer(NESTED, "/list").nodeType).toBe("array");
    expect(locatePointer(NESTED, "/list/1/a~1b").nodeType).toBe("null");
    const key = locatePointerKey(NESTED, "/list/1/x~0y");
    expect(key.target).toBe("key");
    expect(key.length).toBe('"x~y"'.length);
  });

  it("falls back to the value for the key of an array item or the root", () => {
    expect(locatePointerKey(NESTED, "/list/0")).toMatchObject({ target: "value", line: 3, column: 5 });
    expect(locatePointerKey(NESTED, "")).toMatchObject({ target: "value", line: 1, column: 1 });
  });

  it("still locates what precedes a syntax error", () => {
    const text = '{"a": {"b": 1}, "c": ';
    expect(locatePointer(text, "/a/b")).toMatchObject({ found: true, line: 1, column: 13, endColumn: 14 });
    const missing = locatePointer(text, "/c");
    expect(missing).toMatchObject({ found: false, resolvedPointer: "", line: 1, column: 1 });
    expect(missing.length).toBeGreaterThan(0);
  });

  it("gives an empty or unparseable document a zero-length range at its first character", () => {
    expect(locatePointer("", "")).toMatchObject({ found: false, target: "document", line: 1, column: 1, length: 0 });
    expect(locatePointer("\n\n  ]", "/a")).toMatchObject({ found: false, target: "document", line: 3, column: 3 });
  });

  it("rejects malformed pointers with a named error", () => {
    expect(() => locatePointer("{}", "a")).toThrow(JsonPointerSyntaxError);
    expect(() => locatePointer("{}", "/~2")).toThrow(/not followed by 0 or 1/);
  });

  it("scans once and answers many pointers", () => {
    const locator = new JsonLocator(NESTED);
    expect(locator.locate("/list/0").line).toBe(3);
    expect(locator.locate("/list/1").line).toBe(4);
    expect(locator.scan.error).toBeUndefined();
  });

  it("locates in a 1 MB document in bounded time", () => {
    const count = 20_000;
    const lines = Array.from({ length: count }, (_, i) => `  {"id": ${i}, "name": "item-${i}", "pad": "${"x".repeat(20)}"}`);
    const text = `[\n${lines.join(",\n")}\n]`;
    expect(text.length).toBeGreaterThan(1_000_000);
    const started = performance.now();
    const loc = locatePointer(text, `/${count - 1}/name`);
    expect(performance.now() - started).toBeLessThan(2000);
    const lastLine = lines[count - 1]!;
    expect(loc.line).toBe(count + 1);
    expect(loc.column).toBe(lastLine.indexOf(`"item-${count - 1}"`) + 1);
  });

  it("handles 10,000-deep nesting without overflowing the stack", () => {
    const text = "[".repeat(10_000) + "]".repeat(10_000);
    const loc = locatePointer(text, "/0/0/0");
    // Only the levels below the depth limit exist in the tree.
    expect(loc).toMatchObject({ found: true, line: 1, column: 4 });
    expect(new JsonLocator(text).scan.error?.message).toMatch(/deeper than the limit/);
  });
});
