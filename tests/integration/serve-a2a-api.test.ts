/**
 * The toolkit served as an A2A agent from the backend: started and stopped through the
 * token-guarded API, answering JSON-RPC on its own port, its traffic readable from the frame
 * ring, and one concurrency limit shared with the MCP surface.
 */
import { createServer } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { A2aServeStatus } from "../../server/serving/a2a-serve-manager.ts";
import type { FramePage } from "../../server/serving/frame-ring.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

type Running = Extract<A2aServeStatus, { running: true }> & { issues: string[] };

let backend: TestBackend;
const clients: Client[] = [];

beforeEach(async () => {
  backend = await startTestBackend();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await backend.close();
});

function api(method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  return send({
    port: backend.port,
    method,
    path,
    headers: { ...backend.auth, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...extra },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
}

async function start(body: unknown = { port: 0 }): Promise<Running> {
  const res = await api("POST", "/api/serve/a2a/start", body);
  expect(res.status, res.text).toBe(200);
  return res.json<Running>();
}

async function rpc(url: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as Record<string, unknown>;
}

const message = (data: unknown) => ({ message: { kind: "message", role: "user", messageId: `m-${Math.random()}`, parts: [{ kind: "data", data }] }, configuration: { blocking: true } });

describe("the A2A surface through the API", () => {
  it("starts, answers a message on its own port, records the frames, and stops", async () => {
    expect((await (await api("GET", "/api/serve/a2a/status")).json<A2aServeStatus>()).running).toBe(false);
    const running = await start({ port: 0, confirm: "ask" });
    expect(running).toMatchObject({ running: true, toolkit: "patchbay-demo", confirm: "ask", defaultSkill: "echo", issues: [] });
    expect(running.cardUrl).toBe(`${running.baseUrl}/.well-known/agent-card.json`);
    expect(running.tools.find((t) => t.name === "confirm")?.served).toBe(true);
    const card = (await (await fetch(running.cardUrl)).json()) as { skills: { id: string }[] };
    expect(card.skills.map((s) => s.id)).toContain("echo");

    const answer = await rpc(running.jsonRpcUrl, "message/send", message({ skill: "echo", arguments: { message: "over the API" } }));
    expect(JSON.stringify(answer)).toContain("over the API");
    expect((answer.result as { status: { state: string } }).status.state).toBe("completed");

    const status = await (await api("GET", "/api/serve/a2a/status")).json<Running>();
    expect(status.tasks.kept).toBeGreaterThanOrEqual(1);
    const page = await (await api("GET", "/api/serve/a2a/frames?after=0")).json<FramePage>();
    const rpcFrames = page.frames.filter((f) => f.binding === "jsonrpc");
    expect(rpcFrames[0]).toMatchObject({ direction: "in", method: "POST", path: "/a2a/jsonrpc" });
    expect(rpcFrames[0]?.text).toContain('"message/send"');
    expect(rpcFrames.at(-1)).toMatchObject({ direction: "out", status: 200 });
    expect(page.frames.some((f) => f.binding === "card" && f.direction === "out")).toBe(true);

    const stopped = await (await api("POST", "/api/serve/a2a/stop", {})).json<A2aServeStatus>();
    expect(stopped.running).toBe(false);
    await expect(fetch(running.cardUrl)).rejects.toThrow();
  });

  it("GET never starts anything, and the routes need the token and a loopback Origin", async () => {
    await api("GET", "/api/serve/a2a/status");
    await api("GET", "/api/serve/a2a/frames");
    expect((await (await api("GET", "/api/serve/a2a/status")).json<A2aServeStatus>()).running).toBe(false);
    const noToken = await send({ port: backend.port, method: "POST", path: "/api/serve/a2a/start", headers: { "content-type": "application/json" }, body: "{}" });
    expect(noToken.status).toBe(401);
    const foreign = await api("POST", "/api/serve/a2a/start", { port: 0 }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await (await api("GET", "/api/serve/a2a/status")).json<A2aServeStatus>()).running).toBe(false);
  });

  it("refuses bad bodies with the field named, and leaves nothing running", async () => {
    const cases: [unknown, string][] = [
      ["[1]", "expected a JSON object"],
      [{ port: 0, colour: "red" }, 'unknown option "colour"'],
      [{ port: 70_000 }, '"port" must be a whole number from 0 to 65535'],
      [{ port: 0, confirm: "yes" }, '"confirm" must be "omit"'],
      [{ port: 0, concurrency: 0 }, '"concurrency" must be a whole number from 1 to 64'],
      [{ port: 0, defaultSkill: "add" }, "cannot take a text message"],
      [{ port: 0, defaultSkill: "nope" }, "is not among the served skills (echo"],
      [{ port: 0, toolkit: { tools: "x" } }, "the toolkit cannot be served"],
    ];
    for (const [body, words] of cases) {
      const res = await api("POST", "/api/serve/a2a/start", body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(400);
      expect(errorOf(res).message).toContain(words);
    }
    expect((await (await api("GET", "/api/serve/a2a/status")).json<A2aServeStatus>()).running).toBe(false);
    // Nothing holds the shared limit either: MCP may choose its own.
    const mcp = await api("POST", "/api/serve/mcp/start", { port: 0, concurrency: 5 });
    expect(mcp.status, mcp.text).toBe(200);
  });

  it("answers 409 for a second start and for a port in use", async () => {
    await start();
    const again = await api("POST", "/api/serve/a2a/start", { port: 0 });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("already_serving");
    await api("POST", "/api/serve/a2a/stop", {});
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const res = await api("POST", "/api/serve/a2a/start", { port });
      expect(res.status).toBe(409);
      expect(errorOf(res)).toMatchObject({ code: "port_in_use" });
      expect(errorOf(res).message).toContain(`port ${port} is already in use`);
    } finally {
      taken.close();
    }
    expect((await start()).running).toBe(true);
  });
});

describe("the backend closing", () => {
  it("stops the A2A agent and its port", async () => {
    const own = await startTestBackend();
    const res = await send({ port: own.port, method: "POST", path: "/api/serve/a2a/start", headers: { ...own.auth, "content-type": "application/json" }, body: '{"port":0}' });
    expect(res.status, res.text).toBe(200);
    const { cardUrl } = res.json<Running>();
    expect((await fetch(cardUrl)).status).toBe(200);
    await own.close();
    await expect(fetch(cardUrl)).rejects.toThrow();
  });
});

describe("one concurrency limit across the served surfaces", () => {
  it("a tool running over MCP takes the slot an A2A message would need; a different limit is refused", async () => {
    const mcpStart = await api("POST", "/api/serve/mcp/start", { port: 0, concurrency: 1 });
    expect(mcpStart.status, mcpStart.text).toBe(200);
    const mcpUrl = mcpStart.json<{ url: string }>().url;
    const clash = await api("POST", "/api/serve/a2a/start", { port: 0, concurrency: 3 });
    expect(clash.status).toBe(409);
    expect(errorOf(clash)).toMatchObject({ code: "concurrency_shared" });
    expect(errorOf(clash).message).toContain("the MCP surface shares a limit of 1");
    const running = await start({ port: 0 });
    expect(running.concurrency).toBe(1);

    const client = new Client({ name: "shared-limit-test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    clients.push(client);
    expect((await api("GET", "/api/serve/mcp/status")).json<{ concurrency: number }>().concurrency).toBe(1);
    const slow = client.callTool({ name: "slow", arguments: { seconds: 3 } });
    // The call has reached the MCP surface (and takes the one slot as it is handled).
    await expect
      .poll(async () => (await api("GET", "/api/serve/mcp/frames?after=0")).json<FramePage>().frames.some((f) => f.direction === "in" && f.text.includes('"tools/call"')))
      .toBe(true);
    const refused = await rpc(running.jsonRpcUrl, "message/send", message({ skill: "echo", arguments: { message: "no room" } }));
    const task = refused.result as { status: { state: string; message?: { parts: { text?: string }[] } } };
    expect(task.status.state).toBe("rejected");
    expect(JSON.stringify(task.status.message)).toContain("already running its maximum of 1 tool calls at once");
    await slow;
    const after = await rpc(running.jsonRpcUrl, "message/send", message({ skill: "echo", arguments: { message: "room now" } }));
    expect((after.result as { status: { state: string } }).status.state).toBe("completed");
  });
});
