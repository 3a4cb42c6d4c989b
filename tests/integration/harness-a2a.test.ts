/**
 * The harness's A2A executor against real agents on 127.0.0.1: the @a2a-js/sdk peer (v1.0 and
 * v0.3, JSON-RPC and HTTP+JSON), whose first word picks a lifecycle, and Patchbay's served demo
 * agent, reached with a message object naming a skill. Frames are checked against what the agent
 * received, byte for byte; the card is read once per target.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeExecutors } from "../../server/harness/node-executors.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { startA2aServing, type A2aServing } from "../../server/serving/a2a-engine.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import type { A2aAction, A2aTargetSpec } from "../../src/core/harness/collection-types.ts";
import type { ResolvedStep, StepExecutor, StepFrame } from "../../src/core/harness/run-types.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { startSdkAgent, type SdkAgent } from "../helpers/a2a-peers/index.ts";

let sdk: SdkAgent;
let demo: A2aServing;
let executor: StepExecutor;

beforeAll(async () => {
  [sdk, demo] = await Promise.all([startSdkAgent(), startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, concurrency: 4 })]);
  executor = nodeExecutors().a2a!;
}, 30_000);
afterAll(async () => {
  await executor?.close();
  await Promise.all([sdk?.close(), demo?.close()]);
});

function step(targetName: string, target: A2aTargetSpec, action: Omit<A2aAction, "protocol">, timeoutMs = 15_000): ResolvedStep {
  return { index: 0, name: action.operation, targetName, target, action: { protocol: "a2a", ...action }, timeoutMs };
}
const run = (s: ResolvedStep, signal = new AbortController().signal) => executor.run(s, { signal });
const received = (frames: readonly StepFrame[]) => frames.filter((f) => f.direction === "received");
const v10 = (): A2aTargetSpec => ({ protocol: "a2a", card: sdk.baseUrl, dialect: "1.0" });

describe("A2A steps against the SDK agent", () => {
  it("a completed task is a result: the response's result as the body, the request as the agent received it, every answer valid", async () => {
    sdk.clearRequests();
    const obs = await run(step("sdk10", v10(), { operation: "send", text: "echo harness hi" }));
    expect(obs.outcome.kind).toBe("result");
    expect(obs.outcome.message).toMatch(/^task \S+ completed$/);
    expect(obs.body).toMatchObject({ task: { status: { state: "TASK_STATE_COMPLETED" }, artifacts: [{ parts: [{ text: "harness hi" }] }] } });
    const [request] = obs.frames.filter((f) => f.direction === "sent");
    expect(request!.channel).toBe("POST /jsonrpc");
    const posted = sdk.requests.filter((r) => r.method === "POST");
    expect(posted.map((r) => r.body)).toEqual([request!.text]);
    expect(JSON.parse(request!.text)).toMatchObject({ jsonrpc: "2.0", method: "SendMessage", params: { message: { role: "ROLE_USER", parts: [{ text: "echo harness hi" }] } } });
    const [answer] = received(obs.frames);
    expect(answer!.channel).toBe("HTTP 200");
    expect((JSON.parse(answer!.text) as { result: unknown }).result).toEqual(obs.body);
    expect(answer!.validity).toEqual({ valid: true, kind: "SendMessage response (A2A v1.0)", version: "1.0", problems: [] });
    expect(obs.stream).toBeUndefined();
  });

  it("reads the card once per target: later steps send only their request", async () => {
    sdk.clearRequests();
    await run(step("sdk-once", v10(), { operation: "send", text: "echo one" }));
    await run(step("sdk-once", v10(), { operation: "send", text: "echo two" }));
    const cards = sdk.requests.filter((r) => r.path.includes("agent-card"));
    expect(cards).toHaveLength(1);
    expect(sdk.requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  it("a direct message is a result", async () => {
    const obs = await run(step("sdk10", v10(), { operation: "send", text: "message hi back" }));
    expect(obs.outcome).toEqual({ kind: "result", message: "the agent answered with a message" });
    expect(obs.body).toMatchObject({ message: { parts: [{ text: "hi back" }] } });
  });

  it.each([
    ["fail", "failed"],
    ["reject", "rejected"],
    ["ask", "input-required"],
    ["auth", "auth-required"],
  ])("%s: a task that does not complete is task-state %s", async (text, state) => {
    const obs = await run(step("sdk10", v10(), { operation: "send", text }));
    expect(obs.outcome).toMatchObject({ kind: "task-state", state });
  });

  it("the task a step left waiting is read back by its id; a task that does not exist is a JSON-RPC error with its code", async () => {
    const asked = await run(step("sdk10", v10(), { operation: "send", text: "ask" }));
    const taskId = (asked.body as { task: { id: string } }).task.id;
    const got = await run(step("sdk10", v10(), { operation: "get", taskId }));
    expect(got.outcome).toMatchObject({ kind: "task-state", state: "input-required" });
    expect(got.body).toMatchObject({ id: taskId, status: { state: "TASK_STATE_INPUT_REQUIRED" } });
    const missing = await run(step("sdk10", v10(), { operation: "get", taskId: "no-such-task" }));
    expect(missing.outcome).toMatchObject({ kind: "json-rpc-error", code: -32001 });
    expect(missing.outcome.message).toMatch(/^TaskNotFoundError \(-32001\)/);
    expect(missing.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 } });
    expect(received(missing.frames)[0]!.validity?.valid).toBe(true);
  });

  it("a canceled task is task-state canceled", async () => {
    const asked = await run(step("sdk10", v10(), { operation: "send", text: "ask" }));
    const taskId = (asked.body as { task: { id: string } }).task.id;
    const canceled = await run(step("sdk10", v10(), { operation: "cancel", taskId }));
    expect(canceled.outcome).toMatchObject({ kind: "task-state", state: "canceled" });
  });

  it("a stream: every SSE event a frame, the kinds in order, final at the end, the last event as the body", async () => {
    const obs = await run(step("sdk10", v10(), { operation: "stream", text: "chunks 3" }));
    expect(obs.outcome.kind).toBe("result");
    expect(obs.stream?.final).toBe(true);
    expect(obs.stream?.kinds[0]).toBe("task");
    expect(obs.stream?.kinds.filter((k) => k === "artifact-update")).toHaveLength(3);
    expect(obs.stream?.kinds.at(-1)).toBe("status-update");
    const events = received(obs.frames);
    expect(events).toHaveLength(obs.stream!.kinds.length);
    expect(events.every((f) => f.channel === "SSE message" && f.validity?.valid === true)).toBe(true);
    expect(obs.body).toEqual((JSON.parse(events.at(-1)!.text) as { result: unknown }).result);
    expect(obs.body).toMatchObject({ statusUpdate: { status: { state: "TASK_STATE_COMPLETED" } } });
  });

  it("v0.3 over HTTP+JSON: a completed task, and a missing task's REST error as json-rpc-error with its HTTP status", async () => {
    const rest: A2aTargetSpec = { protocol: "a2a", card: sdk.baseUrl, dialect: "0.3", binding: "rest" };
    const sent = await run(step("sdk03rest", rest, { operation: "send", text: "echo over rest" }));
    expect(sent.outcome.kind).toBe("result");
    expect(sent.frames[0]!.channel).toBe("POST /rest/v1/message:send");
    const missing = await run(step("sdk03rest", rest, { operation: "get", taskId: "nope" }));
    expect(missing.outcome).toMatchObject({ kind: "json-rpc-error", code: 404 });
    expect(missing.frames[0]).toMatchObject({ direction: "sent", text: "", channel: "GET /rest/v1/tasks/nope" });
    expect(missing.body).toMatchObject({ message: "Task not found: nope" });
    // The body reads as a bare JSON-RPC error object of MCP, which on an A2A exchange is not an A2A message.
    expect(received(missing.frames)[0]!.validity).toMatchObject({ valid: false, problems: [expect.stringMatching(/^not an A2A message: it reads as /)] });
  });

  it("a task past the step's time limit is a timeout, a stop is cancelled, both promptly", async () => {
    const started = performance.now();
    const slow = await run(step("sdk10", v10(), { operation: "stream", text: "slow 5000" }, 600));
    expect(slow.outcome.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(slow.stream?.final).toBe(false);
    // The task the step gave up on is canceled on the agent, and the cancel is among its frames.
    expect(slow.outcome.message).toMatch(/; task \S+ was canceled on the agent \(now canceled\)$/);
    expect(slow.frames.filter((f) => f.direction === "sent").map((f) => JSON.parse(f.text).method)).toEqual(["SendStreamingMessage", "CancelTask"]);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("the run was stopped")), 200);
    const stopped = await run(step("sdk10", v10(), { operation: "send", text: "slow 5000" }), stop.signal);
    expect(stopped.outcome).toEqual({ kind: "cancelled", message: "cancelled before the agent answered" });
  });

  it("an agent nobody listens on is a transport error at once, with the card attempt named", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const obs = await run(step("dead", { protocol: "a2a", card: url }, { operation: "send", text: "echo" }));
    expect(obs.outcome.kind).toBe("transport-error");
    expect(obs.outcome.message).toMatch(/^no Agent Card: .*could not reach/);
    expect(performance.now() - started).toBeLessThan(5_000);
    const missingCard = await run(step("nocard", { protocol: "a2a", card: `${sdk.baseUrl}/nothing-here/card.json` }, { operation: "send", text: "echo" }));
    expect(missingCard.outcome.message).toMatch(/^no Agent Card: .*HTTP 404/);
    // What was tried is in the frames: the card request and its 404.
    expect(missingCard.frames.map((f) => f.direction)).toEqual(["sent", "received"]);
  });

  it("a step the dialect cannot express is the step's own error", async () => {
    await expect(run(step("sdk03", { protocol: "a2a", card: sdk.baseUrl, dialect: "0.3" }, { operation: "list" }))).rejects.toThrow(/list is not a JSON-RPC method in A2A 0.3/);
    await expect(run(step("sdk10", v10(), { operation: "send" }))).rejects.toThrow(/needs "text" or "message"/);
  });
});

describe("A2A steps against Patchbay's served agent", () => {
  it("a message object naming a skill: the skill's exit code ends the task failed; add completes", async () => {
    const target: A2aTargetSpec = { protocol: "a2a", card: demo.baseUrl, dialect: "1.0" };
    const failed = await run(step("demo", target, { operation: "send", message: { parts: [{ data: { skill: "fail", arguments: { exit_code: 5 } } }] } }));
    expect(failed.outcome).toMatchObject({ kind: "task-state", state: "failed" });
    const request = JSON.parse(failed.frames[0]!.text) as { params: { message: Record<string, unknown> } };
    // The step's parts replace the text's; the rest of the message is filled in for the dialect.
    expect(request.params.message).toMatchObject({ role: "ROLE_USER", parts: [{ data: { skill: "fail", arguments: { exit_code: 5 } } }] });
    expect(typeof request.params.message.messageId).toBe("string");
    const added = await run(step("demo", target, { operation: "send", message: { parts: [{ data: { skill: "add", arguments: { a: 20, b: 22 } } }] } }));
    expect(added.outcome.kind).toBe("result");
    expect(added.body).toMatchObject({ task: { artifacts: [{ parts: [{ text: "42" }, { data: { sum: 42 } }] }] } });
    expect(received(added.frames).every((f) => f.validity?.valid === true)).toBe(true);
  });
});
