import { describe, expect, it } from "vitest";
import { DETAIL_SHARE_MAX, DETAIL_SHARE_MIN, shareAfterDrag, shareAfterKey } from "./detail-split.ts";

describe("detail split", () => {
  it("moves with the pointer, within bounds", () => {
    expect(shareAfterDrag(40, -100, 1000)).toBe(50);
    expect(shareAfterDrag(40, 50, 1000)).toBe(35);
    expect(shareAfterDrag(40, -2000, 1000)).toBe(DETAIL_SHARE_MAX);
    expect(shareAfterDrag(40, 2000, 1000)).toBe(DETAIL_SHARE_MIN);
    expect(shareAfterDrag(40, 10, 0)).toBe(40);
  });

  it("steps with the arrow keys and jumps with Home and End", () => {
    expect(shareAfterKey("ArrowUp", 40)).toBe(45);
    expect(shareAfterKey("ArrowDown", 22)).toBe(DETAIL_SHARE_MIN);
    expect(shareAfterKey("Home", 40)).toBe(DETAIL_SHARE_MIN);
    expect(shareAfterKey("End", 40)).toBe(DETAIL_SHARE_MAX);
    expect(shareAfterKey("a", 40)).toBeNull();
  });
});
