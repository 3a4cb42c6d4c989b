import { describe, expect, it } from "vitest";
import { nextRow, pageRows, revealScrollTop, visibleWindow, type WindowQuery } from "./virtual-window.ts";

const base: WindowQuery = { scrollTop: 0, viewportHeight: 240, rowHeight: 24, count: 100_000, overscan: 5 };

describe("visibleWindow", () => {
  it("renders the viewport plus overscan below at the top", () => {
    expect(visibleWindow(base)).toEqual({ start: 0, end: 15, offset: 0, height: 2_400_000 });
  });

  it("renders overscan on both sides in the middle, with a partially visible row", () => {
    const w = visibleWindow({ ...base, scrollTop: 24 * 1000 + 12 });
    // rows 1000..1010 are (partly) visible
    expect(w).toMatchObject({ start: 995, end: 1016, offset: 995 * 24 });
  });

  it("ends exactly at the last row", () => {
    const w = visibleWindow({ ...base, scrollTop: 2_400_000 - 240 });
    expect(w.end).toBe(100_000);
    expect(w.start).toBe(100_000 - 10 - 5);
    expect(w.offset + (w.end - w.start) * 24).toBe(w.height);
  });

  it("clamps scroll positions outside the content", () => {
    expect(visibleWindow({ ...base, scrollTop: -50 }).start).toBe(0);
    expect(visibleWindow({ ...base, scrollTop: 9e9 }).end).toBe(100_000);
  });

  it("handles empty lists, short lists and a zero-height viewport", () => {
    expect(visibleWindow({ ...base, count: 0 })).toEqual({ start: 0, end: 0, offset: 0, height: 0 });
    expect(visibleWindow({ ...base, count: 3 })).toEqual({ start: 0, end: 3, offset: 0, height: 72 });
    expect(visibleWindow({ ...base, viewportHeight: 0, overscan: 0 })).toMatchObject({ start: 0, end: 1 });
  });

  it("keeps the rendered row count independent of the list length", () => {
    for (const count of [1_000, 100_000, 10_000_000]) {
      const w = visibleWindow({ ...base, count, scrollTop: 5_000 });
      expect(w.end - w.start).toBeLessThanOrEqual(10 + 1 + 2 * 5);
    }
  });

  it("compresses lists taller than maxHeight and still reaches both ends", () => {
    const q = { ...base, count: 10_000_000, maxHeight: 1_000_000 };
    const top = visibleWindow(q);
    expect(top.height).toBe(1_000_000);
    expect(top.start).toBe(0);
    const bottom = visibleWindow({ ...q, scrollTop: 1_000_000 - 240 });
    expect(bottom.end).toBe(10_000_000);
    // the last row's bottom edge lines up with the spacer's bottom edge
    expect(bottom.offset + (bottom.end - bottom.start) * 24).toBeCloseTo(1_000_000, 6);
    const middle = visibleWindow({ ...q, scrollTop: (1_000_000 - 240) / 2 });
    expect(middle.start).toBeGreaterThan(4_990_000);
    expect(middle.end).toBeLessThan(5_010_000);
  });
});

describe("revealScrollTop", () => {
  it("leaves the scroll alone when the row is already fully visible", () => {
    expect(revealScrollTop(3, { ...base, scrollTop: 24 })).toBe(24);
  });

  it("scrolls up to align a row above to the top", () => {
    expect(revealScrollTop(10, { ...base, scrollTop: 1000 })).toBe(240);
  });

  it("scrolls down to align a row below to the bottom", () => {
    expect(revealScrollTop(20, base)).toBe(21 * 24 - 240);
    expect(revealScrollTop(99_999, base)).toBe(2_400_000 - 240);
  });

  it("makes the row visible in a compressed list", () => {
    const q = { ...base, count: 10_000_000, maxHeight: 1_000_000 };
    for (const index of [0, 1234, 5_000_000, 9_999_999]) {
      const scrollTop = revealScrollTop(index, q);
      const w = visibleWindow({ ...q, scrollTop, overscan: 0 });
      expect(index).toBeGreaterThanOrEqual(w.start);
      expect(index).toBeLessThan(w.end);
      const rowTop = w.offset + (index - w.start) * 24;
      expect(rowTop).toBeGreaterThanOrEqual(scrollTop - 1e-6);
      expect(rowTop + 24).toBeLessThanOrEqual(scrollTop + 240 + 1e-6);
    }
  });
});

describe("nextRow", () => {
  it("moves by one, by a page, and to either end, clamped", () => {
    expect(nextRow("ArrowDown", 4, 10, 3)).toBe(5);
    expect(nextRow("ArrowDown", 9, 10, 3)).toBe(9);
    expect(nextRow("ArrowUp", 0, 10, 3)).toBe(0);
    expect(nextRow("PageDown", 8, 10, 3)).toBe(9);
    expect(nextRow("PageUp", 2, 10, 3)).toBe(0);
    expect(nextRow("PageUp", 7, 10, 3)).toBe(4);
    expect(nextRow("Home", 7, 10, 3)).toBe(0);
    expect(nextRow("End", 0, 10, 3)).toBe(9);
  });

  it("starts at the first row when nothing is selected", () => {
    expect(nextRow("ArrowDown", -1, 10, 3)).toBe(0);
    expect(nextRow("ArrowUp", -1, 10, 3)).toBe(0);
    expect(nextRow("PageDown", -1, 10, 3)).toBe(3);
  });

  it("recovers from a selection past the end and ignores other keys and empty lists", () => {
    expect(nextRow("ArrowUp", 50, 10, 3)).toBe(8);
    expect(nextRow("a", 1, 10, 3)).toBeNull();
    expect(nextRow("End", -1, 0, 3)).toBeNull();
  });

  it("pages by one viewport less a row", () => {
    expect(pageRows(240, 24)).toBe(9);
    expect(pageRows(10, 24)).toBe(1);
  });
});
