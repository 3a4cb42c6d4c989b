/**
 * The console's client side against a real server: server-everything over stdio through the
 * backend relay asks for sampling and roots, sends progress and log messages, and hears
 * cancellations and roots changes. The handlers are the workbench's own states.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { McpConnection, RelayTransport, type CallOutcome } from "../../src/core/mcp/index.ts";
import type { McpConnectionEvents } from "../../src/core/mcp/connection-types.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { RootsState } from "../../src/ui/features/mcp/roots-state.svelte.ts";
import { SamplingState } from "../../src/ui/features/mcp/sampling-state.svelte.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";

const EVERYTHING = join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const clock = systemClock(performance, Date);
const dec = new TextDecoder();

let backend: TestBackend;
let wireLog: WireLog;
let connection: McpConnection;
const sampling = new SamplingState();
const roots = new RootsState();
const logs: McpConnectionEvents["log"][] = [];

beforeAll(async () => {
  backend = await startTestBackend();
  wireLog = new WireLog(clock, 10_000);
  const transport = new RelayTransport({
    fetch: globalThis.fetch,
    baseUrl: `http://127.0.0.1:${backend.port}`,
    token: backend.token,
    session: { transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
    wireLog,
    clock,
    ids: sequentialIds("frame"),
  });
  roots.rows = [{ uri: "file:///srv/patchbay", name: "patchbay" }];
  await roots.apply();
  connection = new McpConnection();
  connection.on("log", (l) => logs.push(l));
  await connection.connect(transport, {
    clientInfo: { name: "patchbay-it", version: "0.0.0" },
    timeoutMs: 20_000,
    capabilities: { sampling: true, roots: true },
    handlers: { sampling: sampling.handle, roots: roots.handle },
  });
  roots.attach(() => connection.sendRootsListChanged());
});

afterAll(async () => {
  await connection?.close();
  await backend?.close();
});

function text(outcome: CallOutcome): string {
  if (outcome.kind !== "success" && outcome.kind !== "tool-error") return `no result: ${JSON.stringify(outcome)}`;
  return (outcome.result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
}

/** The frames this client sent with `method`, decoded. */
function sent(method: string): Record<string, unknown>[] {
  return wireLog
    .entries()
    .filter((e) => e.direction === "out" && e.decoded.method === method)
    .map((e) => JSON.parse(dec.decode(e.bytes)) as Record<string, unknown>);
}

describe("client features against server-everything over stdio", () => {
  it("offers the sampling and roots tools only a client declaring them gets", async () => {
    await expect.poll(async () => (await connection.listTools()).map((t) => t.name), { timeout: 5_000 }).toEqual(
      expect.arrayContaining(["trigger-sampling-request", "get-roots-list"]),
    );
  });

  it("answers trigger-sampling-request with the stub the user edited", async () => {
    const call = connection.callTool("trigger-sampling-request", { prompt: "Say hi", maxTokens: 42 });
    await expect.poll(() => sampling.pending, { timeout: 5_000 }).not.toBeNull();
    expect(sampling.pending).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Resource trigger-sampling-request context: Say hi" } }],
      systemPrompt: "You are a helpful test server.",
      maxTokens: 42,
    });
    expect(JSON.parse(sampling.responseText)).toMatchObject({ model: "patchbay-stub", stopReason: "endTurn" });
    sampling.responseText = sampling.responseText.replace("This is a stub answer", "Hi there, a stub answer");
    sampling.send();
    const outcome = await call;
    expect(outcome.kind).toBe("success");
    expect(text(outcome)).toContain("LLM sampling result:");
    expect(text(outcome)).toContain('"model": "patchbay-stub"');
    expect(text(outcome)).toContain("Hi there, a stub answer from Patchbay");
  });

  it("declines a sampling request: the server gets JSON-RPC error -1 and its tool fails", async () => {
    const call = connection.callTool("trigger-sampling-request", { prompt: "Say no" });
    await expect.poll(() => sampling.pending, { timeout: 5_000 }).not.toBeNull();
    sampling.decline();
    const outcome = await call;
    expect(outcome.kind).toBe("tool-error");
    expect(text(outcome)).toContain("The user declined the sampling request.");
    const refusal = wireLog
      .entries()
      .filter((e) => e.direction === "out")
      .map((e) => JSON.parse(dec.decode(e.bytes)) as { error?: { code: number; message: string } })
      .find((m) => m.error !== undefined);
    expect(refusal?.error).toEqual({ code: -1, message: "The user declined the sampling request." });
  });

  it("lists the roots the user applied, and re-reads them after notifications/roots/list_changed", async () => {
    expect(text(await connection.callTool("get-roots-list", {}))).toMatch(/1\. patchbay\s+URI: file:\/\/\/srv\/patchbay/);
    roots.rows = [{ uri: "file:///srv/patchbay", name: "patchbay" }, { uri: "file:///home/ada", name: "" }];
    await roots.apply();
    expect(sent("notifications/roots/list_changed")).toHaveLength(1);
    await expect.poll(async () => text(await connection.callTool("get-roots-list", {})), { timeout: 5_000 }).toContain("URI: file:///home/ada");
  });

  it("follows progress of trigger-long-running-operation, under the SDK's token or one typed into _meta", async () => {
    const seen: { progress: number; total?: number }[] = [];
    // The SDK drops progress read together with the response; the connection re-emits it as an event.
    const late = connection.on("progress", (p) => typeof p.progressToken === "number" && seen.push({ progress: p.progress, total: p.total }));
    const outcome = await connection.callTool("trigger-long-running-operation", { duration: 0.4, steps: 4 }, { onProgress: (p) => seen.push(p) });
    late();
    expect(outcome.kind).toBe("success");
    expect(seen.sort((a, b) => a.progress - b.progress)).toEqual([1, 2, 3, 4].map((progress) => ({ progress, total: 4 })));

    const typed: unknown[] = [];
    const off = connection.on("progress", (p) => typed.push(p));
    await connection.callTool("trigger-long-running-operation", { duration: 0.2, steps: 2 }, { meta: { progressToken: "it-token" } });
    off();
    expect(typed).toEqual([1, 2].map((progress) => ({ progress, total: 2, progressToken: "it-token" })));
    expect(sent("tools/call").at(-1)).toMatchObject({ params: { _meta: { progressToken: "it-token" } } });
  });

  it("cancels a running operation: notifications/cancelled names the request", async () => {
    const abort = new AbortController();
    const call = connection.callTool("trigger-long-running-operation", { duration: 30, steps: 30 }, { signal: abort.signal, onProgress: () => abort.abort("stop") });
    expect(await call).toEqual({ kind: "cancelled", reason: "stop" });
    const request = sent("tools/call").at(-1) as { id: number };
    expect(sent("notifications/cancelled").at(-1)).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: request.id, reason: "stop" } });
    await expect(connection.ping(5_000)).resolves.toBeUndefined();
  });

  it("sets the log level and receives the simulated log messages", async () => {
    await connection.setLoggingLevel("debug");
    const before = logs.length;
    const started = await connection.callTool("toggle-simulated-logging", {});
    expect(text(started)).toMatch(/^Started simulated/);
    await expect.poll(() => logs.slice(before).some((l) => /-level message|level-message/.test(String(l.data))), { timeout: 5_000 }).toBe(true);
    expect(text(await connection.callTool("toggle-simulated-logging", {}))).toMatch(/^Stopped simulated/);
  });
});
