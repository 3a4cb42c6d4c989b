/**
 * More streaming tasks at once than the served agent's concurrency limit, in both versions: as
 * many run as there are slots, the rest are rejected at once with the reason, every stream ends
 * exactly once in its task's final state, no event reaches another task's stream, and the store
 * agrees with each stream. The limit is free again afterwards.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRequest, exchange, isTerminal, type ExchangePorts } from "../../src/core/a2a/index.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { startA2aServing, type A2aServing } from "../../server/serving/a2a-engine.ts";

const LIMIT = 3;
const STREAMS = 12;
const ports: ExchangePorts = { fetch: (url, init) => fetch(url, init), now: () => performance.now() };
let agent: A2aServing;

beforeAll(async () => {
  agent = await startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, concurrency: LIMIT });
});
afterAll(() => agent.close());

describe("a load above the concurrency limit", () => {
  it("runs as many as the limit, rejects the rest at once, and answers every stream exactly once", async () => {
    const runs = Array.from({ length: STREAMS }, (_, i) => {
      const dialect = i % 2 === 0 ? ("1.0" as const) : ("0.3" as const);
      const binding = i % 4 < 2 ? ("jsonrpc" as const) : ("rest" as const);
      const url = binding === "jsonrpc" ? agent.jsonRpcUrl : agent.restUrl;
      const message = { messageId: randomUUID(), parts: [{ kind: "data" as const, data: { skill: "sleep", arguments: { seconds: 3 } } }] };
      return exchange(ports, buildRequest({ url, dialect, binding }, "stream", { message }), { dialect, binding });
    });
    const results = await Promise.all(runs);
    const tasks = results.map((r) => {
      expect(r.failure).toBeUndefined();
      expect(r.fold.tasks()).toHaveLength(1);
      return r.fold.tasks()[0]!;
    });
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(STREAMS);
    for (const task of tasks) {
      expect(task.steps.filter((s) => isTerminal(s.state))).toHaveLength(1);
      expect(isTerminal(task.steps.at(-1)!.state)).toBe(true);
    }
    const completed = tasks.filter((t) => t.state === "completed");
    const rejected = tasks.filter((t) => t.state === "rejected");
    expect(completed).toHaveLength(LIMIT);
    expect(rejected).toHaveLength(STREAMS - LIMIT);
    for (const task of completed) expect(task.artifacts.map((a) => a.parts)).toEqual([[expect.objectContaining({ text: "slept 3 s" })]]);
    for (const task of rejected) {
      expect(task.artifacts).toEqual([]);
      expect(task.steps.at(-1)?.text).toBe(`Not run: patchbay-demo is already running its maximum of ${LIMIT} tool calls at once; send the message again when one has finished.`);
    }
    for (const task of tasks) {
      const got = await exchange(ports, buildRequest({ url: agent.jsonRpcUrl, dialect: "1.0", binding: "jsonrpc" }, "get", { taskId: task.taskId }), { dialect: "1.0", binding: "jsonrpc" });
      expect(got.fold.tasks()[0]?.state).toBe(task.state);
    }
    expect(agent.agent.semaphore.active).toBe(0);
    const after = await exchange(ports, buildRequest({ url: agent.jsonRpcUrl, dialect: "1.0", binding: "jsonrpc" }, "send", { message: { messageId: randomUUID(), parts: [{ kind: "text", text: "free again" }] } }), { dialect: "1.0", binding: "jsonrpc" });
    expect(after.fold.tasks()[0]?.state).toBe("completed");
  }, 60_000);
});
