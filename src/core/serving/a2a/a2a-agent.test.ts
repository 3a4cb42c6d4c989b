import { afterEach, describe, expect, it } from "vitest";
import type { ToolRun } from "../tool-run.ts";
import type { A2aAgent } from "./a2a-agent.ts";
import { call, rpc, settle, streamed, testAgent, v03, v10, type Json } from "./test-harness.ts";

const agents: A2aAgent[] = [];
const agent = (...args: Parameters<typeof testAgent>) => {
  const made = testAgent(...args);
  agents.push(made);
  return made;
};
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

const result = (answer: Json) => answer.result as Json;
const task = (answer: Json) => (result(answer).task ?? result(answer)) as Json;
const state = (t: Json) => (t.status as Json).state;
const statusText = (t: Json) => (((t.status as Json).message as Json | undefined)?.parts as Json[] | undefined)?.map((p) => p.text).join("");

describe("a message runs one tool as a task", () => {
  it("v1.0: a data part runs its skill; the result is an artifact with the structured value", async () => {
    const t = task(await rpc(agent(), "SendMessage", v10([call("add", { a: 2, b: 3 })]), "1.0"));
    expect(state(t)).toBe("TASK_STATE_COMPLETED");
    expect(t.artifacts).toEqual([{ artifactId: expect.any(String), name: "result", parts: [{ text: "5", mediaType: "text/plain" }, { data: { sum: 5 }, mediaType: "application/json" }] }]);
  });

  it("v0.3: a text-only message runs echo and blocks until it is done", async () => {
    const t = task(await rpc(agent(), "message/send", v03([{ text: "hello" }])));
    expect(t).toMatchObject({ kind: "task", status: { state: "completed" }, artifacts: [{ name: "result", parts: [{ kind: "text", text: "hello" }] }] });
  });

  it("a non-zero exit fails the task and keeps its output as the artifact", async () => {
    const t = task(await rpc(agent(), "message/send", v03([{ data: { skill: "fail", arguments: { exit_code: 3, output: "boom\n" } } }])));
    expect(state(t)).toBe("failed");
    expect(statusText(t)).toBe("fail 3 exited with code 3; its output is the task's artifact");
    expect(t.artifacts).toEqual([{ artifactId: expect.any(String), name: "output", parts: [{ kind: "text", text: "boom\n" }], metadata: { command: "fail 3", exitCode: 3 } }]);
  });

  it("a call that cannot run is rejected with the reason", async () => {
    const a = agent();
    const unknown = task(await rpc(a, "message/send", v03([{ data: { skill: "confirm", arguments: { action: "x" } } }])));
    expect(state(unknown)).toBe("rejected");
    expect(statusText(unknown)).toContain('this agent has no skill "confirm"');
    const bad = task(await rpc(a, "message/send", v03([{ data: { skill: "add", arguments: { a: "x" } } }])));
    expect(statusText(bad)).toBe('Not run: the arguments for add do not match its input schema.\n- (the arguments): Missing required property "b".\n- /a: "a" must be a number, not a string.');
  });

  it("streams submitted → working → progress → the artifact → completed, in v1.0 and v0.3", async () => {
    const a = agent();
    const v1 = await streamed(a, "SendStreamingMessage", v10([call("sleep", { seconds: 0.02 })]), "1.0");
    const kinds = v1.map((e) => Object.keys(result(e))[0]);
    expect(kinds).toEqual(["task", "statusUpdate", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect(v1.map((e) => ((Object.values(result(e))[0] as Json).status as Json | undefined)?.state).filter(Boolean)).toEqual([
      "TASK_STATE_SUBMITTED",
      "TASK_STATE_WORKING",
      "TASK_STATE_WORKING",
      "TASK_STATE_COMPLETED",
    ]);
    const progress = (result(v1[2]!).statusUpdate as Json).status as Json;
    expect(((progress.message as Json).parts as Json[])[0]).toEqual({ text: "1 of 1 s", mediaType: "text/plain" });
    const old = await streamed(a, "message/stream", v03([{ data: { skill: "echo", arguments: { message: "hi" } } }]));
    expect(old.map((e) => result(e).kind)).toEqual(["task", "status-update", "artifact-update", "status-update"]);
    expect(result(old.at(-1)!)).toMatchObject({ final: true, status: { state: "completed" } });
  });

  it("sends large output in chunks that add up to the capped output", async () => {
    const events = await streamed(agent(), "SendStreamingMessage", v10([call("large-output", { bytes: 100_000 })]), "1.0");
    const pieces = events.map((e) => result(e).artifactUpdate as Json | undefined).filter((u): u is Json => u !== undefined);
    expect(pieces.length).toBe(8);
    expect(pieces.map((p) => [p.append ?? false, p.lastChunk ?? false])).toEqual([[false, false], ...Array(6).fill([true, false]), [true, true]]);
    const text = pieces.map((p) => ((p.artifact as Json).parts as Json[]).map((part) => part.text).join("")).join("");
    expect(text.length).toBeLessThanOrEqual(64 * 1024);
    expect(text).toContain("bytes omitted");
  });
});

describe("tasks while and after they run", () => {
  it("cancel ends the run; a second cancel is refused; get and list see the task", async () => {
    const a = agent();
    const started = task(await rpc(a, "SendMessage", v10([call("sleep", { seconds: 30 })], {}, { returnImmediately: true }), "1.0"));
    const id = started.id as string;
    expect(a.executor.isRunning(id)).toBe(true);
    const canceled = await rpc(a, "CancelTask", { id }, "1.0");
    expect(state(result(canceled))).toBe("TASK_STATE_CANCELED");
    expect(statusText(result(canceled))).toBe("Canceled on request; the tool was stopped.");
    await settle();
    expect(a.executor.isRunning(id)).toBe(false);
    expect(a.semaphore.active).toBe(0);
    expect(await rpc(a, "tasks/cancel", { id })).toMatchObject({ error: { code: -32002, message: `Task ${id} is already canceled.` } });
    expect(state(result(await rpc(a, "tasks/get", { id })))).toBe("canceled");
    const listed = result(await rpc(a, "ListTasks", {}, "1.0")).tasks as Json[];
    expect(listed.map((t) => t.id)).toContain(id);
    expect(await rpc(a, "tasks/get", { id: "nope" })).toMatchObject({ error: { code: -32001 } });
  });

  it("resubscribe follows a running task to its end", async () => {
    const a = agent();
    const id = task(await rpc(a, "SendMessage", v10([call("sleep", { seconds: 0.05 })], {}, { returnImmediately: true }), "1.0")).id as string;
    const events = await streamed(a, "SubscribeToTask", { id }, "1.0");
    expect(Object.keys(result(events[0]!))).toEqual(["task"]);
    expect(((result(events.at(-1)!).statusUpdate as Json).status as Json).state).toBe("TASK_STATE_COMPLETED");
  });

  it("a full agent rejects the task at once, and takes the next one when a slot is free", async () => {
    let release: (run: ToolRun) => void = () => undefined;
    const execute = () => new Promise<ToolRun>((resolve) => (release = resolve));
    const a = agent({ concurrency: 1, execute });
    const first = task(await rpc(a, "SendMessage", v10([call("echo", { message: "one" })], {}, { returnImmediately: true }), "1.0"));
    await settle();
    const second = task(await rpc(a, "SendMessage", v10([call("echo", { message: "two" })]), "1.0"));
    expect(state(second)).toBe("TASK_STATE_REJECTED");
    expect(statusText(second)).toBe("Not run: patchbay-demo is already running its maximum of 1 tool calls at once; send the message again when one has finished.");
    release({ kind: "text", text: "one" });
    await settle();
    expect(state(result(await rpc(a, "GetTask", { id: first.id }, "1.0")))).toBe("TASK_STATE_COMPLETED");
    const third = a.executor.counts;
    expect(third).toEqual({ running: 0, awaitingApproval: 0 });
  });

  it("a built-in that runs past the time limit is stopped and the task fails", async () => {
    const a = agent({ timeoutMs: 50 });
    const t = task(await rpc(a, "SendMessage", v10([call("sleep", { seconds: 30 })]), "1.0"));
    expect(state(t)).toBe("TASK_STATE_FAILED");
    expect(statusText(t)).toBe("sleep did not finish within 50 ms and was stopped.");
    expect(a.semaphore.active).toBe(0);
  });

  it("closing cancels what runs and rejects new tasks", async () => {
    const a = agent();
    const id = task(await rpc(a, "SendMessage", v10([call("sleep", { seconds: 30 })], {}, { returnImmediately: true }), "1.0")).id;
    await settle();
    await a.close();
    const after = result(await rpc(a, "GetTask", { id }, "1.0"));
    expect(state(after)).toBe("TASK_STATE_CANCELED");
    expect(statusText(after)).toBe("Canceled: patchbay-demo stopped serving.");
    const late = task(await rpc(a, "SendMessage", v10([{ text: "hi" }]), "1.0"));
    expect(statusText(late)).toBe("Not run: patchbay-demo is stopping and takes no more tasks.");
  });
});

describe("finished tasks are kept up to a bound", () => {
  it("with maxFinishedTasks 2, the first of three echo tasks is forgotten and the last two are found", async () => {
    const a = agent({ maxFinishedTasks: 2 });
    const ids: string[] = [];
    for (const text of ["one", "two", "three"]) {
      const t = task(await rpc(a, "message/send", v03([{ text }])));
      expect(t).toMatchObject({ status: { state: "completed" } });
      ids.push(t.id as string);
    }
    const [first, second, third] = ids;
    expect(await rpc(a, "tasks/get", { id: first })).toMatchObject({
      error: { code: -32001, message: `Task not found: ${first} finished and was forgotten (this agent keeps its 2 most recently finished tasks).` },
    });
    for (const id of [second, third]) expect(result(await rpc(a, "tasks/get", { id }))).toMatchObject({ id, status: { state: "completed" } });
    expect(a.taskCount()).toBe(2);
    const listed = result(await rpc(a, "ListTasks", {}, "1.0")).tasks as Json[];
    expect(listed.map((t) => t.id).sort()).toEqual([second, third].sort());
  });
});
