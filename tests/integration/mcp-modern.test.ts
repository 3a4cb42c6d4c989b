/**
 * The core MCP client in the 2026-07-28 era, through the real backend relay to the modern test
 * server (the v2 server package): the era chosen and why, everything the workbench does (lists,
 * reads, prompts, completions, calls with progress and cancel, logging per request, resource
 * subscriptions, ping), the Mcp-* headers the server received, and a server that answers in the
 * legacy shape named as such.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpConnection } from "../../src/core/mcp/index.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { relayed, type Relayed } from "../helpers/mcp-connect.ts";
import { startModernServer, type ModernServer } from "../helpers/modern-mcp-server.ts";

let backend: TestBackend;
let server: ModernServer;
let auto: Relayed;
let c: McpConnection;

beforeAll(async () => {
  backend = await startTestBackend();
  server = await startModernServer();
  auto = await relayed(backend, { transport: "streamable-http", url: server.url }, { era: "auto", capabilities: { elicitation: true, sampling: true, roots: true } });
  c = auto.connection;
});

afterAll(async () => {
  await auto?.close();
  await server?.close();
  await backend?.close();
});

const textOf = (outcome: Awaited<ReturnType<McpConnection["callTool"]>>) => (outcome.kind === "success" || outcome.kind === "tool-error" ? JSON.stringify(outcome.result.content) : JSON.stringify(outcome));

describe("connecting in auto and modern mode", () => {
  it("lands on modern and says why: server/discover answered with 2026-07-28", () => {
    expect(auto.info).toMatchObject({
      era: "modern",
      negotiatedVersion: "2026-07-28",
      requestedVersion: "2026-07-28",
      serverInfo: { name: "modern-test", version: "2.0.0" },
      serverInfoGiven: true,
      eraChoice: { setting: "auto", era: "modern", reason: "modern: server/discover answered with 2026-07-28" },
    });
    expect(auto.info.raw).toMatchObject({ resultType: "complete", supportedVersions: ["2026-07-28"] });
    const first = auto.frames()[0]!;
    expect(first.value).toMatchObject({ method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } });
    expect(auto.frames().some((f) => f.value.method === "initialize")).toBe(false);
  });

  it("connects pinned to modern the same way", async () => {
    const pinned = await relayed(backend, { transport: "streamable-http", url: server.url }, { era: "modern" });
    try {
      expect(pinned.info.eraChoice.reason).toBe("modern: chosen for this server; server/discover answered with 2026-07-28");
      expect((await pinned.connection.callTool("echo", { message: "pinned" })).kind).toBe("success");
    } finally {
      await pinned.close();
    }
  });
});

describe("the workbench's requests in the modern era", () => {
  it("sends every request with the _meta envelope and its Mcp-* headers through the relay", async () => {
    const tools = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "weather", "confirm-delete", "research"]));
    const outcome = await c.callTool("weather", { city: "Zürich" });
    expect(textOf(outcome)).toContain("Zürich: sunny");
    const seen = server.seen.requests.filter((r) => r.method === "tools/call" && r.body.includes("weather")).at(-1)!;
    expect(seen.headers).toMatchObject({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "weather",
      "mcp-param-city": "=?base64?WsO8cmljaA==?=",
    });
    const body = JSON.parse(seen.body) as { params: { _meta: Record<string, unknown> } };
    expect(body.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "patchbay-it", version: "0.0.0" },
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } },
    });
    // The frame in the wire log carries the headers the page sent.
    const frame = auto.frames((e) => e.direction === "out").filter((f) => f.value.method === "tools/call").at(-1)!;
    expect(frame.entry.headers).toMatchObject({ "mcp-method": ["tools/call"], "mcp-param-city": ["=?base64?WsO8cmljaA==?="] });
  });

  it("lists, reads and completes resources and prompts, answers kept as received (resultType included)", async () => {
    expect((await c.listResources()).map((r) => r.uri)).toEqual(expect.arrayContaining(["note://greeting", "counter://value", "note://items/alpha"]));
    expect((await c.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["note://items/{id}"]);
    expect(await c.readResource("note://greeting")).toMatchObject({ resultType: "complete", contents: [{ text: "Hello from 2026-07-28" }] });
    expect(await c.readResource("note://items/beta")).toMatchObject({ contents: [{ text: "item beta" }] });
    expect((await c.listPrompts()).map((p) => p.name)).toEqual(["greet"]);
    expect(await c.getPrompt("greet", { name: "Ada" })).toMatchObject({ resultType: "complete", messages: [{ content: { text: "Say hello to Ada" } }] });
    expect(await c.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).toMatchObject({ completion: { values: ["Ada", "Alan"] } });
    expect(await c.complete({ type: "ref/resource", uri: "note://items/{id}" }, { name: "id", value: "g" })).toMatchObject({ completion: { values: ["gamma"] } });
  });

  it("reports progress and cancels by closing the request's stream (the relay's abort), which the server sees", async () => {
    const progress: number[] = [];
    // The session is shared: what this test sends starts here (another ends a subscription with notifications/cancelled).
    const sentBefore = auto.frames((e) => e.direction === "out").length;
    expect(textOf(await c.callTool("slow-count", { steps: 3, delayMs: 10 }, { onProgress: (p) => progress.push(p.progress) }))).toContain("counted 3");
    expect(progress).toEqual([1, 2, 3]);
    const before = server.seen.cancelled;
    const abort = new AbortController();
    const pending = c.callTool("slow-count", { steps: 200, delayMs: 20 }, { signal: abort.signal, onProgress: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 300));
    abort.abort("stop please");
    expect(await pending).toEqual({ kind: "cancelled", reason: "stop please" });
    await expect.poll(() => server.seen.cancelled, { timeout: 5000 }).toBe(before + 1);
    expect(auto.consoleEvents.some((e) => e.type === "note" && /closed the response stream of request \d+/.test(e.text))).toBe(true);
    // No notifications/cancelled goes out: 2026-07-28 over HTTP cancels by closing the stream.
    const sent = auto.frames((e) => e.direction === "out").slice(sentBefore);
    expect(sent.filter((f) => f.value.method === "tools/call")).toHaveLength(2);
    expect(sent.some((f) => f.value.method === "notifications/cancelled")).toBe(false);
    expect(auto.errors.filter((e) => /unknown message ID/i.test(e.message))).toEqual([]);
  });

  it("asks for log messages with each request once a level is set, and sends no logging/setLevel", async () => {
    const logs: unknown[] = [];
    const off = c.on("log", (l) => logs.push(l));
    await c.callTool("log", { level: "info", message: "unheard" });
    await c.setLoggingLevel("info");
    expect(c.logLevel).toBe("info");
    await c.callTool("log", { level: "info", message: "heard" });
    await c.callTool("log", { level: "debug", message: "below the level" });
    off();
    expect(logs).toEqual([expect.objectContaining({ level: "info", data: "heard" })]);
    const last = auto.frames((e) => e.direction === "out").filter((f) => f.value.method === "tools/call").at(-1)!;
    expect((last.value.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/logLevel"]).toBe("info");
    expect(auto.frames().some((f) => f.value.method === "logging/setLevel")).toBe(false);
  });

  it("subscribes to a resource with subscriptions/listen and gets its updates", async () => {
    const updates: string[] = [];
    const off = c.on("resource-updated", ({ uri }) => updates.push(uri));
    expect(await c.subscribeResource("counter://value")).toMatchObject({ honoredFilter: { resourceSubscriptions: ["counter://value"] } });
    server.bump();
    await expect.poll(() => updates, { timeout: 5000 }).toEqual(["counter://value"]);
    await c.unsubscribeResource("counter://value");
    server.bump();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates).toEqual(["counter://value"]);
    off();
    const listens = auto.frames((e) => e.direction === "out").filter((f) => f.value.method === "subscriptions/listen");
    expect(listens.length).toBeGreaterThanOrEqual(2);
    expect(auto.frames().some((f) => f.value.method === "resources/subscribe")).toBe(false);
  });

  it("pings with server/discover, since 2026-07-28 has no ping", async () => {
    expect(c.pingMethod).toBe("server/discover");
    await c.ping(5000);
    expect(auto.frames((e) => e.direction === "out").at(-1)?.value.method).toBe("server/discover");
  });

  it("names a server that claims 2026-07-28 and answers in the legacy shape, keeping the answer", async () => {
    const mismatches: string[] = [];
    const outcome = await c.callTool("legacy-shape", {});
    expect(outcome).toMatchObject({
      kind: "invalid-result",
      result: { content: [{ type: "text", text: "2025 shape" }] },
      eraIssue: "The server negotiated 2026-07-28 but answered tools/call in the legacy shape: the result has no resultType, which every 2026-07-28 result carries.",
    });
    const off = c.on("era-mismatch", (m) => mismatches.push(m.message));
    await c.request("tools/call", { name: "legacy-shape" }).catch(() => undefined);
    off();
    expect(mismatches).toHaveLength(1);
  });
});
