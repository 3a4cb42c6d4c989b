/**
 * input_required rounds and tasks in the 2026-07-28 era, through the real relay to the modern
 * test server: each round's requests answered by the client's handlers (a declined elicitation
 * included) and retried with the server's requestState, a tampered requestState refused; a tool
 * run as a task (io.modelcontextprotocol/tasks) polled at the server's interval, fed input with
 * tasks/update, cancelled, and the server's mistakes named (a task it forgot, an answer about
 * another task).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskError, type InputRound, type McpConnection } from "../../src/core/mcp/index.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { relayed, type Relayed } from "../helpers/mcp-connect.ts";
import { startModernServer, type ModernServer } from "../helpers/modern-mcp-server.ts";

let backend: TestBackend;
let server: ModernServer;
let session: Relayed;
let c: McpConnection;
/** What the elicitation handler answers next. */
let elicitAnswer: { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> } = { action: "accept", content: { confirm: true } };
const elicited: unknown[] = [];

beforeAll(async () => {
  backend = await startTestBackend();
  server = await startModernServer();
  session = await relayed(backend, { transport: "streamable-http", url: server.url }, {
    era: "auto",
    capabilities: { elicitation: true, sampling: true, roots: true },
    handlers: {
      elicitation: async (params) => (elicited.push(params), elicitAnswer),
      sampling: async () => ({ role: "assistant", content: { type: "text", text: "Paris" }, model: "patchbay-stub", stopReason: "endTurn" }),
      roots: async () => [{ uri: "file:///work", name: "work" }],
    },
  });
  c = session.connection;
});

afterAll(async () => {
  await session?.close();
  await server?.close();
  await backend?.close();
});

const textOf = (outcome: Awaited<ReturnType<McpConnection["callTool"]>>) => (outcome.kind === "success" || outcome.kind === "tool-error" ? ((outcome.result.content as { text: string }[])[0]?.text ?? "") : JSON.stringify(outcome));

describe("input_required rounds", () => {
  it("shows the round, answers it from the handler, and retries as a new request; the frames tell the conversation", async () => {
    elicitAnswer = { action: "accept", content: { confirm: true } };
    const rounds: InputRound[] = [];
    const sent: number[] = [];
    const outcome = await c.callTool("confirm-delete", { filename: "a.txt" }, { onInputRound: (r) => rounds.push(r), onRequest: (id) => sent.push(id) });
    expect(textOf(outcome)).toBe("deleted a.txt");
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ index: 1, requests: [{ key: "confirm", method: "elicitation/create", kind: "elicitation", params: { message: "Delete a.txt?" } }] });
    expect(sent).toHaveLength(2);
    expect(rounds[0]!.requestId).toBe(sent[0]);
    const calls = session.frames((e) => e.direction === "out").filter((f) => sent.includes(f.value.id as number));
    expect(calls.map((f) => (f.value.params as Record<string, unknown>).inputResponses)).toEqual([undefined, { confirm: { action: "accept", content: { confirm: true } } }]);
    const answers = session.frames((e) => e.direction === "in").filter((f) => sent.includes(f.value.id as number));
    expect(answers.map((f) => (f.value.result as { resultType: string }).resultType)).toEqual(["input_required", "complete"]);
  });

  it("sends a declined elicitation back as declined, and the server's answer to it is shown", async () => {
    elicitAnswer = { action: "decline" };
    const outcome = await c.callTool("confirm-delete", { filename: "b.txt" });
    expect(outcome.kind).toBe("tool-error");
    expect(textOf(outcome)).toBe("b.txt was not deleted: the user chose decline");
  });

  it("answers sampling and roots requests from the stubs", async () => {
    expect(textOf(await c.callTool("ask-model", { question: "Capital of France?" }))).toBe("the model (patchbay-stub) said: Paris");
    expect(JSON.parse(textOf(await c.callTool("list-roots", {})))).toEqual([{ uri: "file:///work", name: "work" }]);
  });

  it("echoes the server's requestState byte for byte, over two rounds", async () => {
    const rounds: InputRound[] = [];
    let step = 0;
    const outcome = await c.callTool("wipe-cache", {}, {
      onInputRound: (r) => rounds.push(r),
      answerInput: async (round) => ({ responses: step++ === 0 ? { confirm: { action: "accept", content: { confirm: true } } } : { scope: { action: "accept", content: { scope: "sessions" } } }, requestState: round.requestState, notes: [] }),
    });
    expect(textOf(outcome)).toBe("wiped sessions");
    expect(rounds.map((r) => r.requests.map((q) => q.key))).toEqual([["confirm"], ["scope"]]);
    expect(rounds[0]!.requestState).toBeUndefined();
    expect(rounds[1]!.requestState).toEqual(expect.any(String));
    const retry = session.frames((e) => e.direction === "out").filter((f) => f.value.method === "tools/call").at(-1)!;
    expect((retry.value.params as { requestState?: string }).requestState).toBe(rounds[1]!.requestState);
  });

  it("shows the server's refusal of a tampered requestState as the call's outcome", async () => {
    const outcome = await c.callTool("wipe-cache", {}, {
      answerInput: async (round) => ({
        responses: round.requestState === undefined ? { confirm: { action: "accept", content: { confirm: true } } } : { scope: { action: "accept", content: { scope: "all" } } },
        requestState: round.requestState === undefined ? undefined : `${round.requestState.slice(0, -4)}AAAA`,
        notes: [],
      }),
    });
    expect(outcome).toMatchObject({ kind: "json-rpc-error", code: -32602, message: expect.stringMatching(/requestState/i) });
  });

  it("stops where the page stops answering, with the server's last request kept", async () => {
    const outcome = await c.callTool("confirm-delete", { filename: "c.txt" }, { answerInput: async () => null });
    expect(outcome).toMatchObject({ kind: "input-required", message: "Stopped at round 1: the server's input requests were not answered.", result: { resultType: "input_required" } });
  });

  it("gives up after the most rounds allowed, naming it", async () => {
    const outcome = await c.callTool("confirm-delete", { filename: "d.txt" }, { maxInputRounds: 2, answerInput: async (round) => ({ responses: {}, requestState: round.requestState, notes: [] }) });
    expect(outcome).toMatchObject({ kind: "input-required", message: "The server still wanted input after 2 rounds; the call stopped there." });
  });
});

describe("tasks (io.modelcontextprotocol/tasks)", () => {
  it("says what the server supports: no tasks/list in 2026-07-28", () => {
    expect(c.tasks.support()).toMatchObject({ toolCalls: true, list: false, cancel: true });
  });

  it("starts a tool as a task, follows it at the server's poll interval, and gets the inlined result", async () => {
    const started = await c.callTool("research", { topic: "tides", seconds: 0.5 }, { asTask: {} });
    expect(started).toMatchObject({ kind: "task", task: { status: "working", pollIntervalMs: 200, ttlMs: 60_000 } });
    if (started.kind !== "task") return;
    const seen: string[] = [];
    const end = await c.tasks.follow(started.task, { onUpdate: (t) => seen.push(t.status) });
    expect(end.status).toBe("completed");
    expect(seen.at(-1)).toBe("completed");
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const result = await c.tasks.result(end.taskId, "research");
    expect(textOf(result)).toBe("report on tides");
    const call = session.frames((e) => e.direction === "out").find((f) => f.value.method === "tools/call" && JSON.stringify(f.value).includes("tides"))!;
    expect(call.value.params).toMatchObject({ _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
  });

  it("answers a task waiting for input with tasks/update", async () => {
    elicitAnswer = { action: "accept", content: { meaning: "the snake" } };
    const started = await c.callTool("research", { topic: "python", seconds: 0.2, ambiguous: true }, { asTask: {} });
    if (started.kind !== "task") throw new Error(JSON.stringify(started));
    const end = await c.tasks.follow(started.task, { answer: (round) => c.answerInput(round) });
    expect(end.status).toBe("completed");
    expect(textOf(await c.tasks.result(end.taskId, "research"))).toBe("report on python (the snake)");
    expect(server.tasks.log.filter((l) => l.taskId === end.taskId).map((l) => l.method)).toContain("tasks/update");
  });

  it("cancels a running task", async () => {
    const started = await c.callTool("research", { topic: "slow", seconds: 30 }, { asTask: {} });
    if (started.kind !== "task") throw new Error(JSON.stringify(started));
    expect(await c.tasks.cancel(started.task.taskId)).toBeUndefined();
    expect(await c.tasks.get(started.task.taskId)).toMatchObject({ status: "cancelled" });
    expect(await c.tasks.result(started.task.taskId, "research")).toEqual({ kind: "cancelled", reason: "cancelled by the client" });
  });

  it("names a task the server forgot, and an answer about another task", async () => {
    const started = await c.callTool("research", { topic: "gone", seconds: 30 }, { asTask: {} });
    if (started.kind !== "task") throw new Error(JSON.stringify(started));
    server.tasks.forgetAll();
    await expect(c.tasks.get(started.task.taskId)).rejects.toThrow(new TaskError(`The server does not know task ${started.task.taskId} (expired, or never created here): tasks/get was refused with Unknown task: ${started.task.taskId}`));
    const mixed = await c.callTool("mixed-up", {}, { asTask: {} });
    if (mixed.kind !== "task") throw new Error(JSON.stringify(mixed));
    await expect(c.tasks.get(mixed.task.taskId)).rejects.toThrow(`tasks/get asked about task ${mixed.task.taskId} but the server answered for task task-somebody-else`);
    await expect(c.tasks.list()).rejects.toThrow("2026-07-28 has no tasks/list");
  });

  it("runs the same tool at once when the call does not ask for a task", async () => {
    expect(textOf(await c.callTool("research", { topic: "now", seconds: 0 }))).toBe("report on now (run at once)");
  });
});
