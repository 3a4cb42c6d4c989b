import { describe, expect, it } from "vitest";
import type { ElicitRequest } from "../../../core/fisk/codec/index.ts";
import { NOT_CONNECTED } from "./fisk-api.ts";
import { AgentsState } from "./agents-state.svelte.ts";
import { TaskState } from "./task-state.svelte.ts";
import { entry, FakeClient, type FakeHandle, fakeSource } from "./test-fakes.ts";

const QUESTION = {
  protocol: "io.choria.fisk-ai.v1.elicit.request.confirm",
  request: "req1",
  conversation: "c1",
  question_id: "q1",
  tool_use_id: "toolu_1",
  question: "Delete?",
} as unknown as ElicitRequest;

const DONE = { end: { kind: "terminal" as const, entry: entry("result", { stop_reason: "end_turn" }, "terminal") }, terminal: { stop_reason: "end_turn" } as never, conversationTokenSeen: true, gaps: 0 };

function setup() {
  const client = new FakeClient();
  const source = fakeSource(client);
  const tasks = new TaskState(source);
  tasks.identity = "alpha";
  tasks.prompt = "list the streams";
  return { client, source, tasks, handle: client.handle };
}

describe("TaskState", () => {
  it("composes request.prompt with only the fields set", () => {
    const { client, tasks } = setup();
    tasks.context = "ctx";
    tasks.stream = false;
    tasks.replay = "2";
    tasks.maxTokens = "4096";
    void tasks.start();
    expect(client.calls[0]).toEqual([
      "startTask",
      "alpha",
      { kind: "prompt", prompt: "list the streams", context: "ctx", stream: false, replay: 2, budget: { max_tokens: 4096 } },
      120_000,
    ]);
    expect(tasks.running).toBe(true);
    expect(tasks.request).toBe("req1");
  });

  it("names what is missing or wrong before sending", () => {
    const { client, source, tasks } = setup();
    tasks.maxIterations = "1.5";
    void tasks.start();
    expect(tasks.error).toBe("max iterations must be a whole number above 0");
    tasks.maxIterations = "";
    tasks.mode = "read";
    void tasks.start();
    expect(tasks.error).toBe("paste the conversation token of the conversation to continue");
    tasks.identity = "bad id";
    void tasks.start();
    expect(tasks.error).toMatch(/^agent identity "bad id" is not valid/);
    tasks.identity = "alpha";
    tasks.mode = "prompt";
    source.connected = false;
    void tasks.start();
    expect(tasks.error).toBe(NOT_CONNECTED);
    expect(client.calls).toEqual([]);
  });

  it("resume and read carry the pasted token to the client and nowhere else", () => {
    const { client, tasks } = setup();
    tasks.mode = "resume";
    tasks.tokenInput = " tok-9 ";
    void tasks.start();
    expect(client.calls[0]?.[2]).toEqual({ kind: "resume", conversation_token: "tok-9", prompt: "list the streams" });
  });

  it("follows the stream, answers a question, and ends with the result", async () => {
    const { tasks, handle } = setup();
    void tasks.start();
    handle.emit({ type: "entry", entry: entry("ack", { sequence: 1, accepted: true, conversation_token: "SECRET" }, "ack") });
    handle.emit({ type: "entry", entry: entry("event.text", { sequence: 2, block: { text: "hi" } }, "event") });
    handle.emit({ type: "question", question: QUESTION });
    expect(tasks.items.map((i) => i.kind)).toEqual(["ack", "text"]);
    expect(tasks.questions).toHaveLength(1);
    await tasks.answer(QUESTION, { kind: "confirm", confirmed: false });
    expect(handle.calls).toEqual(['answer q1 {"kind":"confirm","confirmed":false}']);
    expect(tasks.notice).toBe("Answer delivered.");
    handle.emit({ type: "question-closed", questionId: "q1", how: "answered" });
    expect(tasks.questions).toEqual([]);
    expect(tasks.closed).toEqual({ q1: "answered" });
    handle.end(DONE);
    await Promise.resolve();
    expect(tasks.running).toBe(false);
    expect(tasks.endText).toBe("finished: end_turn");
    expect(tasks.redact('{"t":"SECRET"}')).toBe('{"t":"•••"}');
  });

  it("keeps each open question's answer draft until the question closes", () => {
    const { tasks, handle } = setup();
    void tasks.start();
    handle.emit({ type: "question", question: QUESTION });
    const draft = tasks.drafts.get("q1");
    expect(draft?.answer()).toEqual({ kind: "confirm", confirmed: true });
    draft!.confirmed = false;
    handle.emit({ type: "question", question: QUESTION });
    expect(tasks.drafts.get("q1")?.answer()).toEqual({ kind: "confirm", confirmed: false });
    handle.emit({ type: "question-closed", questionId: "q1", how: "answered" });
    expect(tasks.drafts.size).toBe(0);
  });

  it("dismisses with no_operator, and keeps an undelivered answer to send later as request.answer", async () => {
    const { tasks, handle } = setup();
    void tasks.start();
    handle.openQuestions.push(QUESTION);
    await tasks.answer(QUESTION, { kind: "no_operator" });
    expect(handle.calls).toEqual(["dismiss q1"]);
    handle.answerOutcome = { kind: "kept", reason: "the run ended" };
    await tasks.answer(QUESTION, { kind: "confirm", confirmed: true });
    expect(tasks.notice).toMatch(/could not be delivered \(the run ended\)/);
    expect(tasks.unsent).toHaveLength(1);
    tasks.sendLater(tasks.unsent[0]!);
    expect(tasks.error).toBe("wait for the running task to end before sending a kept answer");
    handle.end(DONE);
    await Promise.resolve();
    tasks.sendLater(tasks.unsent[0]!);
    expect(handle.calls.at(-1)).toBe("sendUnsent 0");
    expect(tasks.unsent).toEqual([]);
    expect(tasks.running).toBe(true);
    expect(tasks.entries).toEqual([]);
  });

  it("reports each cancel outcome, and follows up on the kept conversation", async () => {
    const { tasks, handle } = setup();
    void tasks.start();
    await tasks.cancel();
    expect(handle.calls[0]).toBe("cancel cancelled from the Patchbay console");
    expect(tasks.notice).toMatch(/^Cancel accepted/);
    handle.cancelOutcome = { kind: "refused", code: "400", description: "bad cancel" };
    await tasks.cancel();
    expect(tasks.error).toBe("Cancel refused (400): bad cancel");
    handle.end(DONE);
    await Promise.resolve();
    tasks.prompt = "and now?";
    tasks.followUp();
    expect(handle.calls.at(-1)).toBe("followUp and now?");
    expect(tasks.running).toBe(true);
    const next = handle.next as FakeHandle;
    next.emit({ type: "entry", entry: entry("ack", { sequence: 1 }, "ack") });
    handle.emit({ type: "entry", entry: entry("event.text", { block: { text: "stale" } }, "event") });
    expect(tasks.items.map((i) => i.kind)).toEqual(["ack"]);
  });

  describe("with the agents the page knows", () => {
    function withAgents() {
      const client = new FakeClient();
      const source = fakeSource(client);
      const agents = new AgentsState(source);
      const tasks = new TaskState(source, agents);
      tasks.identity = "patchbay-demo";
      tasks.prompt = "hello";
      return { client, agents, tasks };
    }
    const demo = { identity: "patchbay-demo", instanceId: "i1", version: "0.0.0", endpoints: [{ name: "discovery", subject: "choria.fisk-ai.discovery.patchbay-demo" }, { name: "tool", subject: "choria.fisk-ai.tool.patchbay-demo" }] };

    it("asks $SRV.INFO which endpoints the agent serves, says so, and refuses to send a task it cannot answer", async () => {
      const { client, tasks } = withAgents();
      client.infos.set("patchbay-demo", { kind: "info", agent: demo, subject: "$SRV.INFO.patchbay-demo" });
      await tasks.start();
      expect(client.calls).toEqual([["agentInfo", "patchbay-demo"]]);
      expect(tasks.shownError).toBe("patchbay-demo does not serve tasks: its micro service names the endpoints discovery, tool (from $SRV.INFO.patchbay-demo), and no task; a task would only wait for the idle limit");
      expect(tasks.served).toBe("patchbay-demo serves discovery, tool (from $SRV.INFO.patchbay-demo): no task endpoint, so it answers no tasks");
      expect(tasks.running).toBe(false);
      tasks.identity = "worker";
      expect(tasks.shownError).toBeNull();
    });

    it("sends when the agent lists a task endpoint, or when nothing is known; the idle limit may go below 30 s", async () => {
      const { client, agents, tasks } = withAgents();
      client.listing = { agents: [{ ...demo, endpoints: [...demo.endpoints, { name: "task", subject: "choria.fisk-ai.task.patchbay-demo" }] }], otherServices: 0, elapsedMs: 1 };
      await agents.find();
      tasks.idleSeconds = 2;
      expect(tasks.shortIdle).toBe(true);
      await tasks.start();
      expect(client.calls.at(-1)).toEqual(["startTask", "patchbay-demo", { kind: "prompt", prompt: "hello" }, 2000]);
      expect(tasks.running).toBe(true);
    });

    it("a task that finds no responders marks the agent gone, and a stream from another agent is marked stale", async () => {
      const { client, agents, tasks } = withAgents();
      client.discoveries.set("patchbay-demo", { identity: "patchbay-demo", subject: "s", requestText: "{}", rttMs: 1, replyText: "{}", outcome: { kind: "card", card: { name: "patchbay-demo", version: "1" }, generation: "gen2", evidence: [] } });
      await agents.discover("patchbay-demo");
      await tasks.start();
      client.handle.end({ end: { kind: "no-responders", via: { subject: "$SRV.PING.patchbay-demo", silentMs: 1500 } }, conversationTokenSeen: false, gaps: 0 });
      await Promise.resolve();
      expect(agents.gone["patchbay-demo"]?.reason).toBe("a task found nothing serving it: $SRV.PING.patchbay-demo got no responders");
      expect(tasks.staleStream).toBeNull();
      tasks.identity = "other";
      expect(tasks.staleStream).toBe("this stream is from patchbay-demo, not other");
    });
  });
});
