import { describe, expect, it } from "vitest";
import { RequestRefusal } from "./client-handlers.ts";
import { eraMismatch } from "./era-check.ts";
import { answerWithHandlers, inputRequestsOf, retryParams, roundOf } from "./mrtr.ts";
import { answeredTask, createdTask, listedTasks, MAX_POLL_MS, MIN_POLL_MS, pollDelay, resultTaskProblem, taskSupport } from "./tasks.ts";

const elicit = { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } };
const sample = { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } };

describe("input_required rounds", () => {
  it("reads the embedded requests in order, and a round needs requests or state", () => {
    const result = { resultType: "input_required", inputRequests: { a: elicit, b: sample, c: { method: "roots/list" }, d: { method: "x/y", params: 3 } }, requestState: "s" };
    expect(inputRequestsOf(result).map((r) => [r.key, r.kind, r.params])).toEqual([
      ["a", "elicitation", elicit.params],
      ["b", "sampling", sample.params],
      ["c", "roots", {}],
      ["d", "unknown", {}],
    ]);
    expect(roundOf(1, 9, result)).toMatchObject({ index: 1, requestId: 9, requestState: "s" });
    expect(roundOf(1, 9, { resultType: "input_required" })).toEqual({ problem: "the input_required result carries neither inputRequests nor requestState" });
    expect(roundOf(1, 9, { resultType: "input_required", requestState: 7 })).toEqual({ problem: "the input_required result's requestState is number, not a string" });
  });

  it("answers each request through the handler of its kind, naming what was left unanswered and why", async () => {
    const round = roundOf(1, 1, { resultType: "input_required", inputRequests: { a: elicit, b: sample, c: { method: "roots/list" }, d: { method: "x/y" } }, requestState: "s" });
    if ("problem" in round) throw new Error(round.problem);
    const answers = await answerWithHandlers(
      round,
      {
        elicitation: async () => ({ action: "decline" }),
        sampling: () => Promise.reject(new RequestRefusal(-1, "The user declined the sampling request.")),
        roots: async () => [{ uri: "file:///w" }],
      },
      { elicitation: true, sampling: true, roots: true },
    );
    expect(answers.responses).toEqual({ a: { action: "decline" }, c: { roots: [{ uri: "file:///w" }] } });
    expect(answers.requestState).toBe("s");
    expect(answers.notes).toEqual([
      "b (sampling/createMessage) was left unanswered: declined (The user declined the sampling request.)",
      'd (x/y) was left unanswered: the client knows no input request "x/y"',
    ]);
    const undeclared = await answerWithHandlers(round, {}, {});
    expect(undeclared.responses).toEqual({});
    expect(undeclared.notes[0]).toBe("a (elicitation/create) was left unanswered: the client does not offer elicitation");
  });

  it("retries with the original params, the answers and the echoed state, dropping the last round's", () => {
    const original = { name: "t", arguments: { x: 1 }, inputResponses: { old: 1 }, requestState: "old" };
    expect(retryParams(original, { responses: { a: { action: "accept" } }, requestState: "new", notes: [] })).toEqual({ name: "t", arguments: { x: 1 }, inputResponses: { a: { action: "accept" } }, requestState: "new" });
    expect(retryParams(original, { responses: {}, requestState: undefined, notes: [] })).toEqual({ name: "t", arguments: { x: 1 } });
  });
});

describe("tasks in both eras", () => {
  const legacyTask = { taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: 60000, pollInterval: 500 };
  const modernTask = { resultType: "task", taskId: "t2", status: "working", ttlMs: null, pollIntervalMs: 200 };

  it("reads a created task in each era's shape, and names the other era's shape", () => {
    expect(createdTask("legacy", { task: legacyTask })).toMatchObject({ taskId: "t1", status: "working", ttlMs: 60000, pollIntervalMs: 500 });
    expect(createdTask("modern", modernTask)).toMatchObject({ taskId: "t2", ttlMs: null, pollIntervalMs: 200 });
    expect(createdTask("modern", { resultType: "task", task: legacyTask })).toEqual({ problem: "the task result nests its task under `task`, the 2025-11-25 shape; 2026-07-28 puts the task's fields at the top" });
    expect(createdTask("modern", { resultType: "complete", content: [] })).toBeUndefined();
    expect(createdTask("legacy", { content: [] })).toBeUndefined();
    expect(createdTask("legacy", { task: { taskId: "t", status: "sleeping" } })).toEqual({ problem: 'the CreateTaskResult is not a task: task t has status "sleeping", which is none of working, input_required, completed, failed, cancelled' });
  });

  it("names an answer about another task, and a result that belongs to another task", () => {
    expect(answeredTask("legacy", "t1", "tasks/get", legacyTask)).toMatchObject({ taskId: "t1" });
    expect(answeredTask("legacy", "t9", "tasks/get", legacyTask)).toEqual({ problem: "tasks/get asked about task t9 but the server answered for task t1" });
    expect(answeredTask("modern", "t2", "tasks/get", { ...modernTask, resultType: "task" })).toEqual({ problem: 'tasks/get answered with resultType "task"; a task\'s state comes as a complete result' });
    expect(answeredTask("modern", "t2", "tasks/get", "nope")).toEqual({ problem: "tasks/get answered with something that is not an object" });
    expect(resultTaskProblem("t1", { content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t2" } } })).toBe("tasks/result for task t1 answered with the result of task t2");
    expect(resultTaskProblem("t1", { content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } } })).toBeUndefined();
  });

  it("polls at the server's interval within bounds, lists what is a task, and says what the server supports", () => {
    expect(pollDelay({ taskId: "a", status: "working", pollIntervalMs: 200 })).toBe(200);
    expect(pollDelay({ taskId: "a", status: "working" })).toBe(1000);
    expect(pollDelay({ taskId: "a", status: "working", pollIntervalMs: 1 })).toBe(MIN_POLL_MS);
    expect(pollDelay({ taskId: "a", status: "working", pollIntervalMs: 10_000_000 })).toBe(MAX_POLL_MS);
    expect(listedTasks({ tasks: [legacyTask, { taskId: 3 }] })).toMatchObject({ tasks: [{ taskId: "t1" }], problems: ["tasks[1]: it has no taskId string (got 3)"] });
    expect(listedTasks({})).toEqual({ tasks: [], problems: ["tasks/list answered without a tasks array"] });
    expect(taskSupport("legacy", { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } })).toMatchObject({ toolCalls: true, list: true, cancel: true });
    expect(taskSupport("legacy", {})).toMatchObject({ toolCalls: false, note: "The server declares no tasks capability." });
    expect(taskSupport("modern", { extensions: { "io.modelcontextprotocol/tasks": {} } })).toMatchObject({ toolCalls: true, list: false, cancel: true });
    expect(taskSupport("modern", { tasks: { list: {} } })).toMatchObject({ toolCalls: false });
  });
});

describe("answers in the other era's shape", () => {
  it("names a legacy shape on a modern connection and a modern one on a legacy connection", () => {
    expect(eraMismatch("tools/list", { tools: [] }, "modern", "2026-07-28")).toMatch(/negotiated 2026-07-28 but answered tools\/list in the legacy shape/);
    expect(eraMismatch("tools/list", { resultType: "complete", tools: [] }, "modern", "2026-07-28")).toBeUndefined();
    expect(eraMismatch("tools/call", { resultType: "input_required" }, "legacy", "2025-11-25")).toMatch(/resultType "input_required", a 2026-07-28 shape/);
    expect(eraMismatch("tools/call", { content: [] }, "legacy", "2025-11-25")).toBeUndefined();
  });
});
