import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../../../core/env/index.ts";
import { repeat } from "./poller.ts";
import { settle } from "./serve-fakes.ts";

describe("repeat", () => {
  it("runs now, then after each run finishes, and stops for good", async () => {
    const scheduler = new ManualScheduler();
    let runs = 0;
    const stop = repeat(scheduler, 1000, async () => void runs++);
    await settle();
    expect(runs).toBe(1);
    scheduler.advance(999);
    await settle();
    expect(runs).toBe(1);
    scheduler.advance(1);
    await settle();
    expect(runs).toBe(2);
    stop();
    scheduler.advance(5000);
    await settle();
    expect(runs).toBe(2);
    expect(scheduler.pending).toBe(0);
  });

  it("keeps going after a failed run", async () => {
    const scheduler = new ManualScheduler();
    let runs = 0;
    const stop = repeat(scheduler, 10, async () => {
      runs++;
      throw new Error("boom");
    });
    await settle();
    scheduler.advance(10);
    await settle();
    expect(runs).toBe(2);
    stop();
  });
});
