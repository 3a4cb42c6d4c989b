import { describe, expect, it } from "vitest";
import { manualClock, randomIds, sequentialIds, sinkLogger, systemClock } from "./defaults.ts";

describe("environment defaults", () => {
  it("systemClock reads the injected sources", () => {
    const clock = systemClock({ now: () => 12.5 }, { now: () => 99 });
    expect(clock.now()).toBe(12.5);
    expect(clock.wallNow()).toBe(99);
  });

  it("randomIds makes 32 hex characters from 16 random bytes", () => {
    let call = 0;
    const ids = randomIds((b) => {
      call++;
      b.fill(call);
      return b;
    });
    expect(ids.next()).toBe("01".repeat(16));
    expect(ids.next()).toBe("02".repeat(16));
  });

  it("randomIds with real randomness does not repeat", () => {
    const ids = randomIds((b) => crypto.getRandomValues(b));
    const seen = new Set(Array.from({ length: 1000 }, () => ids.next()));
    expect(seen.size).toBe(1000);
  });

  it("manualClock moves only when advanced", () => {
    const c = manualClock(10, 1000);
    expect(c.now()).toBe(10);
    c.advance(5);
    expect([c.now(), c.wallNow()]).toEqual([15, 1005]);
  });

  it("sequentialIds counts from 1", () => {
    const ids = sequentialIds("x");
    expect([ids.next(), ids.next()]).toEqual(["x-1", "x-2"]);
  });

  it("sinkLogger forwards level, message and fields", () => {
    const lines: unknown[] = [];
    const log = sinkLogger((level, message, fields) => lines.push([level, message, fields]));
    log.warn("w", { a: 1 });
    log.error("e");
    expect(lines).toEqual([
      ["warn", "w", { a: 1 }],
      ["error", "e", undefined],
    ]);
  });
});
