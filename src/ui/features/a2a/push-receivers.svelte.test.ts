import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../../../core/env/scheduler.ts";
import { A2aState } from "./a2a-state.svelte.ts";
import { FakeReceivers } from "./push-fakes.ts";
import { receiveInCompose } from "./push-compose.ts";
import { FakeAgent, fakeDeps, json, rpc } from "./test-fakes.ts";

const BASE = "http://agent.test";
const HOOKS = "http://127.0.0.1:4100";
const WALL0 = 1_700_000_000_000;
const cardV10 = { name: "n", description: "d", version: "1", capabilities: { pushNotifications: true }, skills: [], supportedInterfaces: [{ url: `${BASE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }] };

type Body = { id: unknown; method: string; params: Record<string, unknown> };
const method = (name: string) => (_: unknown, body: unknown) => (body as Body | undefined)?.method === name;
const working = (id: unknown) => json(rpc(id, { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } }));

/** A v1.0 agent whose send leaves t1 working; `pushSet` answers the push config. */
async function open(pushSet = (id: unknown, b: Body) => json(rpc(id, { ...b.params, id: "cfg-1" })), withBackend = true) {
  const agent = new FakeAgent()
    .on((s) => s.method === "GET", () => json(cardV10))
    .on(method("SendMessage"), (_, b) => working((b as Body).id))
    .on(method("CreateTaskPushNotificationConfig"), (_, b) => pushSet((b as Body).id, b as Body));
  const { deps, frames } = fakeDeps(agent);
  // A clock the test moves: the linger and the arrival rule depend on it.
  const clock = { mono: 0 };
  const receivers = new FakeReceivers();
  const scheduler = new ManualScheduler();
  // How many push lines the timeline held as each frame was logged.
  const shownWhenLogged: number[] = [];
  const a2a: A2aState = new A2aState({
    ...deps,
    record: (f) => {
      deps.record(f);
      shownWhenLogged.push(a2a.conversations.threads.flatMap((t) => t.timeline).filter((e) => e.push !== undefined).length);
    },
    now: () => clock.mono,
    wallNow: () => WALL0 + clock.mono,
    ...(withBackend ? { push: { api: receivers, hookBase: `${HOOKS}/`, scheduler, pollMs: 400, lingerMs: 1000 } } : {}),
  });
  a2a.card.url = BASE;
  await a2a.card.fetch();
  await a2a.compose.send();
  const thread = a2a.conversations.current!;
  const task = thread.task("t1")!;
  return { a2a, agent, frames, shownWhenLogged, clock, receivers, scheduler, thread, task, push: a2a.push };
}

const bodies = (agent: FakeAgent) => agent.sent.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body ?? "{}") as Body);
const pushed = (thread: { timeline: readonly { push?: unknown; text: string; tone: string; wall: number; raw?: string }[] }) => thread.timeline.filter((e) => e.push !== undefined);

describe("push notifications to Patchbay", () => {
  it("makes a receiver for the task and sets a push config pointing at it, then polls only while it is open", async () => {
    const { agent, receivers, scheduler, push, thread, task } = await open();
    expect(scheduler.pending).toBe(0);
    await push.pushTask(thread, task);
    const set = bodies(agent).at(-1)!;
    expect(set.method).toBe("CreateTaskPushNotificationConfig");
    expect(set.params).toEqual({ taskId: "t1", url: `${HOOKS}/hooks/a2a/r1`, token: "token-r1" });
    const r = push.receiverFor("t1")!;
    expect(r.open).toBe(true);
    expect(r.url).toBe(`${HOOKS}/hooks/a2a/r1`);
    expect(scheduler.pending).toBe(1);
    // A second push reuses the open receiver rather than making another.
    expect(await push.open("t1", {})).toBe(r);
    expect(receivers.made).toEqual(["r1"]);
    await push.close(r, "stopped by you");
    expect(receivers.removed).toEqual([{ id: "r1", keepalive: false }]);
    expect(scheduler.pending).toBe(0);
    expect(r.closedWhy).toBe("stopped by you");
  });

  it("logs each notification verbatim before reading it, shows it with its arrival time, and folds a newer state", async () => {
    const { a2a, frames, shownWhenLogged, clock, receivers, push, thread, task } = await open();
    await push.pushTask(thread, task);
    const before = a2a.conversations.current!.timeline.length;
    const statusText = JSON.stringify({ statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED", message: { role: "ROLE_AGENT", parts: [{ text: "all done" }] } } } });
    clock.mono = 300;
    receivers.post("r1", { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: { artifactId: "a1", parts: [{ text: "result" }] }, append: false, lastChunk: true } }, WALL0 + 250);
    receivers.post("r1", statusText, WALL0 + 280);
    await push.poll();
    const logged = frames.filter((f) => f.correlationId === "a2a-push-r1");
    expect(logged.map((f) => new TextDecoder().decode(f.bytes))).toEqual([expect.stringContaining("artifactUpdate"), statusText]);
    expect(logged[1]).toMatchObject({ channel: "a2a-http", direction: "in", target: `${HOOKS}/hooks/a2a/r1`, note: "push notification #2 for task t1" });
    expect(logged[1]?.headers?.["content-type"]).toEqual(["application/json"]);
    // Each was logged before its line was made from it.
    expect(shownWhenLogged.slice(-2)).toEqual([0, 1]);
    const entries = pushed(thread);
    expect(thread.timeline.length).toBe(before + 2);
    expect(entries.map((e) => e.wall)).toEqual([WALL0 + 250, WALL0 + 280]);
    expect(entries[1]).toMatchObject({ text: "push notification: status TASK_STATE_COMPLETED: all done", tone: "ok", raw: statusText });
    expect(task.record.state).toBe("completed");
    expect(task.record.artifacts).toEqual([{ artifactId: "a1", parts: [{ text: "result" }], chunks: 1, complete: true }]);
    expect(push.receiverFor("t1")?.received).toBe(2);
    // Read from where it left off.
    await push.poll();
    expect(receivers.reads.at(-1)).toEqual({ id: "r1", after: 2 });
    expect(pushed(thread)).toHaveLength(2);
  });

  it("shows bad input as such: not JSON, another task, neither task nor event; none of it folded", async () => {
    const { receivers, push, thread, task } = await open();
    await push.pushTask(thread, task);
    receivers.post("r1", "<html>oops", WALL0 + 1);
    receivers.post("r1", { statusUpdate: { taskId: "t9", status: { state: "TASK_STATE_FAILED" } } }, WALL0 + 2);
    receivers.post("r1", { hello: "world" }, WALL0 + 3);
    await push.poll();
    const entries = pushed(thread);
    expect(entries.map((e) => e.tone)).toEqual(["bad", "bad", "bad"]);
    expect(entries[0]?.text).toMatch(/^push notification that is not JSON: /);
    expect(entries[0]?.raw).toBe("<html>oops");
    expect(entries[1]?.text).toBe("push notification for an unknown task t9 (this receiver is for t1): status TASK_STATE_FAILED");
    expect(entries[2]?.text).toBe("push notification that is neither a task nor a task event: neither a task, a message, a status update nor an artifact update");
    expect(task.record.state).toBe("working");
  });

  it("folds only what is newer: not an older arrival, not a repeat, nothing after a terminal state", async () => {
    const { clock, receivers, push, thread, task } = await open();
    await push.pushTask(thread, task);
    clock.mono = 1000;
    // It reached the backend before the shown state was seen: the stream got there first.
    receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_INPUT_REQUIRED" } } }, WALL0 - 10);
    receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } }, WALL0 + 900);
    await push.poll();
    expect(task.record.steps.map((s) => s.raw)).toEqual(["TASK_STATE_WORKING"]);
    receivers.post("r1", { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_CANCELED" } } }, WALL0 + 950);
    receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } }, WALL0 + 960);
    await push.poll();
    expect(task.record.steps.map((s) => s.raw)).toEqual(["TASK_STATE_WORKING", "TASK_STATE_CANCELED"]);
    expect(pushed(thread)).toHaveLength(4);
  });

  it("closes and deletes the receiver once the task has ended and gone quiet", async () => {
    const { clock, receivers, scheduler, push, thread, task } = await open();
    await push.pushTask(thread, task);
    clock.mono = 100;
    receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_COMPLETED" } } }, WALL0 + 100);
    await push.poll();
    expect(task.terminal).toBe(true);
    // Still open: notifications may be on their way.
    clock.mono = 900;
    await push.poll();
    expect(push.receiverFor("t1")?.open).toBe(true);
    clock.mono = 1200;
    await push.poll();
    expect(push.receiverFor("t1")?.closedWhy).toBe("the task ended");
    expect(receivers.removed).toEqual([{ id: "r1", keepalive: false }]);
    expect(scheduler.pending).toBe(0);
  });

  it("runs the poll on the scheduler, pauses while hidden, and deletes everything with keepalive when the page goes", async () => {
    const { receivers, scheduler, push, thread, task } = await open();
    await push.pushTask(thread, task);
    receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } }, WALL0 + 1);
    scheduler.advance(400);
    await new Promise((r) => setTimeout(r, 0));
    expect(receivers.reads).toEqual([{ id: "r1", after: 0 }]);
    expect(scheduler.pending).toBe(1);
    push.setHidden(true);
    expect(scheduler.pending).toBe(0);
    push.setHidden(false);
    expect(scheduler.pending).toBe(1);
    push.closeAll("the page was closed");
    await new Promise((r) => setTimeout(r, 0));
    expect(receivers.removed).toEqual([{ id: "r1", keepalive: true }]);
    expect(scheduler.pending).toBe(0);
  });

  it("names what the backend dropped, and a receiver the backend no longer has", async () => {
    const { receivers, push, thread, task } = await open();
    await push.pushTask(thread, task);
    for (let i = 0; i < 3; i++) receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } }, WALL0 + i);
    receivers.drop("r1", 2);
    await push.poll();
    expect(thread.timeline.some((e) => e.text === "2 push notification(s) dropped by the backend's bound before they were read" && e.tone === "warn")).toBe(true);
    expect(pushed(thread)).toHaveLength(1);
    receivers.forget("r1");
    await push.poll();
    expect(push.receiverFor("t1")?.closedWhy).toMatch(/^the backend no longer has it/);
  });

  it("closes the receiver when the agent refuses the push config", async () => {
    const refuse = (id: unknown) => json({ jsonrpc: "2.0", id, error: { code: -32003, message: "Push Notification is not supported" } });
    const { receivers, push, thread, task } = await open(refuse);
    await push.pushTask(thread, task);
    const r = push.receiverFor("t1")!;
    expect(r.open).toBe(false);
    expect(r.closedWhy).toMatch(/^the agent did not take the push config \(.*Push Notification is not supported\)$/);
    expect(receivers.removed).toEqual([{ id: "r1", keepalive: false }]);
  });

  it("fills Compose's push config with a receiver for its task, which lands on that task's thread", async () => {
    const { a2a, receivers, push, thread } = await open();
    const compose = a2a.compose;
    compose.operation = "push-set";
    compose.taskId = "";
    expect(await receiveInCompose(push, compose, a2a.conversations)).toBe("give the taskId first: a receiver is made for one task");
    compose.taskId = "t1";
    expect(await receiveInCompose(push, compose, a2a.conversations)).toBeNull();
    expect(compose.pushUrl).toBe(`${HOOKS}/hooks/a2a/r1`);
    expect(compose.pushToken).toBe("token-r1");
    expect(JSON.parse(compose.text)).toMatchObject({ method: "CreateTaskPushNotificationConfig", params: { taskId: "t1", url: `${HOOKS}/hooks/a2a/r1`, token: "token-r1" } });
    receivers.post("r1", { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_COMPLETED" } } }, WALL0 + 5);
    await push.poll();
    expect(pushed(thread)).toHaveLength(1);
    expect(thread.task("t1")?.record.state).toBe("completed");
  });

  it("says so when there is no backend", async () => {
    const { push, thread, task } = await open(undefined, false);
    expect(push.available).toBe(false);
    await push.pushTask(thread, task);
    expect(task.actionError).toBe("push notifications to Patchbay need its backend, and this page has none");
  });
});
