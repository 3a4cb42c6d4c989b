import { describe, expect, it } from "vitest";
import { arrayIndex, formatPointer, JsonPointerSyntaxError, parsePointer } from "./pointer.ts";

describe("JSON pointer syntax", () => {
  it("splits and unescapes RFC 6901 tokens", () => {
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
    expect(parsePointer("/a~1b/m~0n/0")).toEqual(["a/b", "m~n", "0"]);
    // "~01" is "~1" literally: ~1 is unescaped before ~0.
    expect(parsePointer("/~01")).toEqual(["~1"]);
  });

  it("escapes tokens when formatting, round-tripping any key", () => {
    const tokens = ["a/b", "m~n", "~1", "", "0"];
    expect(formatPointer(tokens)).toBe("/a~1b/m~0n/~01//0");
    expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
    expect(formatPointer([])).toBe("");
  });

  it("rejects pointers that are not RFC 6901", () => {
    expect(() => parsePointer("a/b")).toThrow(JsonPointerSyntaxError);
    expect(() => parsePointer("#/a")).toThrow(/must be empty or start with "\/"/);
    expect(() => parsePointer("/a~")).toThrow(/not followed by 0 or 1/);
    expect(() => parsePointer("/a~2")).toThrow(JsonPointerSyntaxError);
  });

  it("reads array indexes strictly", () => {
    expect(arrayIndex("0")).toBe(0);
    expect(arrayIndex("12")).toBe(12);
    expect(arrayIndex("01")).toBeUndefined();
    expect(arrayIndex("-")).toBeUndefined();
    expect(arrayIndex("1e2")).toBeUndefined();
    expect(arrayIndex("")).toBeUndefined();
  });
});
