/**
 * The modern era (2026-07-28) in memory, served as over stdio: confirm-gated tools asked with
 * input_required in each confirm mode, the v2 client answering on its own, tasks through the
 * extension, list changes on subscriptions/listen.
 */
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../env/defaults.ts";
import { ManualScheduler, systemScheduler } from "../../env/scheduler.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { ConfirmMode } from "../confirm-gate.ts";
import { serveConnection } from "./connection.ts";
import { OperatorApprovals } from "./operator-approvals.ts";
import { createServingContext, type McpServingContext } from "./serving-context.ts";
import { connectModernHarness, firstText, TEST_WORLD } from "./test-harness.ts";

const WHAT = 'confirm {"action":"wipe"}';
const call = { name: "confirm", arguments: { action: "wipe" } };
const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** A 2026-07-28 client by hand over an in-memory pair: each request with its `_meta` envelope. */
async function rawModern(ctx: McpServingContext) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const serving = serveConnection(ctx, serverSide, "memory");
  const seen: JSONRPCMessage[] = [];
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  clientSide.onmessage = (message) => {
    seen.push(message);
    const id = (message as { id?: unknown }).id;
    if (typeof id === "number" && !("method" in message)) waiting.get(id)?.(message as Record<string, unknown>);
  };
  await clientSide.start();
  let next = 1;
  const request = (method: string, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}) => {
    const id = next++;
    const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": capabilities };
    void clientSide.send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...meta, ...(params._meta as object | undefined) } } } as JSONRPCMessage);
    return answered as Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } }>;
  };
  return { request, seen, close: () => serving.close() };
}

function context(confirmMode: ConfirmMode, extra: Partial<Parameters<typeof createServingContext>[0]> = {}) {
  return createServingContext({ toolkit: DEMO_TOOLKIT, scheduler: systemScheduler(), logger: silentLogger, confirmMode, ...TEST_WORLD, ...extra });
}

describe("confirm-gated tools on the modern era", () => {
  it("auto and always: an input_required question, decided on the retry with the signed state", async () => {
    for (const mode of ["auto", "always"] as const) {
      const raw = await rawModern(context(mode));
      const asked = (await raw.request("tools/call", call, { elicitation: {} })).result!;
      expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { approve: { method: "elicitation/create", params: { mode: "form", requestedSchema: { required: ["approve"] } } } } });
      expect((asked.inputRequests as { approve: { params: { message: string } } }).approve.params.message).toContain(`What: ${WHAT}`);
      const retry = (answer: unknown, state = asked.requestState) => raw.request("tools/call", { ...call, inputResponses: { approve: answer }, requestState: state }, { elicitation: {} });
      expect((await retry({ action: "accept", content: { approve: true } })).result).toMatchObject({ resultType: "complete", content: [{ text: "done: wipe" }] });
      expect(firstText((await retry({ action: "decline" })).result!)).toMatch(/^Not run: the user declined/);
      expect(firstText((await retry({ action: "cancel" })).result!)).toMatch(/^Not run: the user dismissed the approval prompt/);
      expect(firstText((await retry({ action: "accept", content: { approve: "yes" } })).result!)).toMatch(/"approve" was not a boolean/);
      expect((await retry({ action: "accept", content: { approve: true } }, "forged")).error).toMatchObject({ code: -32602 });
      await raw.close();
    }
  });

  it("without the elicitation capability: auto runs with a warning, always refuses; never runs at once", async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const auto = await rawModern(context("auto", { logger }));
    expect(firstText((await auto.request("tools/call", call)).result!)).toBe("done: wipe");
    expect(warnings).toContain("running confirm without approval: the client cannot be asked (confirm mode auto)");
    const always = await rawModern(context("always"));
    expect(firstText((await always.request("tools/call", call)).result!)).toBe(`Not run: ${WHAT} needs approval, and this client cannot be asked (it does not support elicitation).`);
    const never = await rawModern(context("never"));
    expect(firstText((await never.request("tools/call", call, { elicitation: {} })).result!)).toBe("done: wipe");
    await Promise.all([auto.close(), always.close(), never.close()]);
  });

  it("operator: waits for the console's user, not the client", async () => {
    let n = 0;
    const approvals = new OperatorApprovals({ scheduler: systemScheduler(), now: Date.now, newId: () => `a${++n}`, timeoutMs: 60_000 });
    const raw = await rawModern(context("operator", { approvals }));
    const pending = raw.request("tools/call", call, { elicitation: {} });
    await expect.poll(() => approvals.size).toBe(1);
    approvals.decide(approvals.list()[0]!.id, true);
    expect((await pending).result).toMatchObject({ resultType: "complete", content: [{ text: "done: wipe" }] });
    await raw.close();
  });

  it("the v2 client answers the question itself from its elicitation handler", async () => {
    const h = await connectModernHarness({ capabilities: { elicitation: {} }, confirmMode: "always" });
    const asked: string[] = [];
    h.client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { approve: true } };
    });
    expect(h.client.getProtocolEra()).toBe("modern");
    expect(firstText(await h.client.callTool(call))).toBe("done: wipe");
    expect(asked).toHaveLength(1);
    expect(h.frames.filter((f) => f.direction === "out").some((f) => f.text.includes('"resultType":"input_required"'))).toBe(true);
    await h.close();
  });
});

describe("tasks and list changes on the modern era", () => {
  it("a long tool runs as a task for a client that declares the extension; tasks/get shows its progress and then its result", async () => {
    const ctx = context("auto");
    const raw = await rawModern(ctx);
    const created = (await raw.request("tools/call", { name: "sleep", arguments: { seconds: 1 } }, EXT)).result!;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const get = async () => (await raw.request("tasks/get", { taskId: created.taskId }, EXT)).result!;
    await expect.poll(async () => (await get()).statusMessage, { timeout: 3_000 }).toBe("1 of 1 s");
    await expect.poll(async () => (await get()).status, { timeout: 3_000 }).toBe("completed");
    expect((await get()).result).toMatchObject({ content: [{ text: "slept 1 s" }] });
    expect(ctx.tasks.live).toBe(0);
    await raw.close();
  });

  it("an MRTR round before a task: test_tool_with_task asks first, then becomes a task whose result has the answer", async () => {
    const raw = await rawModern(context("auto"));
    const caps = { ...EXT, elicitation: {} };
    const asked = (await raw.request("tools/call", { name: "test_tool_with_task", arguments: {} }, caps)).result!;
    expect(asked).toMatchObject({ resultType: "input_required" });
    expect(asked).not.toHaveProperty("taskId");
    const created = (await raw.request("tools/call", { name: "test_tool_with_task", arguments: {}, inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } } }, caps)).result!;
    expect(created).toMatchObject({ resultType: "task" });
    expect(created).not.toHaveProperty("requestState");
    await expect.poll(async () => ((await raw.request("tasks/get", { taskId: created.taskId }, EXT)).result!.result as { content?: { text: string }[] } | undefined)?.content?.[0]?.text, { timeout: 3_000 }).toBe("Hello, Ada, from a task.");
    await raw.close();
  });

  it("a task waiting for answers nobody gives fails after ten minutes, freeing its place", async () => {
    const scheduler = new ManualScheduler();
    const ctx = context("auto", { scheduler });
    const raw = await rawModern(ctx);
    const created = (await raw.request("tools/call", { name: "confirm_delete", arguments: { filename: "x" } }, { ...EXT, elicitation: {} })).result!;
    const get = async () => (await raw.request("tasks/get", { taskId: created.taskId }, EXT)).result!;
    await expect.poll(async () => (await get()).status).toBe("input_required");
    scheduler.advance(10 * 60_000 - 1);
    expect((await get()).status).toBe("input_required");
    scheduler.advance(1);
    expect(await get()).toMatchObject({ status: "failed", error: { code: -32603, message: "nobody answered the task's questions within 10 minutes" } });
    expect(ctx.tasks.live).toBe(0);
    await raw.close();
  });

  it("a list change announced by a fixture reaches subscriptions/listen streams that asked for it", async () => {
    const raw = await rawModern(context("auto"));
    void raw.request("subscriptions/listen", { notifications: { toolsListChanged: true } });
    await expect.poll(() => raw.seen.some((m) => (m as { method?: string }).method === "notifications/subscriptions/acknowledged")).toBe(true);
    await raw.request("tools/call", { name: "test_trigger_prompt_change", arguments: {} });
    await raw.request("tools/call", { name: "test_trigger_tool_change", arguments: {} });
    await expect.poll(() => raw.seen.some((m) => (m as { method?: string }).method === "notifications/tools/list_changed")).toBe(true);
    expect(raw.seen.some((m) => (m as { method?: string }).method === "notifications/prompts/list_changed")).toBe(false);
    await raw.close();
  });
});
