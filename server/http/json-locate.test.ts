import { describe, expect, it } from "vitest";
import { describeJsonError, jsonErrorOffset, lineColumn } from "./json-locate.ts";

function parserMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("parsed");
}

describe("jsonErrorOffset", () => {
  it("returns null for valid JSON", () => {
    for (const ok of ['{"a":[1,2.5e-3,true,false,null,"\\u00e9\\n"]}', " 0 ", '""', "[]", "{}"]) expect(jsonErrorOffset(ok)).toBeNull();
  });

  it.each([
    ['{"a":}', 5],
    ['{"a" 1}', 5],
    ['{"a":1,}', 7],
    ["[1,2", 4],
    ["", 0],
    ["nul", 3],
    ['{"a":1}x', 7],
    ["{a:1}", 1],
    ['"abc', 4],
    ['"a\\x"', 3],
    ['"\\u12G4"', 2],
    ["01", 1],
    ["-", 1],
    ["1.", 2],
    ["1e+", 3],
    ['{"a":"x\ny"}', 7],
    ["[1 2]", 3],
  ])("finds the error in %j at %i", (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it("agrees with V8 wherever V8 names a position", () => {
    const samples = ['{"a":1,}', '{"a" 1}', "[1,2", '{"a":1}x', "{a:1}", '"abc', '[1,\n2,\n]', '{"x": [true, fals]}'];
    for (const text of samples) {
      const reported = /at position (\d+)/.exec(parserMessage(text));
      if (reported) expect(jsonErrorOffset(text), text).toBe(Number(reported[1]));
    }
  });

  it("gives up quietly on nesting too deep to scan", () => {
    const deep = "[".repeat(200_000);
    expect(() => jsonErrorOffset(deep)).not.toThrow();
  });
});

describe("describeJsonError", () => {
  it("adds line, column and position, and does not echo the input", () => {
    const text = '{\n  "secret": tru\n}';
    const message = describeJsonError(text, parserMessage(text));
    expect(message).toBe("Unexpected token '\\n' at line 2, column 16 (position 17)");
    expect(message).not.toContain("secret");
  });

  it("keeps V8's description when it has one", () => {
    expect(describeJsonError("[1,2", parserMessage("[1,2"))).toBe("Expected ',' or ']' after array element at line 1, column 5 (position 4)");
  });

  it("computes 1-based line and column", () => {
    expect(lineColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});
