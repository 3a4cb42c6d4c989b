/**
 * Push notifications to Patchbay, end to end below the browser: the workbench's state over the
 * real backend (its relay and its push receivers) and the @a2a-js/sdk agent, whose push sender
 * POSTs each event to the receiver's hook on 127.0.0.1. v1.0 sends StreamResponses, v0.3 (the
 * SDK's legacy serializer) Tasks; both land on the task's timeline and in the wire log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendClient } from "../../src/core/backend/backend-client.ts";
import { relayFetch } from "../../src/core/backend/relay-fetch.ts";
import { backendPushReceivers } from "../../src/core/a2a/push-receiver.ts";
import { systemScheduler } from "../../src/core/env/scheduler.ts";
import type { WireFrameInput } from "../../src/core/wire/index.ts";
import { A2aState } from "../../src/ui/features/a2a/a2a-state.svelte.ts";
import { receiveInCompose } from "../../src/ui/features/a2a/push-compose.ts";
import { VALID } from "../../src/ui/features/a2a/test-fakes.ts";
import { startSdkAgent, type SdkAgent } from "../helpers/a2a-peers/index.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { waitFor } from "../helpers/relay-stream.ts";

let t: TestBackend;
let sdk: SdkAgent;
let client: BackendClient;
let origin = "";

beforeAll(async () => {
  [t, sdk] = await Promise.all([startTestBackend(), startSdkAgent()]);
  origin = `http://127.0.0.1:${t.port}`;
  client = new BackendClient({ fetch, token: t.token, baseUrl: origin });
});
afterAll(async () => {
  await Promise.all([sdk?.close(), t?.close()]);
});

function workbench(dialect: "1.0" | "0.3") {
  const frames: WireFrameInput[] = [];
  let id = 0;
  const a2a = new A2aState({
    direct: (url, init) => fetch(url, init),
    relay: relayFetch(client, fetch),
    now: () => performance.now(),
    wallNow: () => Date.now(),
    record: (f) => void frames.push(f),
    validate: async () => VALID,
    newId: () => `m-${dialect}-${++id}`,
    push: { api: backendPushReceivers(client, fetch), hookBase: origin, scheduler: systemScheduler(), pollMs: 100, lingerMs: 500 },
  });
  a2a.compose.manual = { url: sdk.jsonRpcUrl, dialect, binding: "jsonrpc" };
  return { a2a, frames };
}

/** The first task the conversations know, once it is working. */
const workingTask = (a2a: A2aState) =>
  waitFor(() => {
    for (const thread of a2a.conversations.threads) for (const task of thread.tasks) if (task.record.state === "working") return { thread, task };
    return undefined;
  }, "a working task");

const pushLines = (a2a: A2aState) => a2a.conversations.threads.flatMap((th) => th.timeline).filter((e) => e.push !== undefined);
const pushFrames = (frames: readonly WireFrameInput[]) => frames.filter((f) => f.correlationId?.startsWith("a2a-push-"));

async function gone(id: string): Promise<number> {
  return client.call("GET", `/a2a/push-receivers/${id}`).then(
    () => 200,
    (err: { status: number }) => err.status,
  );
}

describe("push notifications from the SDK agent to Patchbay's receiver", () => {
  it("v1.0 JSON-RPC: a streamed slow task pushed to Patchbay; every notification logged and on the timeline, the receiver deleted at the end", async () => {
    const { a2a, frames } = workbench("1.0");
    a2a.compose.operation = "stream";
    a2a.compose.parts = [{ kind: "text", text: "slow 1500" }];
    const streamed = a2a.compose.send();
    const { thread, task } = await workingTask(a2a);
    await a2a.push.pushTask(thread, task);
    expect(task.actionError).toBeNull();
    const receiver = a2a.push.receiverFor(task.taskId)!;
    expect(receiver.url).toMatch(new RegExp(`^${origin}/hooks/a2a/[\\w-]+$`));
    // The agent is shared with the other tests: this task's config was set once.
    const set = sdk.requests.filter((r) => r.body.includes("CreateTaskPushNotificationConfig") && r.body.includes(task.taskId));
    expect(set).toHaveLength(1);
    await streamed;
    await waitFor(() => (receiver.open ? undefined : true), "the receiver to close");
    expect(receiver.closedWhy).toBe("the task ended");
    expect(await gone(receiver.id)).toBe(404);

    const lines = pushLines(a2a);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.taskId === task.taskId && l.tone !== "bad")).toBe(true);
    expect(lines.some((l) => l.text.startsWith("push notification: status TASK_STATE_WORKING"))).toBe(true);
    expect(lines.at(-1)?.text).toBe("push notification: status TASK_STATE_COMPLETED");
    expect(receiver.received).toBe(lines.length);
    // Verbatim in the log, one frame per notification, as the agent sent it.
    const logged = pushFrames(frames);
    expect(logged.map((f) => new TextDecoder().decode(f.bytes))).toEqual(lines.map((l) => l.raw));
    expect(logged[0]?.headers?.["content-type"]?.[0]).toMatch(/^application\/(a2a\+)?json/);
    expect(logged[0]?.headers?.["x-a2a-notification-token"]).toEqual(["[redacted]"]);
    expect(JSON.parse(lines.at(-1)?.raw ?? "{}")).toMatchObject({ statusUpdate: { taskId: task.taskId } });
    expect(task.record.state).toBe("completed");
  });

  it("v1.0 JSON-RPC: a send that returns at once; only the pushes bring the task to its end, folded in", async () => {
    const { a2a } = workbench("1.0");
    a2a.compose.operation = "send";
    a2a.compose.parts = [{ kind: "text", text: "slow 1200" }];
    const body = JSON.parse(a2a.compose.text) as { params: Record<string, unknown> };
    a2a.compose.text = JSON.stringify({ ...body, params: { ...body.params, configuration: { returnImmediately: true } } });
    await a2a.compose.send();
    const thread = a2a.conversations.current!;
    const task = thread.tasks[0]!;
    expect(task.record.state).not.toBe("completed");
    await a2a.push.pushTask(thread, task);
    const receiver = a2a.push.receiverFor(task.taskId)!;
    await waitFor(() => (task.record.state === "completed" ? true : undefined), "the task to complete by push", [...thread.timeline.map((e) => e.text)]);
    expect(task.record.artifacts.map((a) => a.artifactId)).toHaveLength(1);
    expect(task.record.steps.at(-1)?.raw).toBe("TASK_STATE_COMPLETED");
    await waitFor(() => (receiver.open ? undefined : true), "the receiver to close");
    expect(await gone(receiver.id)).toBe(404);
  });

  it("v0.3 JSON-RPC: Compose's push config set with a receiver for the task; the legacy sender posts Tasks", async () => {
    const { a2a, frames } = workbench("0.3");
    a2a.compose.operation = "stream";
    a2a.compose.parts = [{ kind: "text", text: "slow 1500" }];
    const streamed = a2a.compose.send();
    const { task } = await workingTask(a2a);
    a2a.compose.operation = "push-set";
    a2a.compose.taskId = task.taskId;
    expect(await receiveInCompose(a2a.push, a2a.compose, a2a.conversations)).toBeNull();
    const receiver = a2a.push.receiverFor(task.taskId)!;
    expect(JSON.parse(a2a.compose.text)).toMatchObject({ method: "tasks/pushNotificationConfig/set", params: { taskId: task.taskId, pushNotificationConfig: { url: receiver.url, token: receiver.token } } });
    await a2a.compose.send();
    expect(a2a.compose.live?.result?.failure).toBeUndefined();
    await streamed;
    await waitFor(() => (receiver.open ? undefined : true), "the receiver to close");
    const lines = pushLines(a2a);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.tone !== "bad")).toBe(true);
    expect(lines.at(-1)?.text).toMatch(new RegExp(`^push notification: task ${task.taskId} completed`));
    expect(JSON.parse(lines.at(-1)?.raw ?? "{}")).toMatchObject({ kind: "task", id: task.taskId, status: { state: "completed" } });
    expect(pushFrames(frames)).toHaveLength(lines.length);
    expect(await gone(receiver.id)).toBe(404);
  });
});
