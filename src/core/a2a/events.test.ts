import { describe, expect, it } from "vitest";
import { readAnswer } from "./events.ts";
import { TaskFold } from "./task-fold.ts";

const rpc = (result: unknown) => ({ jsonrpc: "2.0", id: 1, result });

describe("readAnswer", () => {
  it("reads a v0.1 task, status event and artifact event by shape", () => {
    const task = readAnswer(rpc({ id: "t1", sessionId: "s1", status: { state: "completed", message: { role: "agent", parts: [{ type: "text", text: "done" }] } }, artifacts: [{ parts: [{ type: "text", text: "x" }], index: 0 }] }), "0.1", "jsonrpc");
    expect(task).toMatchObject({ kind: "task", taskId: "t1", contextId: "s1", state: { state: "completed" }, statusText: "done" });
    expect(readAnswer(rpc({ id: "t1", status: { state: "working" }, final: false }), "0.1", "jsonrpc")).toMatchObject({ kind: "status", taskId: "t1", final: false });
    expect(readAnswer(rpc({ id: "t1", artifact: { parts: [], index: 0, append: true, lastChunk: true } }), "0.1", "jsonrpc")).toMatchObject({ kind: "artifact", chunk: { artifactId: "#0", append: true, lastChunk: true } });
  });

  it("reads v0.3 kinds and v1.0 member names to the same events", () => {
    const v03 = readAnswer(rpc({ kind: "status-update", taskId: "t", contextId: "c", status: { state: "input-required" }, final: true }), "0.3", "jsonrpc");
    const v10 = readAnswer(rpc({ statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_INPUT_REQUIRED" } } }), "1.0", "jsonrpc");
    expect(v03).toMatchObject({ kind: "status", taskId: "t", contextId: "c", state: { state: "input-required", raw: "input-required" }, final: true });
    expect(v10).toMatchObject({ kind: "status", taskId: "t", contextId: "c", state: { state: "input-required", raw: "TASK_STATE_INPUT_REQUIRED" } });
    expect(readAnswer(rpc({ message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "a" }, { text: "b" }] } }), "1.0", "jsonrpc")).toMatchObject({ kind: "message", text: "ab", role: "ROLE_AGENT" });
  });

  it("names OpenFang's quirks: a bare task for a JSON-RPC call, a string status, camelCase states, messages", () => {
    const read = readAnswer({ id: "t", sessionId: "s", status: "inputRequired", messages: [] }, "0.1", "jsonrpc");
    expect(read).toMatchObject({ kind: "task", state: { state: "input-required" } });
    expect(read.notes.join(" | ")).toMatch(/not a JSON-RPC response.*bare string.*camelCase.*messages instead of history/);
  });

  it("names errors by dialect: -32006 is StreamingNotSupported in v0.1, InvalidAgentResponseError later; v1.0 ErrorInfo reason", () => {
    const e = { jsonrpc: "2.0", id: 1, error: { code: -32006, message: "m" } };
    expect(readAnswer(e, "0.1", "jsonrpc")).toMatchObject({ kind: "error", error: { name: "StreamingNotSupported" } });
    expect(readAnswer(e, "0.3", "jsonrpc")).toMatchObject({ kind: "error", error: { name: "InvalidAgentResponseError" } });
    const v1 = { jsonrpc: "2.0", id: 1, error: { code: -32001, message: "Task not found", data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }] } };
    expect(readAnswer(v1, "1.0", "jsonrpc")).toMatchObject({ kind: "error", error: { code: -32001, name: "TaskNotFoundError", reason: "TASK_NOT_FOUND" } });
  });

  it("says what it cannot read instead of guessing", () => {
    expect(readAnswer(rpc({ hello: 1 }), "0.3", "jsonrpc")).toMatchObject({ kind: "other" });
    expect(readAnswer(rpc(3), "0.3", "jsonrpc")).toMatchObject({ kind: "other", notes: ["the result is not an object"] });
    expect(readAnswer(rpc({ kind: "status-update", taskId: "t", status: { state: "sleeping" }, final: false }), "0.3", "jsonrpc").notes).toContain('unknown task state "sleeping"');
  });
});

describe("TaskFold", () => {
  it("assembles chunked artifacts and ends a v0.3 stream at final: true", () => {
    const fold = new TaskFold("0.3");
    const events = [
      { kind: "task", id: "t", contextId: "c", status: { state: "submitted" } },
      { kind: "status-update", taskId: "t", contextId: "c", status: { state: "working" }, final: false },
      { kind: "artifact-update", taskId: "t", contextId: "c", artifact: { artifactId: "a", parts: [{ kind: "text", text: "he" }] }, append: false, lastChunk: false },
      { kind: "artifact-update", taskId: "t", contextId: "c", artifact: { artifactId: "a", parts: [{ kind: "text", text: "llo" }] }, append: true, lastChunk: true },
    ];
    events.forEach((e, i) => fold.add(readAnswer(rpc(e), "0.3", "jsonrpc"), i * 10));
    expect(fold.end).toBe("open");
    fold.add(readAnswer(rpc({ kind: "status-update", taskId: "t", contextId: "c", status: { state: "completed" }, final: true }), "0.3", "jsonrpc"), 50);
    expect(fold.end).toBe("final");
    const [task] = fold.tasks();
    expect(task!.steps.map((s) => [s.state, s.at])).toEqual([["submitted", 0], ["working", 10], ["completed", 50]]);
    expect(task!.artifacts).toEqual([{ artifactId: "a", parts: [{ kind: "text", text: "he" }, { kind: "text", text: "llo" }], chunks: 2, complete: true }]);
  });

  it("ends a v1.0 stream at a terminal or interrupted state, and a v0.x one only at final", () => {
    const v1 = new TaskFold("1.0");
    v1.add(readAnswer(rpc({ statusUpdate: { taskId: "t", status: { state: "TASK_STATE_INPUT_REQUIRED" } } }), "1.0", "jsonrpc"), 0);
    expect(v1.end).toBe("interrupted");
    const v03 = new TaskFold("0.3");
    v03.add(readAnswer(rpc({ kind: "status-update", taskId: "t", status: { state: "completed" }, final: false }), "0.3", "jsonrpc"), 0);
    expect(v03.end).toBe("open");
  });

  it("a replacing chunk (append false) starts the artifact over", () => {
    const fold = new TaskFold("1.0");
    fold.add(readAnswer(rpc({ artifactUpdate: { taskId: "t", artifact: { artifactId: "a", parts: [{ text: "old" }] }, append: false, lastChunk: true } }), "1.0", "jsonrpc"), 0);
    fold.add(readAnswer(rpc({ artifactUpdate: { taskId: "t", artifact: { artifactId: "a", parts: [{ text: "new" }] }, append: false, lastChunk: true } }), "1.0", "jsonrpc"), 1);
    expect(fold.tasks()[0]!.artifacts[0]).toMatchObject({ parts: [{ text: "new" }], chunks: 1 });
  });
});
