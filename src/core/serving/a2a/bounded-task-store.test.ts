import { TaskState, type ListTasksRequest, type Task } from "@a2a-js/sdk";
import { ServerCallContext, UnauthenticatedUser } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { BoundedTaskStore, copyTask, DEFAULT_MAX_FINISHED_TASKS } from "./bounded-task-store.ts";

const ctx = new ServerCallContext({ user: new UnauthenticatedUser() });
const { TASK_STATE_WORKING: WORKING, TASK_STATE_COMPLETED: COMPLETED, TASK_STATE_FAILED: FAILED, TASK_STATE_CANCELED: CANCELED, TASK_STATE_REJECTED: REJECTED } = TaskState;

let clock = 0;
/** Each task's status a millisecond after the last one's, unless a timestamp is given. */
function task(id: string, state: TaskState, timestamp = new Date(Date.UTC(2026, 0, 1) + ++clock).toISOString()): Task {
  return { id, contextId: "c", status: { state, message: undefined, timestamp }, artifacts: [{ artifactId: "a", name: "result", description: "", parts: [], metadata: undefined, extensions: [] }], history: [], metadata: undefined };
}

const has = async (store: BoundedTaskStore, id: string) => (await store.load(id, ctx)) !== undefined;
const held = async (store: BoundedTaskStore, ids: readonly string[]) => Promise.all(ids.map((id) => has(store, id)));
const listing = (extra: Partial<ListTasksRequest> = {}): ListTasksRequest => ({ tenant: "", contextId: "", status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: "", statusTimestampAfter: undefined, ...extra });

describe("BoundedTaskStore keeps live tasks and the most recently finished", () => {
  it("forgets the task that finished longest ago first, not the one created first", async () => {
    const store = new BoundedTaskStore({ maxFinished: 2 });
    for (const id of ["a", "b", "c"]) await store.save(task(id, WORKING), ctx);
    await store.save(task("b", COMPLETED), ctx);
    await store.save(task("c", FAILED), ctx);
    await store.save(task("a", CANCELED), ctx);
    expect(await held(store, ["a", "b", "c"])).toEqual([true, false, true]);
    await store.save(task("d", REJECTED), ctx);
    expect(await held(store, ["a", "b", "c", "d"])).toEqual([true, false, false, true]);
    expect(store.size).toBe(2);
    expect(store.wasForgotten("b", ctx)).toBe(true);
    expect(store.wasForgotten("a", ctx)).toBe(false);
    expect(store.wasForgotten("never", ctx)).toBe(false);
  });

  it("never forgets a live task, however many there are", async () => {
    const store = new BoundedTaskStore({ maxFinished: 1 });
    const live = [TaskState.TASK_STATE_SUBMITTED, WORKING, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED];
    for (let i = 0; i < 20; i++) await store.save(task(`live-${i}`, live[i % live.length] as TaskState), ctx);
    for (let i = 0; i < 5; i++) await store.save(task(`done-${i}`, COMPLETED), ctx);
    expect(store.size).toBe(21);
    expect(store.live).toBe(20);
    expect(await held(store, ["live-0", "live-19", "done-3", "done-4"])).toEqual([true, true, false, true]);
  });

  it("saving a finished task again neither counts it twice nor moves it to the back", async () => {
    const store = new BoundedTaskStore({ maxFinished: 2 });
    await store.save(task("a", COMPLETED), ctx);
    await store.save(task("b", COMPLETED), ctx);
    await store.save(task("a", COMPLETED), ctx);
    await store.save(task("a", COMPLETED), ctx);
    expect(store.size).toBe(2);
    expect(store.live).toBe(0);
    await store.save(task("c", COMPLETED), ctx);
    expect(await held(store, ["a", "b", "c"])).toEqual([false, true, true]);
  });

  it("a forgotten task saved again is held again", async () => {
    const store = new BoundedTaskStore({ maxFinished: 1 });
    await store.save(task("a", COMPLETED), ctx);
    await store.save(task("b", COMPLETED), ctx);
    expect(store.wasForgotten("a", ctx)).toBe(true);
    await store.save(task("a", WORKING), ctx);
    expect(store.wasForgotten("a", ctx)).toBe(false);
    expect(await held(store, ["a", "b"])).toEqual([true, true]);
    expect(store.live).toBe(1);
  });

  it("hands out copies, so a caller changing a task does not change what is stored", async () => {
    const store = new BoundedTaskStore();
    const original = task("a", WORKING);
    await store.save(original, ctx);
    original.history.push({ messageId: "m", contextId: "c", taskId: "a", role: 1, parts: [], metadata: undefined, extensions: [], referenceTaskIds: [] });
    const loaded = await store.load("a", ctx);
    expect(loaded?.history).toEqual([]);
    loaded?.artifacts.splice(0);
    expect((await store.load("a", ctx))?.artifacts).toHaveLength(1);
  });

  it("copies members left undefined, bytes, dates and deep nesting as structuredClone would", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const value = { a: undefined, list: [1, { b: "x" }], bytes, when: new Date(0), deep };
    const copy = copyTask(value);
    expect(copy).toEqual(structuredClone(value));
    expect(Object.keys(copy)).toEqual(["a", "list", "bytes", "when", "deep"]);
    expect(copy.bytes).not.toBe(bytes);
    bytes[0] = 9;
    expect(copy.bytes[0]).toBe(1);
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.list[1]).not.toBe(value.list[1]);
  });

  it("copies a __proto__ member as a member, leaving the copy's prototype alone", () => {
    const value = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"x":1}}') as { metadata: Record<string, unknown> };
    const copy = copyTask(value);
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect(Object.keys(copy.metadata)).toEqual(["__proto__", "x"]);
    expect((copy.metadata as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it("keeps each tenant's tasks apart", async () => {
    const store = new BoundedTaskStore();
    const other = new ServerCallContext({ user: new UnauthenticatedUser(), tenant: "t2" });
    await store.save(task("a", WORKING), other);
    expect(await store.load("a", ctx)).toBeUndefined();
    expect((await store.load("a", other))?.id).toBe("a");
    expect((await store.list(listing(), ctx)).totalSize).toBe(0);
  });

  it("defaults to 1,000 finished tasks and refuses a bound below 1", () => {
    expect(new BoundedTaskStore().maxFinished).toBe(DEFAULT_MAX_FINISHED_TASKS);
    expect(DEFAULT_MAX_FINISHED_TASKS).toBe(1000);
    expect(() => new BoundedTaskStore({ maxFinished: 0 })).toThrow("maxFinishedTasks must be a whole number of at least 1, not 0.");
    expect(() => new BoundedTaskStore({ maxFinished: 1.5 })).toThrow(RangeError);
  });
});

describe("BoundedTaskStore lists tasks in pages", () => {
  it("pages newest status first, ties by id, and every task appears once", async () => {
    const store = new BoundedTaskStore();
    const same = "2026-02-01T00:00:00.000Z";
    for (const id of ["t1", "t3", "t2"]) await store.save(task(id, COMPLETED, same), ctx);
    await store.save(task("newer", WORKING, "2026-02-02T00:00:00.000Z"), ctx);
    await store.save(task("older", WORKING, "2026-01-31T00:00:00.000Z"), ctx);
    const seen: string[] = [];
    let pageToken = "";
    const sizes: number[] = [];
    do {
      const page = await store.list(listing({ pageSize: 2, pageToken }), ctx);
      expect(page.totalSize).toBe(5);
      sizes.push(page.tasks.length);
      seen.push(...page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(seen).toEqual(["newer", "t3", "t2", "t1", "older"]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("goes on from where the last page ended even when that task has changed since", async () => {
    const store = new BoundedTaskStore();
    for (const id of ["c", "b"]) await store.save(task(id, COMPLETED), ctx);
    await store.save(task("a", WORKING), ctx);
    const first = await store.list(listing({ pageSize: 1 }), ctx);
    expect(first.tasks.map((t) => t.id)).toEqual(["a"]);
    await store.save(task("a", COMPLETED), ctx);
    const second = await store.list(listing({ pageSize: 5, pageToken: first.nextPageToken }), ctx);
    expect(second.tasks.map((t) => t.id)).toEqual(["b", "c"]);
    expect(second.nextPageToken).toBe("");
  });

  it("filters by context, state and status time, and leaves artifacts out unless asked", async () => {
    const store = new BoundedTaskStore();
    await store.save({ ...task("x", COMPLETED, "2026-03-01T00:00:00.000Z"), contextId: "other" }, ctx);
    await store.save(task("y", COMPLETED, "2026-03-02T00:00:00.000Z"), ctx);
    await store.save(task("z", WORKING, "2026-03-03T00:00:00.000Z"), ctx);
    const ids = async (extra: Partial<ListTasksRequest>) => (await store.list(listing(extra), ctx)).tasks.map((t) => t.id);
    expect(await ids({ contextId: "other" })).toEqual(["x"]);
    expect(await ids({ status: COMPLETED })).toEqual(["y", "x"]);
    expect(await ids({ statusTimestampAfter: "2026-03-02T00:00:00.000Z" })).toEqual(["z", "y"]);
    expect((await store.list(listing(), ctx)).tasks[0]?.artifacts).toEqual([]);
    expect((await store.list(listing({ includeArtifacts: true }), ctx)).tasks[0]?.artifacts).toHaveLength(1);
  });

  it("refuses a page token it did not give out", async () => {
    const store = new BoundedTaskStore();
    await expect(store.list(listing({ pageToken: "not base64!" }), ctx)).rejects.toThrow("pageToken is not one this agent gave out");
    await expect(store.list(listing({ pageToken: "e30=" }), ctx)).rejects.toThrow("pageToken is not one this agent gave out");
  });
});
