import { describe, expect, it } from "vitest";
import { differences, sideBySide } from "./card-diff.ts";

describe("side by side", () => {
  it("lines up common lines and marks changed, removed and added ones", () => {
    const rows = sideBySide("a\nb\nc\nd", "a\nB\nc\nd\ne");
    expect(rows).toEqual([
      { kind: "same", left: "a", right: "a" },
      { kind: "changed", left: "b", right: "B" },
      { kind: "same", left: "c", right: "c" },
      { kind: "same", left: "d", right: "d" },
      { kind: "right", right: "e" },
    ]);
    expect(differences(rows)).toBe(2);
    expect(sideBySide("x\ny", "y")).toEqual([{ kind: "left", left: "x" }, { kind: "same", left: "y", right: "y" }]);
    expect(differences(sideBySide("same", "same"))).toBe(0);
  });
});
