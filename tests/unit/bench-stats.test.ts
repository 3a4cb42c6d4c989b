import { describe, expect, it } from "vitest";
import { median, option, ratioOption } from "../../bench/bench-stats.ts";

describe("the benchmarks' options", () => {
  it("reads a whole-number option, or its fallback when absent, and refuses anything else", () => {
    expect(option(["--rounds", "7"], "--rounds", 5)).toBe(7);
    expect(option([], "--rounds", 5)).toBe(5);
    for (const bad of ["0", "-3", "2.5", "many", ""]) expect(() => option(["--rounds", bad], "--rounds", 5)).toThrow("--rounds must be a positive integer");
    expect(() => option(["--rounds"], "--rounds", 5)).toThrow("--rounds must be a positive integer");
  });

  it("reads a ratio option at or over its minimum, undefined when absent, and refuses one under it or not a number", () => {
    expect(ratioOption(["--ceiling", "2.6"], "--ceiling", 2)).toBe(2.6);
    expect(ratioOption(["--ceiling", "2"], "--ceiling", 2)).toBe(2);
    expect(ratioOption(["--rounds", "3"], "--ceiling", 2)).toBeUndefined();
    for (const bad of ["1.99", "-1", "Infinity", "NaN", "two", ""]) {
      expect(() => ratioOption(["--ceiling", bad], "--ceiling", 2), bad).toThrow("--ceiling must be a ratio of at least 2");
    }
    expect(() => ratioOption(["--ceiling"], "--ceiling", 2)).toThrow("--ceiling must be a ratio of at least 2");
  });

  it("takes the upper median of an even count", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
  });
});
