import { describe, expect, it } from "vitest";
import { PendingQueue } from "./pending-queue.svelte.ts";

describe("PendingQueue", () => {
  it("shows one request at a time, counts those waiting, and settles them in arrival order", async () => {
    const shown: (string | null)[] = [];
    const queue = new PendingQueue<string, number>((next) => shown.push(next));
    const a = queue.add("a");
    const b = queue.add("b");
    const c = queue.add("c");
    expect(queue.current).toBe("a");
    expect(queue.waiting).toBe(2);
    queue.answer(1);
    await expect(a).resolves.toBe(1);
    expect(queue.current).toBe("b");
    expect(queue.waiting).toBe(1);
    queue.refuse(new Error("no"));
    await expect(b).rejects.toThrow("no");
    queue.clear({ error: new Error("gone") });
    await expect(c).rejects.toThrow("gone");
    expect(queue.current).toBeNull();
    expect(queue.waiting).toBe(0);
    expect(shown).toEqual(["a", "b", "c", null]);
  });

  it("ignores answers when nothing waits", () => {
    const queue = new PendingQueue<string, number>();
    queue.answer(1);
    queue.refuse(new Error("x"));
    expect(queue.current).toBeNull();
  });
});
