import { describe, expect, it } from "vitest";
import { LineSplitter, MAX_LINE_CHARS } from "./line-splitter.ts";

describe("LineSplitter", () => {
  it("returns complete lines only, keeping a partial one for later, and drops CR and blank lines", () => {
    const s = new LineSplitter();
    expect(s.push('{"a":')).toEqual([]);
    expect(s.push('1}\r\n\n{"b"')).toEqual(['{"a":1}']);
    expect(s.push(":2}\n  \n")).toEqual(['{"b":2}']);
    expect(s.push('{"c":3}')).toEqual([]);
    expect(s.finish()).toEqual(['{"c":3}']);
    expect(s.finish()).toEqual([]);
  });

  it("refuses a line that grows past the limit without a newline, and recovers", () => {
    const s = new LineSplitter();
    expect(() => s.push("x".repeat(MAX_LINE_CHARS + 1))).toThrow(/exceeds 33554432 characters without a newline/);
    expect(s.push("ok\n")).toEqual(["ok"]);
  });
});
