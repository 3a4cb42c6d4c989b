import { describe, expect, it } from "vitest";
import { ManualScheduler, systemScheduler } from "./scheduler.ts";

describe("ManualScheduler", () => {
  it("runs calls when time passes their due time, earliest first, and not before", () => {
    const s = new ManualScheduler();
    const ran: string[] = [];
    s.after(20, () => ran.push("b"));
    s.after(10, () => ran.push("a"));
    s.advance(9);
    expect(ran).toEqual([]);
    s.advance(11);
    expect(ran).toEqual(["a", "b"]);
    expect(s.pending).toBe(0);
  });

  it("cancels a call, and runs calls scheduled by other calls when they fall due", () => {
    const s = new ManualScheduler();
    const ran: string[] = [];
    const cancel = s.after(5, () => ran.push("never"));
    s.after(5, () => s.after(5, () => ran.push("chained")));
    cancel();
    s.advance(10);
    expect(ran).toEqual(["chained"]);
  });
});

describe("systemScheduler", () => {
  it("runs after the delay and can be cancelled", async () => {
    const s = systemScheduler();
    let ran = 0;
    s.after(1, () => ran++);
    const cancel = s.after(1, () => ran++);
    cancel();
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(1);
  });
});
