import { describe, expect, it } from "vitest";
import { A2aState } from "./a2a-state.svelte.ts";
import { FakeAgent, fakeDeps, json, rpc, sse } from "./test-fakes.ts";

const BASE = "http://agent.test";
const cardV10 = { name: "n", description: "d", version: "1", capabilities: { streaming: true }, skills: [], supportedInterfaces: [{ url: `${BASE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }] };
const cardV02 = { name: "n", description: "d", url: `${BASE}/`, version: "1", capabilities: {}, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [], securitySchemes: {} };
const cardV01 = { name: "n", url: `${BASE}/`, version: "1", capabilities: {}, skills: [], authentication: { schemes: [] } };

type Body = { id: unknown; method: string; params: Record<string, unknown> };
const method = (name: string) => (_: unknown, body: unknown) => (body as Body | undefined)?.method === name;

async function open(agent: FakeAgent, card: object) {
  agent.on((s) => s.method === "GET", () => json(card));
  const { deps, frames } = fakeDeps(agent);
  const a2a = new A2aState(deps);
  a2a.card.url = BASE;
  await a2a.card.fetch();
  return { a2a, frames, compose: a2a.compose, conversations: a2a.conversations };
}

const bodies = (agent: FakeAgent) => agent.sent.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body ?? "{}") as Body);

describe("ConversationsState", () => {
  it("follows a v1.0 stream: every frame in order with its time, the state steps, the artifact assembled, every frame logged", async () => {
    const agent = new FakeAgent().on(method("SendStreamingMessage"), (_, b) => {
      const id = (b as Body).id;
      return sse([
        rpc(id, { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_SUBMITTED" } } }),
        rpc(id, { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: { artifactId: "a", parts: [{ text: "one " }] }, append: false, lastChunk: false } }),
        rpc(id, { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: { artifactId: "a", parts: [{ text: "two" }] }, append: true, lastChunk: true } }),
        rpc(id, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } }),
      ]);
    });
    const { compose, conversations, frames } = await open(agent, cardV10);
    compose.operation = "stream";
    await compose.send();
    const thread = conversations.current!;
    expect(thread.key).toBe("c1");
    expect(thread.contextWord).toBe("contextId");
    const task = thread.task("t1")!;
    expect(task.record.state).toBe("completed");
    expect(task.record.steps.map((s) => s.raw)).toEqual(["TASK_STATE_SUBMITTED", "TASK_STATE_COMPLETED"]);
    expect(task.record.artifacts).toEqual([{ artifactId: "a", parts: [{ text: "one " }, { text: "two" }], chunks: 2, complete: true }]);
    expect(thread.timeline.map((e) => e.direction)).toEqual(["out", "in", "in", "in", "in", "end"]);
    expect(thread.timeline.at(-1)?.text).toBe("the stream ended at a terminal state");
    const times = thread.timeline.filter((e) => e.direction === "in").map((e) => e.at);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(compose.live?.frames).toHaveLength(4);
    // The out frame and each SSE event, before parsing, on the a2a-http channel.
    expect(frames.filter((f) => f.channel === "a2a-http" && f.target === `${BASE}/rpc`).map((f) => f.direction)).toEqual(["out", "in", "in", "in", "in"]);
  });

  it("answers input-required in the same task and context (v0.2)", async () => {
    const agent = new FakeAgent()
      .on(method("message/send"), (_, b) => json(rpc((b as Body).id, { kind: "task", id: "t1", contextId: "c1", status: { state: "input-required", message: { role: "agent", parts: [{ kind: "text", text: "Which colour?" }] } } })))
      .on(method("message/stream"), (_, b) => sse([rpc((b as Body).id, { kind: "status-update", taskId: "t1", contextId: "c1", status: { state: "completed" }, final: true })]));
    const { compose, conversations } = await open(agent, cardV02);
    await compose.send();
    const thread = conversations.current!;
    const task = thread.task("t1")!;
    expect(task.interrupted).toBe(true);
    expect(task.record.steps[0]?.text).toBe("Which colour?");
    await conversations.reply(thread, task);
    expect(task.actionError).toBe("type the answer first");
    task.replyText = "blue";
    await conversations.reply(thread, task);
    const reply = bodies(agent).at(-1)!;
    expect(reply.method).toBe("message/stream");
    expect(reply.params.message).toMatchObject({ taskId: "t1", contextId: "c1", parts: [{ kind: "text", text: "blue" }] });
    expect(task.record.state).toBe("completed");
    expect(task.replyText).toBe("");
    expect(conversations.threads).toHaveLength(1);
  });

  it("continues a v0.1 task by resending its client-chosen id with the sessionId", async () => {
    const agent = new FakeAgent()
      .on(method("tasks/send"), (_, b) => json(rpc((b as Body).id, { id: (b as Body).params.id, sessionId: "s1", status: { state: "input-required" } })));
    const { compose, conversations } = await open(agent, cardV01);
    await compose.send();
    const first = bodies(agent)[0]!;
    // The client named the task (and gets a fresh name ready for the next one).
    expect(first.params.id).toBe("id-2");
    expect(compose.text).not.toContain('"id-2"');
    const thread = conversations.current!;
    expect(thread.contextWord).toBe("sessionId");
    const task = thread.tasks[0]!;
    expect(task.taskId).toBe(first.params.id);
    task.replyText = "go on";
    task.replyStream = false;
    await conversations.reply(thread, task);
    const next = bodies(agent).at(-1)!;
    expect(next.method).toBe("tasks/send");
    expect(next.params).toMatchObject({ id: first.params.id, sessionId: "s1", message: { role: "user", parts: [{ type: "text", text: "go on" }] } });
  });

  it("names a stream that breaks off and resubscribes to the task", async () => {
    const agent = new FakeAgent()
      .on(method("SendStreamingMessage"), (_, b) => sse([rpc((b as Body).id, { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } })]))
      .on(method("SubscribeToTask"), (_, b) => sse([rpc((b as Body).id, { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } })]));
    const { compose, conversations } = await open(agent, cardV10);
    compose.operation = "stream";
    await compose.send();
    const thread = conversations.current!;
    const task = thread.task("t1")!;
    expect(task.streamFailure).toMatchObject({ kind: "stream-broken", message: expect.stringContaining("resubscribe") });
    await conversations.act(thread, task, "subscribe");
    expect(bodies(agent).at(-1)).toMatchObject({ method: "SubscribeToTask", params: { id: "t1" } });
    expect(task.streamFailure).toBeNull();
    expect(task.record.state).toBe("completed");
  });

  it("names errors by version, and offers only the operations the dialect has", async () => {
    const agent = new FakeAgent()
      .on(method("SendMessage"), (_, b) => json(rpc((b as Body).id, { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } })))
      .on(method("GetTask"), (_, b) => json({ jsonrpc: "2.0", id: (b as Body).id, error: { code: -32001, message: "Task not found: t1", data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND" }] } }))
      .on(method("ListTasks"), (_, b) => json(rpc((b as Body).id, { tasks: [{ id: "t1", contextId: "c1", status: { state: "TASK_STATE_CANCELED" } }] })));
    const { compose, conversations } = await open(agent, cardV10);
    await compose.send();
    const thread = conversations.current!;
    const task = thread.task("t1")!;
    await conversations.act(thread, task, "get");
    expect(thread.timeline.some((e) => e.text === "TaskNotFoundError (-32001) [TASK_NOT_FOUND]: Task not found: t1" && e.tone === "bad")).toBe(true);
    expect(conversations.offers(thread, "list")).toBe(true);
    await conversations.act(thread, task, "list");
    expect(bodies(agent).at(-1)).toMatchObject({ method: "ListTasks", params: { contextId: "c1" } });
    expect(task.record.state).toBe("canceled");
  });

  it("keeps threads apart by context, and v0.2 offers no task listing", async () => {
    let n = 0;
    const agent = new FakeAgent().on(method("message/send"), (_, b) => {
      n++;
      return json(rpc((b as Body).id, { kind: "task", id: `t${n}`, contextId: `c${n}`, status: { state: "completed" } }));
    });
    const { compose, conversations } = await open(agent, cardV02);
    await compose.send();
    await compose.send();
    expect(conversations.threads.map((t) => t.key)).toEqual(["c2", "c1"]);
    expect(conversations.current?.key).toBe("c2");
    expect(conversations.offers(conversations.current!, "list")).toBe(false);
  });
});
