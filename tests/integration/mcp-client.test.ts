/**
 * The core MCP client through the real backend relay to a real server: server-everything over
 * stdio, spawned by the backend. Node's fetch plays the browser's.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { McpConnection, RelayTransport, type ConnectResult, type RelayConsoleEvent } from "../../src/core/mcp/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";

const EVERYTHING = join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const clock = systemClock(performance, Date);
const dec = new TextDecoder();

let backend: TestBackend;
let wireLog: WireLog;
let transport: RelayTransport;
let connection: McpConnection;
let info: ConnectResult;
const consoleEvents: RelayConsoleEvent[] = [];

beforeAll(async () => {
  backend = await startTestBackend();
  wireLog = new WireLog(clock, 10_000);
  transport = new RelayTransport({
    fetch: globalThis.fetch,
    baseUrl: `http://127.0.0.1:${backend.port}`,
    token: backend.token,
    session: { transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
    wireLog,
    clock,
    ids: sequentialIds("frame"),
    onConsole: (e) => consoleEvents.push(e),
  });
  connection = new McpConnection();
  info = await connection.connect(transport, { clientInfo: { name: "patchbay-it", version: "0.0.0" }, timeoutMs: 20_000 });
});

afterAll(async () => {
  await connection?.close();
  await backend?.close();
});

// One session's steps, in order: the wire log holds the calls before it, and the last step closes the session.
describe("MCP client through the relay to server-everything over stdio", { shuffle: false }, () => {
  it("initializes and shows the requested and negotiated versions", () => {
    expect(info.serverInfo.name).toMatch(/everything/i);
    expect(info.requestedVersion).toBe("2025-11-25");
    expect(info.negotiatedVersion).toBe("2025-11-25");
    expect(info.capabilities.tools).toBeDefined();
    expect(transport.relaySessionId).toEqual(expect.any(String));
  });

  it("lists the tools, with their schemas", async () => {
    const tools = await connection.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-structured-content"]));
    const structured = tools.find((t) => t.name === "get-structured-content");
    expect(structured?.outputSchema).toMatchObject({ type: "object", properties: { temperature: { type: "number" } } });
  });

  it("calls echo: success", async () => {
    const outcome = await connection.callTool("echo", { message: "through the relay" });
    expect(outcome).toEqual({ kind: "success", result: { content: [{ type: "text", text: "Echo: through the relay" }] }, structuredContentIssues: [] });
  });

  it("calls get-sum with bad arguments: the SDK server reports a tool error, not a JSON-RPC error", async () => {
    const outcome = await connection.callTool("get-sum", { a: "one", b: 2 });
    expect(outcome.kind).toBe("tool-error");
    if (outcome.kind !== "tool-error") return;
    expect(outcome.result.isError).toBe(true);
    expect(JSON.stringify(outcome.result.content)).toMatch(/Input validation error|expected number/i);
  });

  it("calls get-structured-content: structuredContent meets the outputSchema", async () => {
    const outcome = await connection.callTool("get-structured-content", { location: "Chicago" });
    expect(outcome).toMatchObject({ kind: "success", result: { structuredContent: { temperature: 36, humidity: 82 } }, structuredContentIssues: [] });
  });

  it("recorded every frame in the wire log, requests and responses correlated with a latency", () => {
    const entries = wireLog.entries();
    expect(entries.every((e) => e.channel === "mcp" && e.target === `stdio:${process.execPath} ${EVERYTHING} stdio`)).toBe(true);
    const init = entries.find((e) => e.direction === "out" && e.decoded.method === "initialize");
    expect(init).toBeDefined();
    const reply = entries.find((e) => e.direction === "in" && e.correlationId === init!.correlationId);
    expect(reply?.rttMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(dec.decode(reply!.bytes))).toMatchObject({ jsonrpc: "2.0", result: { protocolVersion: "2025-11-25" } });
    const calls = entries.filter((e) => e.direction === "out" && e.decoded.method === "tools/call");
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(entries.some((e) => e.direction === "in" && e.correlationId === call.correlationId && e.rttMs !== undefined)).toBe(true);
  });

  it("shows the server's stderr in the console events", () => {
    expect(consoleEvents).toContainEqual(expect.objectContaining({ type: "stderr", text: "Starting default (STDIO) server..." }));
  });

  it("closes the session: later sends are refused and no frames are lost", async () => {
    const before = wireLog.size;
    await connection.close();
    expect(wireLog.size).toBe(before);
    await expect(transport.sendRaw('{"jsonrpc":"2.0","method":"ping","id":99}')).rejects.toThrow(/closed/);
  });
});
