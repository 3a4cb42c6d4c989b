import { describe, expect, it } from "vitest";
import { formatGoTime, normalizeGoTime, parseGoTime } from "./go-time.ts";

describe("formatGoTime", () => {
  it("writes UTC with nanoseconds and trailing zeros trimmed", () => {
    const at = parseGoTime("2026-08-21T09:14:05.00311728Z")!.epochNanos;
    expect(formatGoTime(at)).toBe("2026-08-21T09:14:05.00311728Z");
    expect(formatGoTime(at + 2n)).toBe("2026-08-21T09:14:05.003117282Z");
  });

  it("writes whole seconds with no fraction", () => {
    expect(formatGoTime({ ms: Date.UTC(2026, 7, 21, 9, 14, 5) })).toBe("2026-08-21T09:14:05Z");
    expect(formatGoTime(0n)).toBe("1970-01-01T00:00:00Z");
  });

  it("takes milliseconds, their fraction and extra nanoseconds", () => {
    const ms = Date.UTC(2026, 7, 21, 9, 14, 5, 3);
    expect(formatGoTime({ ms })).toBe("2026-08-21T09:14:05.003Z");
    expect(formatGoTime({ ms, nanos: 117_280 })).toBe("2026-08-21T09:14:05.00311728Z");
    expect(formatGoTime({ ms: ms + 0.5 })).toBe("2026-08-21T09:14:05.0035Z");
  });

  it("handles times before 1970 and leap days", () => {
    expect(formatGoTime(-1n)).toBe("1969-12-31T23:59:59.999999999Z");
    expect(formatGoTime({ ms: Date.UTC(2024, 1, 29, 23, 59, 59) })).toBe("2024-02-29T23:59:59Z");
  });

  it("refuses what Go cannot marshal", () => {
    expect(() => formatGoTime({ ms: Number.NaN })).toThrow(RangeError);
    expect(() => formatGoTime({ ms: Date.UTC(10000, 0, 1) })).toThrow(/year 10000/);
  });
});

describe("parseGoTime", () => {
  it("keeps every nanosecond, which a Date cannot", () => {
    const a = parseGoTime("2026-08-21T09:14:05.514877102Z")!;
    const b = parseGoTime("2026-08-21T09:14:05.514877103Z")!;
    expect(b.epochNanos - a.epochNanos).toBe(1n);
    expect(a.epochNanos / 1_000_000n).toBe(BigInt(Date.UTC(2026, 7, 21, 9, 14, 5, 514)));
  });

  it("reads offsets and keeps them for re-writing", () => {
    const t = parseGoTime("2026-08-21T11:14:05+02:00")!;
    expect(t.offsetSeconds).toBe(7200);
    expect(formatGoTime(t.epochNanos)).toBe("2026-08-21T09:14:05Z");
    expect(normalizeGoTime("2026-08-21T11:14:05.500-05:30")).toBe("2026-08-21T11:14:05.5-05:30");
  });

  it("reads a JavaScript toISOString time, which peers accept", () => {
    expect(normalizeGoTime(new Date(Date.UTC(2026, 7, 21, 9, 14, 5, 120)).toISOString())).toBe("2026-08-21T09:14:05.12Z");
  });

  it.each([
    "2026-08-21 09:14:05Z",
    "2026-08-21t09:14:05Z",
    "2026-08-21T09:14:05z",
    "2026-08-21T09:14:05",
    "2026-02-30T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-08-21T24:00:00Z",
    "2026-08-21T09:60:00Z",
    "2026-08-21T09:14:05.Z",
    "2026-08-21T09:14:05+24:00",
    "26-08-21T09:14:05Z",
    "",
  ])("refuses %j as Go's decoder does", (text) => {
    expect(parseGoTime(text)).toBeNull();
  });
});
