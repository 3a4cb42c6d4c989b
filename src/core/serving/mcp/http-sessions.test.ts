import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { sequentialIds, silentLogger } from "../../env/defaults.ts";
import { ManualScheduler, systemScheduler, type Scheduler } from "../../env/scheduler.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { McpHttpEndpoint } from "./http-endpoint.ts";
import type { FrameEvent } from "./recording-transport.ts";
import { createServingContext } from "./serving-context.ts";
import { firstText, settle } from "./test-harness.ts";
import { TEST_WORLD } from "./test-harness.ts";

const URL_ = "http://127.0.0.1:9/mcp";
const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function sessionsWith(options: { scheduler?: Scheduler; maxSessions?: number; idleMs?: number; frames?: FrameEvent[] } = {}) {
  const ids = sequentialIds("session");
  const context = createServingContext({ ...TEST_WORLD, toolkit: DEMO_TOOLKIT, scheduler: options.scheduler ?? systemScheduler(), logger: silentLogger });
  return new McpHttpEndpoint({
    context,
    newSessionId: () => ids.next(),
    ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.frames ? { onFrame: (f: FrameEvent) => options.frames!.push(f) } : {}),
  });
}

/** fetch that hands requests to the sessions object, reading POST bodies the way the HTTP layer does. */
function fetchInto(sessions: McpHttpEndpoint): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== "POST") return sessions.handle(request);
    const text = await request.text();
    return sessions.handle(new Request(request.url, { method: "POST", headers: request.headers }), { text, value: JSON.parse(text) as unknown });
  };
}

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
});

async function connect(sessions: McpHttpEndpoint): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(URL_), { fetch: fetchInto(sessions) });
  const client = new Client({ name: "sessions-test", version: "0" });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

function post(sessions: McpHttpEndpoint, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const text = JSON.stringify(body);
  return sessions.handle(new Request(URL_, { method: "POST", headers: { ...POST_HEADERS, ...headers } }), { text, value: body });
}

describe("McpHttpEndpoint", () => {
  it("gives each client its own session, server and state", async () => {
    const sessions = sessionsWith();
    const a = await connect(sessions);
    const b = await connect(sessions);
    expect(sessions.size).toBe(2);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    await a.client.callTool({ name: "test_dynamic_tool", arguments: {} });
    const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
    expect(await names(a.client)).toContain("test_dynamic_extra");
    expect(await names(b.client)).not.toContain("test_dynamic_extra");
    expect(firstText(await b.client.callTool({ name: "echo", arguments: { message: "b" } }))).toBe("b");
    await sessions.closeAll();
  });

  it("DELETE ends a session; its id is then unknown (404, -32001)", async () => {
    const sessions = sessionsWith();
    const { transport } = await connect(sessions);
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(sessions.size).toBe(0);
    const late = await post(sessions, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ jsonrpc: "2.0", error: { code: -32001, message: expect.stringContaining("Session not found") }, id: null });
  });

  it("refuses requests without a session that do not start one", async () => {
    const sessions = sessionsWith();
    const ping = await post(sessions, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(ping.status).toBe(400);
    expect(((await ping.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const empty = await post(sessions, []);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: the batch is empty." }, id: null });
    const get = await sessions.handle(new Request(URL_, { headers: { accept: "text/event-stream" } }));
    expect(get.status).toBe(400);
    expect(sessions.size).toBe(0);
  });

  it("keeps nothing when the initialize is refused by the transport", async () => {
    const sessions = sessionsWith();
    const text = JSON.stringify(INIT);
    const refused = await sessions.handle(new Request(URL_, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" } }), { text, value: INIT });
    expect(refused.status).toBe(406);
    expect(sessions.size).toBe(0);
  });

  it("caps the number of live sessions", async () => {
    const sessions = sessionsWith({ maxSessions: 1 });
    await connect(sessions);
    const over = await post(sessions, INIT);
    expect(over.status).toBe(503);
    expect(((await over.json()) as { error: { message: string } }).error.message).toMatch(/^Too many MCP sessions \(1 are open\)/);
    expect(sessions.size).toBe(1);
  });

  it("closes a session after it has been idle, but not while a stream is open", async () => {
    const scheduler = new ManualScheduler();
    const sessions = sessionsWith({ scheduler, idleMs: 60_000 });
    const init = await post(sessions, INIT);
    const id = init.headers.get("mcp-session-id")!;
    expect(await init.text()).toContain('"protocolVersion"');
    const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25", accept: "text/event-stream" };
    const stream = await sessions.handle(new Request(URL_, { headers }));
    expect(stream.status).toBe(200);
    scheduler.advance(120_000);
    await settle();
    expect(sessions.size).toBe(1);
    await stream.body!.cancel();
    await settle();
    scheduler.advance(59_000);
    await settle();
    expect(sessions.size).toBe(1);
    scheduler.advance(1_000);
    await settle();
    expect(sessions.size).toBe(0);
  });

  it("answers a call whose stream closed early once the client reconnects with Last-Event-ID", async () => {
    const sessions = sessionsWith();
    const { client } = await connect(sessions);
    const result = await client.callTool({ name: "test_reconnection", arguments: {} });
    expect(firstText(result)).toBe("Answered after the stream was closed.");
    await sessions.closeAll();
  });

  it("records the bodies that came in and the messages that went out, with their session", async () => {
    const frames: FrameEvent[] = [];
    const sessions = sessionsWith({ frames });
    const { client, transport } = await connect(sessions);
    await client.callTool({ name: "echo", arguments: { message: "wired" } });
    const id = transport.sessionId!;
    expect(frames[0]).toEqual({ direction: "in", text: expect.stringContaining('"method":"initialize"') });
    expect(frames[1]).toEqual({ direction: "out", text: expect.stringContaining('"serverInfo"'), session: id });
    const last = frames.at(-1)!;
    expect(last).toEqual({ direction: "out", text: expect.stringContaining('"text":"wired"'), session: id });
    expect(frames.filter((f) => f.direction === "in").every((f) => f.session === undefined || f.session === id)).toBe(true);
    const refused = await post(sessions, { jsonrpc: "2.0", id: 9, method: "ping" }, { "mcp-session-id": id, accept: "application/json" });
    expect(refused.status).toBe(406);
    expect(frames.at(-1)).toEqual({ direction: "out", text: expect.stringContaining('"code":-32000'), session: id });
    expect(await refused.text()).toBe(frames.at(-1)!.text);
    await sessions.closeAll();
    const after = await post(sessions, INIT);
    expect(after.status).toBe(503);
  });
});
