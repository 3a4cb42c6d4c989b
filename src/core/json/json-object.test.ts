import { describe, expect, it } from "vitest";
import { isJsonObject } from "./json-object.ts";

describe("isJsonObject", () => {
  it("accepts parsed objects and refuses null, arrays and scalars", () => {
    expect(isJsonObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isJsonObject({})).toBe(true);
    for (const v of [null, undefined, [], [1], "x", 1, true]) expect(isJsonObject(v)).toBe(false);
  });
});
