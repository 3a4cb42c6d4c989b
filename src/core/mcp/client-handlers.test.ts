import { describe, expect, it } from "vitest";
import { RequestRefusal, SAMPLING_DECLINED_CODE, samplingResultProblem } from "./client-handlers.ts";
import { McpConnection } from "./connection.ts";
import type { ClientHandlers, ConnectOptions } from "./connection-types.ts";
import { clientFeatureServer, linked } from "./test-servers.ts";

const clientInfo = { name: "patchbay-test", version: "0.0.0" };
const stub = { role: "assistant", content: { type: "text", text: "short answer" }, model: "patchbay-stub", stopReason: "endTurn" } as const;

async function connected(handlers: ClientHandlers = {}, options: Partial<ConnectOptions> = {}) {
  const { server, seen } = clientFeatureServer();
  const connection = new McpConnection();
  const errors: Error[] = [];
  connection.on("error", (e) => errors.push(e));
  await connection.connect(await linked(server), { clientInfo, capabilities: { sampling: true, roots: true }, handlers, ...options });
  return { connection, seen, errors };
}

function textOf(outcome: Awaited<ReturnType<McpConnection["callTool"]>>): string {
  if (outcome.kind !== "success") throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
  return (outcome.result.content as { text: string }[])[0]?.text ?? "";
}

describe("sampling", () => {
  it("passes the request to the handler and its answer to the server", async () => {
    const asked: unknown[] = [];
    const { connection } = await connected({ sampling: async (params) => (asked.push(params), stub) });
    const text = textOf(await connection.callTool("ask-model", { prompt: "why?" }));
    expect(JSON.parse(text)).toEqual(stub);
    expect(asked).toEqual([
      {
        messages: [{ role: "user", content: { type: "text", text: "why?" } }],
        systemPrompt: "Answer briefly.",
        maxTokens: 50,
        modelPreferences: { hints: [{ name: "small" }], speedPriority: 1 },
      },
    ]);
  });

  it("answers a refusal as exactly that JSON-RPC error (the server's SDK adds its own prefix once)", async () => {
    const { connection } = await connected({
      sampling: () => Promise.reject(new RequestRefusal(SAMPLING_DECLINED_CODE, "The user declined the sampling request.")),
    });
    expect(textOf(await connection.callTool("ask-model", { prompt: "why?" }))).toBe("refused -1: MCP error -1: The user declined the sampling request.");
  });

  it("says which member of an answer is wrong, with tool-use content allowed only when tools were offered", () => {
    const params = { messages: [], maxTokens: 10 };
    expect(samplingResultProblem(params, stub)).toBeNull();
    expect(samplingResultProblem(params, { ...stub, model: 7 })).toBe("This is not a CreateMessageResult: model: expected string, received number.");
    expect(samplingResultProblem(params, [])).toMatch(/^This is not a CreateMessageResult: the answer: expected object/);
    const list = { ...stub, content: [stub.content] };
    expect(samplingResultProblem(params, list)).toMatch(/^This is not a CreateMessageResult: content/);
    expect(samplingResultProblem({ ...params, tools: [{ name: "t", inputSchema: { type: "object" } }] }, list)).toBeNull();
  });
});

describe("roots", () => {
  it("answers roots/list from the handler and tells the server when they change", async () => {
    let roots = [{ uri: "file:///work", name: "work" }];
    const { connection, seen } = await connected({ roots: async () => roots });
    expect(JSON.parse(textOf(await connection.callTool("list-roots", {})))).toEqual({ roots });
    roots = [];
    await connection.sendRootsListChanged();
    await new Promise((r) => setTimeout(r, 5));
    expect(seen.rootsChanged).toBe(1);
    expect(JSON.parse(textOf(await connection.callTool("list-roots", {})))).toEqual({ roots: [] });
  });
});

describe("progress and cancellation", () => {
  it("keeps a progressToken given in _meta, and reports its progress as events, not errors", async () => {
    const { connection, errors } = await connected();
    const events: unknown[] = [];
    connection.on("progress", (p) => events.push(p));
    const outcome = await connection.callTool("count", { steps: 2, withTotal: false }, { meta: { progressToken: "mine", note: 1 } });
    expect(textOf(outcome)).toBe('token "mine"');
    expect(events).toEqual([
      { progressToken: "mine", progress: 10, message: "tick 1" },
      { progressToken: "mine", progress: 20, message: "tick 2" },
    ]);
    expect(errors).toEqual([]);
  });

  it("leaves progress under the SDK's own token to onProgress", async () => {
    const { connection, errors } = await connected();
    const events: unknown[] = [];
    const seen: unknown[] = [];
    connection.on("progress", (p) => events.push(p));
    const outcome = await connection.callTool("count", { steps: 2, withTotal: true }, { onProgress: (p) => seen.push(p) });
    expect(textOf(outcome)).toMatch(/^token \d+$/);
    expect(seen).toEqual([
      { progress: 10, total: 20, message: "tick 1" },
      { progress: 20, total: 20, message: "tick 2" },
    ]);
    expect(events).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("sends notifications/cancelled with the reason when a call is aborted", async () => {
    const { connection, seen } = await connected();
    const abort = new AbortController();
    const pending = connection.callTool("wait", {}, { signal: abort.signal });
    await new Promise((r) => setTimeout(r, 5));
    abort.abort("stop now");
    expect(await pending).toEqual({ kind: "cancelled", reason: "stop now" });
    await new Promise((r) => setTimeout(r, 5));
    expect(seen.cancelled).toEqual([{ reason: "stop now" }]);
  });
});
