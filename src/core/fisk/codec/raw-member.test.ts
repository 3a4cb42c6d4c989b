import { describe, expect, it } from "vitest";
import { goCompact } from "./json-text.ts";
import { rawTopLevelMember } from "./raw-member.ts";

describe("rawTopLevelMember", () => {
  it("returns the member's exact text, whatever its type", () => {
    const text = '{ "a" : "x,}\\"]" , "block" :\t{ "k": [1, {"n": "}"}] } , "z": -1.5e3, "t": true }';
    expect(rawTopLevelMember(text, "block")).toBe('{ "k": [1, {"n": "}"}] }');
    expect(rawTopLevelMember(text, "a")).toBe('"x,}\\"]"');
    expect(rawTopLevelMember(text, "z")).toBe("-1.5e3");
    expect(rawTopLevelMember(text, "t")).toBe("true");
  });

  it("ignores nested members of the same name and finds none that is absent", () => {
    expect(rawTopLevelMember('{"inner":{"block":1}}', "block")).toBeNull();
    expect(rawTopLevelMember("{}", "block")).toBeNull();
    expect(rawTopLevelMember("[1]", "block")).toBeNull();
  });

  it("matches escaped keys by their decoded name and keeps the last duplicate", () => {
    expect(rawTopLevelMember('{"block":1,"\\u0062lock":2}', "block")).toBe("2");
  });
});

describe("goCompact", () => {
  it("removes whitespace outside strings and escapes HTML characters inside them", () => {
    expect(goCompact('{ "a" : "x < y & z > w \u2028" ,\n "b" : [ 1 , 2 ] }')).toBe('{"a":"x \\u003c y \\u0026 z \\u003e w \\u2028","b":[1,2]}');
  });

  it("leaves escapes and spaces inside strings alone", () => {
    expect(goCompact('{"a":"\\" { } \\\\ "}')).toBe('{"a":"\\" { } \\\\ "}');
  });
});
