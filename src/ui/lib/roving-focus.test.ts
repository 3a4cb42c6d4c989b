import { describe, expect, it } from "vitest";
import { nextIndex } from "./roving-focus.ts";

describe("nextIndex", () => {
  it.each([
    ["ArrowRight", 0, 6, 1],
    ["ArrowRight", 5, 6, 0],
    ["ArrowLeft", 0, 6, 5],
    ["Home", 3, 6, 0],
    ["End", 1, 6, 5],
    ["Enter", 1, 6, null],
    ["ArrowRight", 0, 0, null],
  ])("%s from %i of %i → %s", (key, current, count, want) => {
    expect(nextIndex(key, current, count)).toBe(want);
  });
});
