import { describe, expect, it } from "vitest";
import { formatBytes, formatClockTime, formatCount, formatMs, formatRtt, formatWallTime } from "./format.ts";

describe("format", () => {
  it("groups counts", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(100_000)).toBe("100,000");
    expect(formatCount(1_234_567)).toBe("1,234,567");
  });

  it("formats bytes in binary units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MiB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GiB");
    expect(formatBytes(2048 * 1024 ** 3)).toBe("2048.0 GiB");
  });

  it("formats milliseconds at 0.1 ms resolution", () => {
    expect(formatMs(0)).toBe("0.0");
    expect(formatMs(0.04)).toBe("0.0");
    expect(formatMs(0.05)).toBe("0.1");
    expect(formatMs(-0.01)).toBe("0.0");
    expect(formatMs(12_345.67)).toBe("12,345.7");
  });

  it("formats an optional round-trip time", () => {
    expect(formatRtt(undefined)).toBe("");
    expect(formatRtt(3.24)).toBe("3.2 ms");
  });

  it("formats wall time as UTC ISO", () => {
    expect(formatWallTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6))).toBe("2025-01-02T03:04:05.006Z");
    expect(formatWallTime(Number.NaN)).toBe("invalid time");
  });

  it("formats wall time as the local clock reads it, to the millisecond", () => {
    expect(formatClockTime(new Date(2025, 0, 2, 3, 4, 5, 6).getTime())).toBe("03:04:05.006");
    expect(formatClockTime(new Date(2025, 0, 2, 23, 59, 59, 999).getTime())).toBe("23:59:59.999");
    expect(formatClockTime(Number.NaN)).toBe("invalid time");
  });
});
