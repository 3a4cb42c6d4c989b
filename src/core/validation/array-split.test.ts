import { describe, expect, it } from "vitest";
import { topLevelElements } from "./array-split.ts";

function parts(text: string): string[] | null {
  return topLevelElements(text)?.map((r) => text.slice(r.start, r.end)) ?? null;
}

describe("topLevelElements", () => {
  it("splits scalars, objects and nested arrays at the top level only", () => {
    expect(parts('[1, "two", true, null, {"a": [1, 2]}, [[3], [4, [5]]], -1.5e3]')).toEqual([
      "1",
      '"two"',
      "true",
      "null",
      '{"a": [1, 2]}',
      "[[3], [4, [5]]]",
      "-1.5e3",
    ]);
  });

  it("is not fooled by brackets, commas and escaped quotes inside strings", () => {
    expect(parts('["[", "]", "a\\"],b", {"k": "}{,"}, "\\\\"]')).toEqual(['"["', '"]"', '"a\\"],b"', '{"k": "}{,"}', '"\\\\"']);
  });

  it("gives each element's starting line, counting newlines inside strings and values", () => {
    const text = '\n\n[\n  {"a":\n 1},\n  "x\\ny",\n\n  2\n]';
    expect(topLevelElements(text)?.map((r) => r.line)).toEqual([4, 6, 8]);
  });

  it("handles empty arrays and surrounding white space", () => {
    expect(topLevelElements("[]")).toEqual([]);
    expect(topLevelElements(" \r\n\t[ \n ] \n")).toEqual([]);
    expect(parts("  [ 1 ]  ")).toEqual(["1"]);
  });

  it("is null for text that is not one well-bracketed array", () => {
    expect(topLevelElements("")).toBeNull();
    expect(topLevelElements("{}")).toBeNull();
    expect(topLevelElements("x[1]")).toBeNull();
    expect(topLevelElements("[1] x")).toBeNull();
    expect(topLevelElements("[1]\n[2]")).toBeNull();
    expect(topLevelElements("[1, 2")).toBeNull();
    expect(topLevelElements("[1, [2]")).toBeNull();
    expect(topLevelElements('["abc')).toBeNull();
    expect(topLevelElements('["abc\\"]')).toBeNull();
  });

  it("leaves a broken element's text for the parser to judge", () => {
    expect(parts('[{"a": 1}, {"b" 2}, tru]')).toEqual(['{"a": 1}', '{"b" 2}', "tru"]);
    expect(parts("[1 2]")).toEqual(["1 2"]);
  });

  it("does not silently accept holes or a trailing comma", () => {
    expect(topLevelElements("[1,,2]")).toBeNull();
    expect(topLevelElements("[1, 2,]")).toBeNull();
  });
});
