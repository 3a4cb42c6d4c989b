/**
 * The era setting against legacy servers, through the real relay: auto falls back to
 * `initialize` against server-everything over stdio and over Streamable HTTP, saying what
 * server/discover answered; a pin to 2026-07-28 is refused, naming the same; and legacy tasks
 * (capabilities.tasks) with server-everything's simulate-research-query: started, polled at the
 * server's interval, listed, fetched, cancelled, and an unknown task named.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DirectTransport, McpConnectError, McpConnection, TaskError } from "../../src/core/mcp/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { EVERYTHING_JS, startEverythingHttp } from "../helpers/everything-server.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { CLIENT_INFO, relayed, relayTransport, type Relayed } from "../helpers/mcp-connect.ts";

const STDIO = { transport: "stdio" as const, command: process.execPath, args: [EVERYTHING_JS, "stdio"] };

let backend: TestBackend;
let http: { port: number; child: ChildProcess };
let stdio: Relayed;

beforeAll(async () => {
  backend = await startTestBackend();
  http = await startEverythingHttp("streamableHttp");
  stdio = await relayed(backend, STDIO, { era: "auto", capabilities: { elicitation: true }, handlers: { elicitation: async () => ({ action: "accept", content: { interpretation: "technical" } }) } });
});

afterAll(async () => {
  await stdio?.close();
  http?.child.kill("SIGKILL");
  await backend?.close();
});

describe("auto falls back to legacy", () => {
  it("over stdio, from a server that leaves server/discover unanswered, after the short probe time rather than the connect time", async () => {
    const silent = `require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
      const m = JSON.parse(line);
      if (m.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: {}, serverInfo: { name: "quiet", version: "1" } } }) + "\\n");
    });`;
    const started = Date.now();
    const quiet = await relayed(backend, { transport: "stdio", command: process.execPath, args: ["-e", silent] }, { era: "auto", timeoutMs: 60_000 });
    try {
      expect(quiet.info).toMatchObject({ era: "legacy", serverInfo: { name: "quiet" } });
      expect(quiet.info.eraChoice.reason).toMatch(/^legacy: server\/discover /);
      // The probe waits STDIO_PROBE_TIMEOUT_MS (5 s), far below the 60 s connect time.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await quiet.close();
    }
  });

  it("over stdio: server/discover answered -32601, then initialize", () => {
    expect(stdio.info).toMatchObject({ era: "legacy", negotiatedVersion: "2025-11-25", requestedVersion: "2025-11-25" });
    expect(stdio.info.eraChoice).toEqual({ era: "legacy", setting: "auto", reason: expect.stringMatching(/^legacy: server\/discover answered -32601 \(/) });
    const methods = stdio.frames((e) => e.direction === "out").map((f) => f.value.method);
    expect(methods.slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
  });

  it("over Streamable HTTP, with what the server answered to the probe", async () => {
    const session = await relayed(backend, { transport: "streamable-http", url: `http://127.0.0.1:${http.port}/mcp` }, { era: "auto" });
    try {
      expect(session.info.era).toBe("legacy");
      expect(session.info.eraChoice.reason).toBe("legacy: server/discover answered HTTP 400, -32000 (Bad Request: Server not initialized)");
      expect((await session.connection.callTool("echo", { message: "after the probe" })).kind).toBe("success");
    } finally {
      await session.close();
    }
  });

  it("from the page itself (direct), where the server's HTTP refusal of the probe is its answer", async () => {
    const clock = systemClock(performance, Date);
    const transport = new DirectTransport({ fetch, session: { transport: "streamable-http", url: `http://127.0.0.1:${http.port}/mcp` }, wireLog: new WireLog(clock, 100), clock, ids: sequentialIds("d") });
    const connection = new McpConnection();
    const errors: Error[] = [];
    connection.on("error", (e) => errors.push(e));
    try {
      const info = await connection.connect(transport, { clientInfo: CLIENT_INFO, era: "auto", timeoutMs: 20_000 });
      expect(info.era).toBe("legacy");
      expect(info.eraChoice.reason).toBe("legacy: server/discover answered HTTP 400, -32000 (Bad Request: Server not initialized)");
      expect((await connection.callTool("echo", { message: "direct" })).kind).toBe("success");
      expect(errors).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it("asks initialize for the version chosen for the server", async () => {
    const session = await relayed(backend, STDIO, { era: "auto", protocolVersion: "2025-06-18" });
    try {
      expect(session.info).toMatchObject({ era: "legacy", requestedVersion: "2025-06-18", negotiatedVersion: "2025-06-18" });
    } finally {
      await session.close();
    }
  });
});

describe("a pin to 2026-07-28 against a legacy server", () => {
  it("is refused, naming what server/discover answered; nothing else is sent", async () => {
    const wireLog = new WireLog(systemClock(performance, Date), 100);
    const transport = relayTransport(backend, STDIO, wireLog, []);
    const error = await new McpConnection().connect(transport, { clientInfo: CLIENT_INFO, era: "modern", timeoutMs: 20_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as McpConnectError).failure).toMatchObject({ step: "version-refused", message: expect.stringMatching(/^the server does not speak 2026-07-28: server\/discover answered -32601/) });
  });
});

describe("legacy tasks (capabilities.tasks) with server-everything", () => {
  it("says what the server supports", () => {
    expect(stdio.connection.tasks.support()).toMatchObject({ toolCalls: true, list: true, cancel: true });
  });

  it("runs simulate-research-query as a task, polls at the server's interval, lists it and fetches its result", async () => {
    const c = stdio.connection;
    const started = await c.callTool("simulate-research-query", { topic: "tides" }, { asTask: { ttlMs: 60_000 } });
    expect(started).toMatchObject({ kind: "task", task: { status: "working", pollIntervalMs: 1000 } });
    if (started.kind !== "task") return;
    const call = stdio.frames((e) => e.direction === "out").find((f) => f.value.method === "tools/call" && JSON.stringify(f.value).includes("tides"))!;
    expect(call.value.params).toMatchObject({ task: { ttl: 60_000 } });
    const listed = await c.tasks.list();
    expect(listed.problems).toEqual([]);
    expect(listed.tasks.map((t) => t.taskId)).toContain(started.task.taskId);
    const statuses: string[] = [];
    const end = await c.tasks.follow(started.task, { onUpdate: (t) => statuses.push(t.status) });
    expect(end.status).toBe("completed");
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    const result = await c.tasks.result(end.taskId, "simulate-research-query");
    expect(result.kind).toBe("success");
    expect(JSON.stringify(result)).toContain("Research Report: tides");
  }, 20_000);

  it("cancels a running task, and names a task id the server does not know", async () => {
    const c = stdio.connection;
    const started = await c.callTool("simulate-research-query", { topic: "storms" }, { asTask: {} });
    if (started.kind !== "task") throw new Error(JSON.stringify(started));
    expect(await c.tasks.cancel(started.task.taskId)).toMatchObject({ taskId: started.task.taskId, status: "cancelled" });
    expect(await c.tasks.get(started.task.taskId)).toMatchObject({ status: "cancelled" });
    const unknown = await c.tasks.get("no-such-task").then(
      () => null,
      (e: unknown) => e,
    );
    expect(unknown).toBeInstanceOf(Error);
    expect(unknown).toBeInstanceOf(TaskError);
    expect((unknown as Error).message).toBe("The server does not know task no-such-task (expired, or never created here): tasks/get was refused with MCP error -32602: Failed to retrieve task: Task not found");
  });
});
