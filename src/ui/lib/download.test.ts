import { describe, expect, it } from "vitest";
import { fileTimestamp } from "./download.ts";

describe("fileTimestamp", () => {
  it("is UTC ISO with no characters file systems reject", () => {
    const stamp = fileTimestamp(Date.UTC(2025, 0, 2, 3, 4, 5, 678));
    expect(stamp).toBe("2025-01-02T03-04-05-678Z");
    expect(stamp).not.toMatch(/[:/\\. ]/);
  });
});
