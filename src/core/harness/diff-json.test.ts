import { describe, expect, it } from "vitest";
import { diffJson } from "./diff-json.ts";

describe("diffJson", () => {
  it("finds nothing between equal values, in any key order", () => {
    expect(diffJson({ a: [1, { b: null }], c: "x" }, { c: "x", a: [1, { b: null }] })).toEqual([]);
  });

  it("names additions, removals and changes by pointer, escaping ~ and /", () => {
    const d = diffJson({ "a/b": 1, "t~": [1, 2, 3], keep: { x: 1 } }, { "a/b": "1", "t~": [1, 2], keep: { x: 1, y: true } });
    expect(d.map((c) => c.text)).toEqual([
      'changed at /a~1b: 1 → "1" (an integer → a string)',
      "removed /t~0/2: 3",
      "added /keep/y: true",
    ]);
  });

  it("keeps a member named __proto__ as a member", () => {
    const before = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    const after = JSON.parse('{"__proto__": {"x": 2}}') as unknown;
    expect(diffJson(before, after).map((c) => c.pointer)).toEqual(["/__proto__/x"]);
  });

  it("compares sets by value and keyed lists by identity when a rule says so", () => {
    const rules = { arrayMatch: (t: readonly (string | number)[]) => (t[t.length - 1] === "tags" ? ("set" as const) : t[t.length - 1] === "items" ? (i: unknown) => (i as { id?: string }).id : undefined) };
    const d = diffJson({ tags: ["a", "b"], items: [{ id: "x", v: 1 }, { id: "y", v: 1 }] }, { tags: ["b", "c"], items: [{ id: "y", v: 2 }, { id: "x", v: 1 }] }, rules);
    expect(d.map((c) => [c.kind, c.pointer])).toEqual([
      ["item-removed", "/tags"],
      ["item-added", "/tags"],
      ["changed", "/items/0/v"],
    ]);
  });

  it("bounds depth and count with notes on hostile values", () => {
    let deep: unknown = "a";
    let deeper: unknown = "b";
    for (let i = 0; i < 10_000; i++) {
      deep = [deep];
      deeper = [deeper];
    }
    const d = diffJson(deep, deeper);
    expect(d).toHaveLength(1);
    expect(d[0]!.kind).toBe("note");
    const many = diffJson(Array.from({ length: 2000 }, (_, i) => i), Array.from({ length: 2000 }, (_, i) => -i - 1), { maxChanges: 10 });
    expect(many).toHaveLength(11);
    expect(many[10]!.text).toBe("more changes not listed: only the first 10 are");
  });
});
