import { describe, expect, it } from "vitest";
import { parseJsonText } from "./parse-json-text.ts";

function failure(text: string) {
  const r = parseJsonText(text);
  if (r.ok) throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
  return r;
}

describe("parseJsonText", () => {
  it("returns the value of valid JSON, with JSON.parse's duplicate-key rule", () => {
    const r = parseJsonText('{"a": [1, 2.5e3, -0, "x\\u0041"], "b": null, "b": {"c": false}}');
    expect(r).toEqual({ ok: true, value: { a: [1, 2500, -0, "xA"], b: { c: false } } });
  });

  // Positions counted by hand; 1-based.
  const CASES: [name: string, text: string, line: number, column: number, message: RegExp][] = [
    ["trailing comma in an object", '{"a": 1,}', 1, 9, /Trailing comma before '}'/],
    ["trailing comma in an array", "[1, 2, ]", 1, 8, /Trailing comma before '\]'/],
    ["missing comma between members", '{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected ',' or '}'/],
    ["missing colon", '{\n  "a" 1\n}', 2, 7, /expected ':'/],
    ["unclosed array", "[1, 2", 1, 6, /end of input/],
    ["raw newline in a string", '{"a": "x\ny"}', 1, 9, /U\+000A in string/],
    ["raw tab in a string", '["a\tb"]', 1, 4, /U\+0009 in string/],
    ["comment", "// note\n{}", 1, 1, /Comments are not allowed/],
    ["block comment inside", "{\n  /* x */\n}", 2, 3, /Comments are not allowed/],
    ["single-quoted key", "{'a': 1}", 1, 2, /property name in double quotes/],
    ["leading zero", "01", 1, 1, /Invalid number/],
    ["bare minus", "[-]", 1, 2, /Invalid number/],
    ["bad escape", '"\\x"', 1, 2, /Invalid escape 'x'/],
    ["short \\u escape", '"\\u12G4"', 1, 2, /expected 4 hex digits/],
    ["two documents", "{} {}", 1, 4, /end of the document/],
    ["empty text", "", 1, 1, /Empty document/],
    ["only whitespace", " \n\t", 2, 2, /Empty document/],
    ["bad literal after CRLF", '{\r\n  "a": tru\r\n}', 2, 8, /Unexpected 't': expected a JSON value/],
    ["byte order mark", "\uFEFF{}", 1, 1, /U\+FEFF/],
    ["unterminated string", '{"a": "abc', 1, 7, /Unterminated string/],
  ];

  for (const [name, text, line, column, message] of CASES) {
    it(`reports ${name} at ${line}:${column}`, () => {
      const r = failure(text);
      expect(r.message).toMatch(message);
      expect([r.line, r.column]).toEqual([line, column]);
    });
  }

  it("refuses 10,000-deep nesting with a clear error instead of overflowing the stack", () => {
    const arrays = failure("[".repeat(10_000) + "]".repeat(10_000));
    expect(arrays.message).toBe("Nesting is deeper than the limit of 1000 levels");
    expect([arrays.line, arrays.column, arrays.offset]).toEqual([1, 1001, 1000]);
    const objects = failure('{"a":'.repeat(10_000) + "1" + "}".repeat(10_000));
    expect(objects.message).toMatch(/deeper than the limit/);
  });

  it("does not count brackets inside strings, escaped quotes included, towards the depth", () => {
    const text = `["\\"${"[{".repeat(5_000)}", {"k${"]".repeat(3_000)}": 1}]`;
    const r = parseJsonText(text);
    expect(r.ok).toBe(true);
    expect(r.ok && r.value).toEqual(JSON.parse(text));
  });

  it("honours a custom depth limit", () => {
    expect(parseJsonText("[[[]]]", 2).ok).toBe(false);
    expect(parseJsonText("[[[]]]", 3)).toEqual({ ok: true, value: [[[]]] });
  });

  it("parses and rejects 1 MB documents in bounded time", () => {
    const body = Array.from({ length: 25_000 }, (_, i) => `{"i": ${i}, "s": "${"é".repeat(24)}\\n"}`).join(",\n");
    const valid = `[${body}]`;
    expect(valid.length).toBeGreaterThan(1_000_000);
    let started = performance.now();
    const ok = parseJsonText(valid);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(ok.ok && Array.isArray(ok.value) && ok.value.length).toBe(25_000);

    const broken = `[${body},]`;
    started = performance.now();
    const bad = failure(broken);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(bad.line).toBe(25_000);
    expect(bad.message).toMatch(/Trailing comma/);
  });

  // Our scanner must accept exactly what JSON.parse accepts, or markers and values would disagree.
  const AGREEMENT = [
    "1", "-0", "1e5", "1E+5", "0.5e-2", "-", "+1", ".5", "1.", "1e", "[1,]", "[,1]", "[1 2]", "{,}", "{}",
    '"\\u0000"', '"\\ud800"', '"\\/"', "nul", "true false", '{"a" 1}', "[] ", " \n[]\n ", '{"a":[{}]}',
    "1 2", "[-]", "[01]", '"\\U0041"', "[true,false,null]", '{"a":1,}', "\u00a0[]", "[1]x", "[0x10]", "Infinity",
  ];
  for (const text of AGREEMENT) {
    it(`agrees with JSON.parse on ${JSON.stringify(text)}`, () => {
      let accepted = true;
      try {
        JSON.parse(text);
      } catch {
        accepted = false;
      }
      expect(parseJsonText(text).ok).toBe(accepted);
    });
  }
});
