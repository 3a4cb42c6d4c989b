import { describe, expect, it } from "vitest";
import { pushFrame, pushIsNewer, readPushNotification } from "./push-notification.ts";
import type { TaskRecord } from "./task-fold.ts";

const record = (state: TaskRecord["state"], artifacts: string[] = []): TaskRecord => ({
  taskId: "t1",
  steps: state ? [{ state, raw: state, at: 0 }] : [],
  artifacts: artifacts.map((artifactId) => ({ artifactId, parts: [], chunks: 1, complete: true })),
  ...(state ? { state } : {}),
});
const read = (value: unknown, dialect: "1.0" | "0.3" | "0.2" = "1.0") => {
  const r = readPushNotification(JSON.stringify(value), dialect);
  if (!r.ok) throw new Error(r.problem);
  return r;
};
const on = { arrivedAt: 100, lastStepAt: 50 };

describe("readPushNotification", () => {
  it("reads v1.0 StreamResponses, v0.3 Tasks and events, and names the task", () => {
    expect(read({ statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } })).toMatchObject({ taskId: "t1", event: { kind: "status", state: { state: "working" } } });
    expect(read({ task: { id: "t1", status: { state: "TASK_STATE_COMPLETED" } } })).toMatchObject({ taskId: "t1", event: { kind: "task", state: { state: "completed" } } });
    expect(read({ kind: "task", id: "t2", contextId: "c", status: { state: "completed" } }, "0.3")).toMatchObject({ taskId: "t2", event: { kind: "task", contextId: "c" } });
    expect(read({ kind: "artifact-update", taskId: "t1", artifact: { artifactId: "a", parts: [] } }, "0.3")).toMatchObject({ taskId: "t1", event: { kind: "artifact" } });
    expect(read({ id: "t3", status: { state: "working" } }, "0.2")).toMatchObject({ taskId: "t3", event: { kind: "task" } });
  });

  it("unwraps a JSON-RPC envelope with a note, and names what is not JSON or not a task", () => {
    const wrapped = read({ jsonrpc: "2.0", id: 1, result: { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } } });
    expect(wrapped.event.kind).toBe("status");
    expect(wrapped.notes[0]).toMatch(/JSON-RPC envelope/);
    expect(readPushNotification("nope", "1.0")).toEqual({ ok: false, problem: expect.stringMatching(/^not JSON: /) });
    const other = read({ hello: 1 });
    expect(other.event.kind).toBe("other");
    expect(other.taskId).toBeUndefined();
  });
});

describe("pushIsNewer", () => {
  const status = (state: string) => read({ statusUpdate: { taskId: "t1", status: { state } } }).event;
  const artifact = (artifactId: string, append = false) => read({ artifactUpdate: { taskId: "t1", artifact: { artifactId, parts: [] }, append } }).event;

  it("takes a different state that arrived after the shown one", () => {
    expect(pushIsNewer(record(undefined), status("TASK_STATE_WORKING"), { arrivedAt: 0, lastStepAt: undefined })).toBe(true);
    expect(pushIsNewer(record("working"), status("TASK_STATE_COMPLETED"), on)).toBe(true);
    expect(pushIsNewer(record("working"), status("TASK_STATE_COMPLETED"), { arrivedAt: 40, lastStepAt: 50 })).toBe(false);
  });

  it("leaves the same state, a return to submitted and anything after a terminal state", () => {
    expect(pushIsNewer(record("working"), status("TASK_STATE_WORKING"), on)).toBe(false);
    expect(pushIsNewer(record("working"), status("TASK_STATE_SUBMITTED"), on)).toBe(false);
    expect(pushIsNewer(record("completed"), status("TASK_STATE_WORKING"), on)).toBe(false);
    expect(pushIsNewer(record("working"), read({ statusUpdate: { taskId: "t1" } }).event, on)).toBe(false);
  });

  it("takes an artifact the task lacks, but no appended chunk", () => {
    expect(pushIsNewer(record("working"), artifact("a"), on)).toBe(true);
    expect(pushIsNewer(record("working", ["a"]), artifact("a"), on)).toBe(false);
    expect(pushIsNewer(record("working"), artifact("b", true), on)).toBe(false);
  });
});

describe("pushFrame", () => {
  it("keeps the bytes exactly, on the A2A channel, and withholds credentials", () => {
    const text = '{"statusUpdate": {"taskId":"t1"}}\n';
    const frame = pushFrame({ seq: 3, at: 1, headers: { "content-type": "application/a2a+json", authorization: "Bearer x" }, text }, "http://127.0.0.1:1/hooks/a2a/r", "r", "t1");
    expect(new TextDecoder().decode(frame.bytes)).toBe(text);
    expect(frame).toMatchObject({ channel: "a2a-http", direction: "in", correlationId: "a2a-push-r", note: "push notification #3 for task t1" });
    expect(frame.headers?.authorization?.[0]).not.toContain("x");
    expect(frame.headers?.[":method"]).toEqual(["POST"]);
  });
});
