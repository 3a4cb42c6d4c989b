import { describe, expect, it } from "vitest";
import { sequentialIds } from "../../env/defaults.ts";
import { McpTaskStore } from "./task-store.ts";

function store(options: { maxFinished?: number; maxLive?: number; ttlMs?: number } = {}) {
  const clock = { now: 1_000_000 };
  const ids = sequentialIds("t");
  const tasks = new McpTaskStore({ now: () => clock.now, newId: () => ids.next(), ...options });
  return { tasks, clock };
}

const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const done = { content: [{ type: "text" as const, text: "ok" }] };

describe("McpTaskStore", () => {
  it("keeps every live task and only the last finished ones, forgetting the one finished longest ago", async () => {
    const { tasks } = store({ maxFinished: 2 });
    const made = [0, 1, 2, 3, 4].map(() => tasks.create("o", "tool")!);
    for (const i of [3, 0, 1]) made[i]!.settle("completed", { result: done });
    await settled();
    expect(made.map((t) => tasks.get(t.id, "o") !== undefined)).toEqual([true, true, true, false, true]);
    expect(tasks.size).toBe(4);
    expect(tasks.live).toBe(2);
  });

  it("refuses a new task once the live ones reach the bound", async () => {
    const { tasks } = store({ maxLive: 2 });
    const first = tasks.create("o", "tool")!;
    tasks.create("o", "tool");
    expect(tasks.create("o", "tool")).toBeUndefined();
    first.settle("cancelled");
    await settled();
    expect(tasks.create("o", "tool")).toBeDefined();
  });

  it("forgets a finished task once its time to live has passed, never a live one", async () => {
    const { tasks, clock } = store({ ttlMs: 1_000 });
    const finished = tasks.create("o", "tool")!;
    const running = tasks.create("o", "tool")!;
    finished.settle("completed", { result: done });
    await settled();
    clock.now += 999;
    expect(tasks.get(finished.id, "o")).toBe(finished);
    clock.now += 2;
    expect(tasks.get(finished.id, "o")).toBeUndefined();
    expect(tasks.get(running.id, "o")).toBe(running);
  });

  it("shows each owner only its own tasks, listed in creation order a page at a time", async () => {
    const { tasks } = store();
    const mine = Array.from({ length: 60 }, () => tasks.create("me", "tool")!);
    const theirs = tasks.create("them", "tool")!;
    expect(tasks.get(theirs.id, "me")).toBeUndefined();
    const first = tasks.list("me")!;
    expect(first.tasks.map((t) => t.id)).toEqual(mine.slice(0, 50).map((t) => t.id));
    const second = tasks.list("me", first.nextCursor)!;
    expect(second.tasks.map((t) => t.id)).toEqual(mine.slice(50).map((t) => t.id));
    expect(second.nextCursor).toBeUndefined();
    expect(tasks.list("me", "not a cursor")).toBeUndefined();
    expect(tasks.list("them")!.tasks).toEqual([theirs]);
  });

  it("waits in input_required until every question is answered, taking answers a few at a time and ignoring strangers", async () => {
    const { tasks } = store();
    const task = tasks.create("o", "tool")!;
    const asked = task.ask({ a: { method: "roots/list", params: {} }, b: { method: "roots/list", params: {} } });
    expect(task.status).toBe("input_required");
    expect(task.answer({ zzz: {} })).toBe(false);
    expect(task.answer({ a: { roots: [] } })).toBe(true);
    expect([task.status, [...task.pending.keys()]]).toEqual(["input_required", ["b"]]);
    task.answer({ b: { roots: [1] } });
    expect(task.status).toBe("working");
    expect(await asked).toEqual({ a: { roots: [] }, b: { roots: [1] } });
  });

  it("cancels the tasks of one owner, or all; a cancelled question rejects; the first ending stays", async () => {
    const { tasks } = store();
    const mine = tasks.create("me", "tool")!;
    const theirs = tasks.create("them", "tool")!;
    const asked = mine.ask({ q: { method: "roots/list", params: {} } });
    tasks.cancelOwned("me");
    await expect(asked).rejects.toThrow(/cancelled while it waited for input/);
    expect([mine.status, mine.controller.signal.aborted, theirs.status]).toEqual(["cancelled", true, "working"]);
    expect(mine.settle("completed", { result: done })).toBe(false);
    expect(mine.result).toBeUndefined();
    tasks.cancelAll();
    expect(theirs.status).toBe("cancelled");
  });
});
