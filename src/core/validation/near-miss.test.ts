import { describe, expect, it } from "vitest";
import { editDistance, isAllowedMethod, nearestNames, quotedChoice } from "./near-miss.ts";

describe("editDistance", () => {
  it("counts inserts, deletes, substitutions and swaps of neighbours", () => {
    expect(editDistance("tools/call", "tools/call")).toBe(0);
    expect(editDistance("tools/calls", "tools/call")).toBe(1);
    expect(editDistance("tools/cal", "tools/call")).toBe(1);
    expect(editDistance("tools/cell", "tools/call")).toBe(1);
    expect(editDistance("tools/clal", "tools/call")).toBe(1);
    expect(editDistance("tols/cal", "tools/call")).toBe(2);
  });

  it("stops past its limit", () => {
    expect(editDistance("initialize", "ping")).toBe(3);
    expect(editDistance("abcdef", "uvwxyz", 4)).toBe(5);
    expect(editDistance("a", "abcdefgh", 2)).toBe(3);
  });
});

describe("nearestNames", () => {
  const names = ["tools/call", "tools/list", "tasks/get", "tasks/send", "ping"];

  it("finds the names one or two edits away, nearest first", () => {
    expect(nearestNames("tools/calls", names)).toEqual([{ name: "tools/call", edits: 1 }]);
    expect(nearestNames("tasks/sendx", names)).toEqual([{ name: "tasks/send", edits: 1 }]);
    expect(nearestNames("tools/lsit", names).map((n) => n.name)).toEqual(["tools/list"]);
  });

  it("does not match a name to itself, nor short names to anything a third of their length away", () => {
    expect(nearestNames("tools/call", names)).toEqual([]);
    expect(nearestNames("pong", names)).toEqual([{ name: "ping", edits: 1 }]);
    expect(nearestNames("pg", names)).toEqual([]);
    expect(nearestNames("hello/world", names)).toEqual([]);
  });
});

describe("quotedChoice", () => {
  it("reads as a person would say it", () => {
    expect(quotedChoice([])).toBe("");
    expect(quotedChoice(["a"])).toBe('"a"');
    expect(quotedChoice(["a", "b"])).toBe('"a" or "b"');
    expect(quotedChoice(["a", "b", "c"])).toBe('"a", "b" or "c"');
  });
});

describe("isAllowedMethod", () => {
  it("allows exact names and prefixes ending in *, nothing by default", () => {
    expect(isAllowedMethod("acme/reindex", undefined)).toBe(false);
    expect(isAllowedMethod("acme/reindex", [])).toBe(false);
    expect(isAllowedMethod("acme/reindex", ["acme/reindex"])).toBe(true);
    expect(isAllowedMethod("acme/reindex", ["acme/*"])).toBe(true);
    expect(isAllowedMethod("acmex/reindex", ["acme/*"])).toBe(false);
    expect(isAllowedMethod("acme/reindex", ["acme/re"])).toBe(false);
  });
});
