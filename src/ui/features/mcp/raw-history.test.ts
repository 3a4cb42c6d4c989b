import { describe, expect, it } from "vitest";
import { recallKey, RawHistory } from "./raw-history.ts";

const key = (name: string, mods: Partial<Record<"altKey" | "ctrlKey" | "metaKey" | "shiftKey", boolean>> = {}) => ({
  key: name,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe("RawHistory", () => {
  it("walks back and forth like a shell, keeping the draft past the newest", () => {
    const h = new RawHistory();
    h.push("a");
    h.push("b");
    h.push("b");
    expect(h.entries()).toEqual(["a", "b"]);
    expect(h.newer()).toBeUndefined();
    expect(h.older("typing")).toBe("b");
    expect(h.older("b")).toBe("a");
    expect(h.older("a")).toBeUndefined();
    expect(h.newer()).toBe("b");
    expect(h.newer()).toBe("typing");
    expect(h.newer()).toBeUndefined();
  });

  it("restarts the walk from the newest after a send", () => {
    const h = new RawHistory();
    h.push("a");
    h.push("b");
    h.older("");
    h.older("");
    h.push("a");
    expect(h.older("")).toBe("a");
    expect(h.older("")).toBe("b");
  });

  it("is bounded by count and by total size, dropping the oldest", () => {
    const byCount = new RawHistory(3, 1000);
    for (const t of ["1", "2", "3", "4"]) byCount.push(t);
    expect(byCount.entries()).toEqual(["2", "3", "4"]);
    const bySize = new RawHistory(10, 10);
    for (const t of ["aaaa", "bbbb", "cccc"]) bySize.push(t);
    expect(bySize.entries()).toEqual(["bbbb", "cccc"]);
    bySize.push("x".repeat(11));
    expect(bySize.entries()).toEqual(["bbbb", "cccc"]);
  });
});

describe("recallKey", () => {
  it("walks on Up from the first line and Down from the last, only without a selection or modifier", () => {
    const text = "line one\nline two";
    expect(recallKey(key("ArrowUp"), text, 3, 3)).toBe("older");
    expect(recallKey(key("ArrowUp"), text, 12, 12)).toBeNull();
    expect(recallKey(key("ArrowDown"), text, 12, 12)).toBe("newer");
    expect(recallKey(key("ArrowDown"), text, 3, 3)).toBeNull();
    expect(recallKey(key("ArrowUp"), "\nsecond", 0, 0)).toBe("older");
    expect(recallKey(key("ArrowUp"), text, 0, 4)).toBeNull();
    expect(recallKey(key("ArrowUp", { shiftKey: true }), text, 0, 0)).toBeNull();
    expect(recallKey(key("Enter"), text, 0, 0)).toBeNull();
  });
});
