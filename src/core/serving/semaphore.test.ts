import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.ts";

describe("Semaphore", () => {
  it("refuses at once when full under tryAcquire, and a slot is reusable after release", () => {
    const s = new Semaphore(2);
    const a = s.tryAcquire();
    const b = s.tryAcquire();
    expect(typeof a).toBe("function");
    expect(typeof b).toBe("function");
    expect(s.tryAcquire()).toBeUndefined();
    a?.();
    a?.();
    expect(s.active).toBe(1);
    expect(s.tryAcquire()).toBeDefined();
  });

  it("queues waiters in order; an aborted waiter leaves the queue", async () => {
    const s = new Semaphore(1);
    const first = await s.acquire();
    const order: string[] = [];
    const abort = new AbortController();
    const dropped = s.acquire(abort.signal).then(() => order.push("dropped"), (e: Error) => order.push(e.message));
    const second = s.acquire().then((release) => (order.push("second"), release));
    abort.abort();
    await dropped;
    expect(s.waiting).toBe(1);
    first();
    (await second)();
    expect(order).toEqual(["cancelled while waiting for a free slot", "second"]);
    expect(s.active).toBe(0);
  });

  it("refuses a nonsense limit", () => {
    expect(() => new Semaphore(0)).toThrow("at least 1, not 0");
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });
});
