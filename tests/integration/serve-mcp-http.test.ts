/**
 * The toolkit served over Streamable HTTP from the backend: started and stopped through the
 * token-guarded API, used by the official SDK client, guarded by Host and Origin checks, and its
 * traffic readable from the frame ring.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FramePage } from "../../server/serving/frame-ring.ts";
import type { McpServeStatus } from "../../server/serving/serve-manager.ts";
import { send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

type Running = Extract<McpServeStatus, { running: true }> & { issues: string[] };

let backend: TestBackend;
const clients: Client[] = [];

beforeEach(async () => {
  backend = await startTestBackend();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await backend.close();
});

function api(method: string, path: string, body?: unknown) {
  return send({
    port: backend.port,
    method,
    path,
    headers: { ...backend.auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function start(body: unknown = { port: 0 }): Promise<Running> {
  const res = await api("POST", "/api/serve/mcp/start", body);
  expect(res.status, res.text).toBe(200);
  return res.json<Running>();
}

async function connect(url: string, capabilities = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "serve-http-test", version: "0" }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const textOf = (result: object) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "");

describe("starting and stopping through the API", () => {
  it("GET status never starts anything; start and stop need the token", async () => {
    expect((await api("GET", "/api/serve/mcp/status")).json()).toEqual({ running: false });
    expect((await api("GET", "/api/serve/mcp/start")).status).toBe(405);
    expect((await send({ port: backend.port, method: "POST", path: "/api/serve/mcp/start", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
    expect((await send({ port: backend.port, path: "/api/serve/mcp/frames" })).status).toBe(401);
    expect((await api("GET", "/api/serve/mcp/status")).json()).toEqual({ running: false });
    const taken = await api("POST", "/api/serve/mcp/start", { port: backend.port });
    expect(taken.status).toBe(409);
    expect(taken.json<{ error: { code: string; message: string } }>().error).toEqual({
      code: "port_in_use",
      message: `port ${backend.port} is already in use on 127.0.0.1; choose another port (0 picks a free one)`,
    });
    expect((await api("GET", "/api/serve/mcp/status")).json()).toEqual({ running: false });
  });

  it("starts the demo agent on 127.0.0.1, reports it, refuses a second start, and stops", async () => {
    const status = await start();
    expect(status).toMatchObject({ running: true, toolkit: "patchbay-demo", confirmMode: "auto", concurrency: 2, fixtures: true, sessions: 0, issues: [] });
    expect(status.url).toBe(`http://127.0.0.1:${status.port}/mcp`);
    expect(status.tools.map((t) => [t.name, t.served])).toContainEqual(["confirm", true]);
    expect(status.fixtureTools).toContain("test_simple_text");
    const again = await api("POST", "/api/serve/mcp/start", { port: 0 });
    expect(again.status).toBe(409);
    expect(again.json<{ error: { message: string } }>().error.message).toBe(`already serving at ${status.url}; stop it first`);
    const { client } = await connect(status.url);
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "over http" } }))).toBe("over http");
    expect((await api("GET", "/api/serve/mcp/status")).json<Running>().sessions).toBe(1);
    expect((await api("POST", "/api/serve/mcp/stop")).json()).toEqual({ running: false });
    await expect(fetch(status.url, { method: "POST" })).rejects.toThrow();
  });

  it("refuses a toolkit it cannot serve, and serves one with a command tool", async () => {
    const bad = await api("POST", "/api/serve/mcp/start", { port: 0, toolkit: { format: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.json<{ error: { code: string } }>().error.code).toBe("invalid_toolkit");
    const toolkit = {
      format: "patchbay.toolkit",
      version: 1,
      name: "node-kit",
      tools: [
        {
          name: "exit-with",
          description: "Exits with the given code.",
          inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"], additionalProperties: false },
          run: { command: [process.execPath, "-e", "process.stdout.write('ran'); process.exit(Number(process.argv.at(-1)))"], positionals: ["code"] },
        },
      ],
    };
    const status = await start({ port: 0, toolkit });
    expect(status).toMatchObject({ toolkit: "node-kit", fixtures: false, fixtureTools: [] });
    const { client } = await connect(status.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["exit-with"]);
    const result = await client.callTool({ name: "exit-with", arguments: { code: "3" } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toMatchObject({ exit_code: 3, output: "ran" });
    expect(backend.logs.some((line) => line.startsWith("info Running ") && line.includes("-- 3"))).toBe(true);
  });
});

describe("the official SDK client over Streamable HTTP", () => {
  it("lists and calls tools, gets progress, and sees unknown tools as tool errors", async () => {
    const { url } = await start();
    const { client } = await connect(url);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "echo")?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    const progress: Progress[] = [];
    const slept = await client.callTool({ name: "sleep", arguments: { seconds: 1.5 } }, undefined, { onprogress: (p) => progress.push(p) });
    expect(textOf(slept)).toBe("slept 1.5 s");
    expect(progress.map((p) => p.progress)).toEqual([1, 2]);
    const unknown = await client.callTool({ name: "missing", arguments: {} });
    expect(unknown.isError).toBe(true);
    const invalid = await client.callTool({ name: "echo", arguments: { message: 7 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain("- /message:");
  });

  it("asks an eliciting client to approve a confirm-tagged tool, on the call's own stream", async () => {
    const { url } = await start({ port: 0, confirmMode: "always" });
    const { client } = await connect(url, { elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { approve: true } };
    });
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "deploy" } }))).toBe("done: deploy");
    expect(asked).toHaveLength(1);
    const { client: plain } = await connect(url);
    const refused = await plain.callTool({ name: "confirm", arguments: { action: "deploy" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/cannot be asked/);
  });

  it("gives each client its own session; DELETE ends one", async () => {
    const { url } = await start();
    const a = await connect(url);
    const b = await connect(url);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect((await api("GET", "/api/serve/mcp/status")).json<Running>().sessions).toBe(2);
    const id = a.transport.sessionId!;
    await a.transport.terminateSession();
    expect((await api("GET", "/api/serve/mcp/status")).json<Running>().sessions).toBe(1);
    const port = Number(new URL(url).port);
    const late = await send({
      port,
      method: "POST",
      path: "/mcp",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(late.status).toBe(404);
    expect(late.json<{ error: { code: number } }>().error.code).toBe(-32001);
    expect(textOf(await b.client.callTool({ name: "echo", arguments: { message: "still here" } }))).toBe("still here");
  });
});

describe("who may talk to the endpoint", () => {
  const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin with 403, and accepts loopback ones", async () => {
    const { port } = await start();
    const evil = await send({ port, method: "POST", path: "/mcp", host: "evil.example.com", headers: { ...headers, origin: "http://evil.example.com" }, body: INIT });
    expect(evil.status).toBe(403);
    expect(evil.json<{ error: { message: string } }>().error.message).toMatch(/^Forbidden: Host "evil.example.com" is not this machine/);
    const noHost = await send({ port, method: "POST", path: "/mcp", host: null, headers, body: INIT });
    expect(noHost.status).toBe(403);
    const page = await send({ port, method: "POST", path: "/mcp", headers: { ...headers, origin: "http://evil.example.com" }, body: INIT });
    expect(page.status).toBe(403);
    const local = await send({ port, method: "POST", path: "/mcp", host: `localhost:${port}`, headers: { ...headers, origin: "http://localhost:6274" }, body: INIT });
    expect(local.status).toBe(200);
    expect(local.headers["access-control-allow-origin"]).toBe("http://localhost:6274");
    expect(local.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const preflight = await send({ port, method: "OPTIONS", path: "/mcp", headers: { origin: "http://localhost:6274", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-headers"]).toContain("Mcp-Session-Id");
    expect((await send({ port, path: "/elsewhere" })).status).toBe(404);
    expect((await send({ port, method: "PUT", path: "/mcp", body: "x" })).status).toBe(405);
  });
});

describe("the frame ring", () => {
  it("records every frame in and out, verbatim, readable page by page with the token", async () => {
    const { url, port } = await start();
    const { client } = await connect(url);
    await client.callTool({ name: "echo", arguments: { message: "recorded" } });
    await send({ port, method: "POST", path: "/mcp", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{not json" });
    const page = (await api("GET", "/api/serve/mcp/frames?after=0")).json<FramePage>();
    const texts = page.frames.map((f) => `${f.direction} ${f.text}`);
    expect(texts[0]).toMatch(/^in \{"method":"initialize"/);
    expect(texts).toContainEqual(expect.stringMatching(/^out .*"text":"recorded"/));
    expect(texts.at(-2)).toBe("in {not json");
    expect(texts.at(-1)).toMatch(/^out \{"jsonrpc":"2.0","error":\{"code":-32700/);
    expect(page.frames.map((f) => f.seq)).toEqual(page.frames.map((_, i) => i + 1));
    const rest = (await api("GET", `/api/serve/mcp/frames?after=${page.next - 2}`)).json<FramePage>();
    expect(rest.frames.map((f) => f.seq)).toEqual([page.next - 1, page.next]);
    expect((await api("GET", "/api/serve/mcp/frames?after=-1")).status).toBe(400);
  });

  it("records a 2026-07-28 request as it came and its answer as it left, each event of a streamed one", async () => {
    const { port } = await start();
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "test_tool_with_progress", arguments: {}, _meta: { ...meta, progressToken: "p" } } });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "test_tool_with_progress" };
    const answer = await send({ port, method: "POST", path: "/mcp", headers, body });
    expect(answer.headers["content-type"]).toContain("text/event-stream");
    const page = (await api("GET", "/api/serve/mcp/frames?after=0")).json<FramePage>();
    expect(page.frames.every((f) => f.session === undefined)).toBe(true);
    expect(page.frames.map((f) => [f.direction, f.text.includes('"progress"') ? "progress" : f.text.includes('"resultType":"complete"') ? "result" : f.text])).toEqual([
      ["in", body],
      ["out", "progress"],
      ["out", "progress"],
      ["out", "progress"],
      ["out", "result"],
    ]);
    const sent = answer.text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
    expect(page.frames.slice(1).map((f) => f.text)).toEqual(sent);
    const refused = await send({ port, method: "POST", path: "/mcp", headers: { ...headers, "mcp-name": "other" }, body });
    expect(refused.status).toBe(400);
    const last = (await api("GET", `/api/serve/mcp/frames?after=${page.next}`)).json<FramePage>().frames;
    expect(last.map((f) => f.direction)).toEqual(["in", "out"]);
    expect(last[1]!.text).toBe(refused.text);
  });
});
