import { afterEach, describe, expect, it } from "vitest";
import { ManualScheduler } from "../../env/scheduler.ts";
import type { A2aAgent } from "./a2a-agent.ts";
import { call, rpc, settle, streamed, testAgent, v03, v10, type Json } from "./test-harness.ts";

const agents: A2aAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

const result = (answer: Json) => answer.result as Json;
const task = (answer: Json) => (result(answer).task ?? result(answer)) as Json;
const state = (t: Json) => (t.status as Json).state;
const statusText = (t: Json) => (((t.status as Json).message as Json | undefined)?.parts as Json[] | undefined)?.map((p) => p.text).join("");

function manual(options: Parameters<typeof testAgent>[0] = {}) {
  const scheduler = new ManualScheduler();
  const agent = testAgent(options, scheduler);
  agents.push(agent);
  const get = async (id: unknown) => result(await rpc(agent, "tasks/get", { id }));
  return { agent, scheduler, get };
}

describe("ai:confirm tools, kept and asked about in their task", () => {
  const ask = (text: string, id: unknown) => v03([{ text }], { taskId: id });

  it("stop at input-required with the question; yes runs the tool in the same task", async () => {
    const { agent } = manual({ confirm: "ask" });
    expect([...agent.skills.keys()]).toContain("confirm");
    const asked = task(await rpc(agent, "message/send", v03([{ data: { skill: "confirm", arguments: { action: "wipe" } } }])));
    expect(state(asked)).toBe("input-required");
    expect(statusText(asked)).toContain('Tool: confirm\nWhat: confirm {"action":"wipe"}\n\nApprove? Answer "yes"');
    expect(agent.executor.counts).toEqual({ running: 0, awaitingApproval: 1 });
    const unclear = task(await rpc(agent, "message/send", ask("hmm", asked.id)));
    expect(state(unclear)).toBe("input-required");
    expect(statusText(unclear)).toMatch(/^That was neither yes nor no\./);
    const done = task(await rpc(agent, "message/send", ask("yes", asked.id)));
    expect(done).toMatchObject({ id: asked.id, status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "done: wipe" }] }] });
    expect(agent.executor.counts.awaitingApproval).toBe(0);
  });

  it("no, or no answer in time, cancels the task without running it; so does a cancel", async () => {
    const { agent, scheduler, get } = manual({ confirm: "ask", approvalTimeoutMs: 1000 });
    const send = async () => task(await rpc(agent, "SendMessage", v10([call("confirm", { action: "x" })]), "1.0"));
    const refused = await send();
    const answer = task(await rpc(agent, "SendMessage", v10([{ data: { approve: false } }], { taskId: refused.id }), "1.0"));
    expect(state(answer)).toBe("TASK_STATE_CANCELED");
    expect(statusText(answer)).toBe('Not run: you refused confirm {"action":"x"}.');
    const ignored = await send();
    scheduler.advance(1000);
    await settle();
    expect(statusText(await get(ignored.id))).toBe('Not run: confirm {"action":"x"} was not approved within 1 s.');
    const dropped = await send();
    expect(state(result(await rpc(agent, "CancelTask", { id: dropped.id }, "1.0")))).toBe("TASK_STATE_CANCELED");
    expect(agent.executor.counts).toEqual({ running: 0, awaitingApproval: 0 });
  });

  it("are not served at all unless asked", () => {
    const { agent } = manual();
    expect(agent.skills.has("confirm")).toBe(false);
    expect(agent.entries.find((e) => e.tool.name === "confirm")?.served).toBe(false);
  });
});

describe("a message to a task that is running a tool", () => {
  it("is kept in its history and answered with the task; a task still waiting to start waits its whole hold again, and the tool runs once", async () => {
    const { agent, scheduler, get } = manual({ holdMs: 1000 });
    const first = task(await rpc(agent, "SendMessage", v10([{ text: "once" }], {}, { returnImmediately: true }), "1.0"));
    const id = first.id as string;
    scheduler.advance(800);
    await settle();
    const followUp = task(await rpc(agent, "message/send", v03([{ text: "more" }], { taskId: id })));
    expect(followUp).toMatchObject({ id, status: { state: "working" } });
    expect((followUp.history as Json[]).map((m) => (m.parts as Json[])[0]?.text)).toContain("more");
    scheduler.advance(800);
    await settle();
    expect(state(await get(id))).toBe("working");
    scheduler.advance(200);
    await settle();
    const done = await get(id);
    expect(state(done)).toBe("completed");
    expect(done.artifacts).toEqual([{ artifactId: expect.any(String), name: "result", parts: [{ kind: "text", text: "once" }] }]);
  });

  it("streamed, follows the running task instead of starting another run", async () => {
    const { agent, scheduler } = manual({ holdMs: 500 });
    const id = task(await rpc(agent, "SendMessage", v10([{ text: "x" }], {}, { returnImmediately: true }), "1.0")).id;
    const following = streamed(agent, "SendStreamingMessage", v10([{ text: "y" }], { taskId: id }), "1.0");
    await settle();
    scheduler.advance(500);
    const events = await following;
    expect(Object.keys(result(events[0]!))).toEqual(["task"]);
    expect(((result(events.at(-1)!).statusUpdate as Json).status as Json).state).toBe("TASK_STATE_COMPLETED");
    expect(events.filter((e) => "artifactUpdate" in result(e))).toHaveLength(1);
  });
});

describe("the behaviours the A2A TCK documents", () => {
  it("a v0.3 send without configuration returns at once; with blocking, or in v1.0, it waits", async () => {
    const { agent, scheduler } = manual({ tck: { streamingTimeoutS: 2 }, holdMs: 100, concurrency: 4 });
    const atOnce = task(await rpc(agent, "message/send", v03([{ text: "a" }])));
    expect(state(atOnce)).toBe("submitted");
    const blocking = rpc(agent, "message/send", { ...v03([{ text: "b" }]), configuration: { blocking: true } });
    const v1 = rpc(agent, "SendMessage", v10([{ text: "c" }]), "1.0");
    await settle();
    scheduler.advance(100);
    expect(state(task(await blocking))).toBe("completed");
    expect(state(task(await v1))).toBe("TASK_STATE_COMPLETED");
  });

  it("without the TCK's behaviours a v0.3 send without configuration blocks", async () => {
    const { agent } = manual();
    expect(state(task(await rpc(agent, "message/send", v03([{ text: "a" }]))))).toBe("completed");
  });

  it("a test-resubscribe-message-id task keeps running 2 × TCK_STREAMING_TIMEOUT", async () => {
    const { agent, scheduler, get } = manual({ tck: { streamingTimeoutS: 2 }, holdMs: 0 });
    const long = task(await rpc(agent, "message/send", v03([{ text: "r" }], { messageId: "test-resubscribe-message-id-1" })));
    const short = task(await rpc(agent, "message/send", v03([{ text: "s" }], { messageId: "test-other-message-id-1" })));
    await settle();
    expect(state(await get(short.id))).toBe("completed");
    scheduler.advance(3999);
    await settle();
    expect(state(await get(long.id))).toBe("working");
    scheduler.advance(1000);
    await settle();
    expect(state(await get(long.id))).toBe("completed");
  });
});

describe("invalid requests", () => {
  it("a message without parts, and a negative historyLength, are invalid params", async () => {
    const { agent } = manual();
    expect(await rpc(agent, "message/send", v03([]))).toMatchObject({ error: { code: -32602, message: "message.parts must hold at least one part." } });
    expect(await rpc(agent, "tasks/get", { id: "x", historyLength: -1 })).toMatchObject({ error: { code: -32602, message: "historyLength must be 0 or more, not -1." } });
  });
});
