/**
 * Operator approvals on the backend's MCP surface: the official SDK client calls the demo
 * `confirm` tool over Streamable HTTP in confirm mode `operator`, and the test, as the console's
 * user, approves, refuses, lets it expire or stops serving through /api/serve/approvals. Also
 * GET /api/serve/info, and `patchbay serve` reading the saved toolkit file it names.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import type { PendingApproval } from "../../src/core/serving/mcp/operator-approvals.ts";
import { toolkitToFile } from "../../src/core/serving/toolkit/toolkit-text.ts";
import type { ServeInfo } from "../../server/serving/info-routes.ts";
import { errorOf, runCli, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

const WHAT = 'confirm {"action":"wipe the demo disk"}';
const call = { name: "confirm", arguments: { action: "wipe the demo disk" } };
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

function api(t: TestBackend, method: string, path: string, body?: unknown, extra: { auth?: boolean; raw?: string; type?: string } = {}) {
  const payload = extra.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  return send({
    port: t.port,
    method,
    path,
    headers: { ...(extra.auth === false ? {} : t.auth), ...(payload === undefined ? {} : { "content-type": extra.type ?? "application/json" }) },
    ...(payload === undefined ? {} : { body: payload }),
  });
}

async function serveOperator(t: TestBackend, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api(t, "POST", "/api/serve/mcp/start", { port: 0, confirmMode: "operator", ...extra });
  expect(res.status, res.text).toBe(200);
  const status = res.json<{ url: string; confirmMode: string }>();
  expect(status.confirmMode).toBe("operator");
  return status.url;
}

/** An eliciting client that records being asked: in operator mode it never should be. */
async function connect(url: string): Promise<{ client: Client; asked: () => number }> {
  const client = new Client({ name: "serve-approvals-test", version: "0" }, { capabilities: { elicitation: {} } });
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, async () => (asked++, { action: "accept", content: { approve: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return { client, asked: () => asked };
}

const textOf = (result: object) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "");
const pending = async (t: TestBackend) => (await api(t, "GET", "/api/serve/approvals")).json<{ approvals: PendingApproval[] }>().approvals;

async function waitingOne(t: TestBackend): Promise<PendingApproval> {
  await expect.poll(async () => (await pending(t)).length).toBe(1);
  return (await pending(t))[0]!;
}

describe("approvals with the default two-minute wait", () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ maxBodyBytes: 4096 });
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await api(t, "POST", "/api/serve/mcp/stop");
  });

  it("lists the waiting call without holding a slot or asking the client, runs it once approved, and applies a decision once", async () => {
    expect(await pending(t)).toEqual([]);
    const { client, asked } = await connect(await serveOperator(t, { concurrency: 1 }));
    const before = Date.now();
    const result = client.callTool(call);
    const waiting = await waitingOne(t);
    expect(waiting).toEqual({ id: expect.any(String), surface: "mcp", tool: "confirm", what: WHAT, arguments: { action: "wipe the demo disk" }, askedAt: expect.any(Number), expiresAt: waiting.askedAt + 120_000 });
    expect(waiting.askedAt).toBeGreaterThanOrEqual(before - 1000);
    // The single slot is free while the operator thinks.
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "meanwhile" } }))).toBe("meanwhile");

    const decided = await api(t, "POST", `/api/serve/approvals/${encodeURIComponent(waiting.id)}`, { approve: true });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.json()).toEqual({ ok: true });
    expect(textOf(await result)).toBe("done: wipe the demo disk");
    expect(asked()).toBe(0);
    const again = await api(t, "POST", `/api/serve/approvals/${encodeURIComponent(waiting.id)}`, { approve: false });
    expect(again.status).toBe(404);
    expect(errorOf(again).code).toBe("unknown_approval");
    expect(await pending(t)).toEqual([]);
  });

  it("refuses the call when the operator says no", async () => {
    const { client } = await connect(await serveOperator(t));
    const result = client.callTool(call);
    const waiting = await waitingOne(t);
    expect((await api(t, "POST", `/api/serve/approvals/${waiting.id}`, { approve: false })).status).toBe(200);
    const refused = await result;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(`Not run: the Patchbay operator reviewed ${WHAT} and chose not to run it. That was their decision; do not retry.`);
  });

  it("withdraws the question when the client cancels its call", async () => {
    const { client } = await connect(await serveOperator(t));
    const cancel = new AbortController();
    const result = client.callTool(call, undefined, { signal: cancel.signal }).catch((error: Error) => error.message);
    const waiting = await waitingOne(t);
    cancel.abort();
    expect(await result).toMatch(/abort|cancel/i);
    await expect.poll(async () => (await pending(t)).length).toBe(0);
    expect((await api(t, "POST", `/api/serve/approvals/${waiting.id}`, { approve: true })).status).toBe(404);
  });

  it("dismisses waiting calls when serving stops", async () => {
    const { client } = await connect(await serveOperator(t));
    const outcome = client.callTool(call).then(textOf, (error: Error) => `closed: ${error.message}`);
    const waiting = await waitingOne(t);
    expect((await api(t, "POST", "/api/serve/mcp/stop")).status).toBe(200);
    expect(await pending(t)).toEqual([]);
    expect(await outcome).toBe(`Not run: the approval prompt for ${WHAT} was dismissed: serving stopped before the Patchbay operator decided. It may be asked again if still needed.`);
    expect((await api(t, "POST", `/api/serve/approvals/${waiting.id}`, { approve: true })).status).toBe(404);
  });

  it("refuses hostile and malformed decisions without touching the waiting call", async () => {
    const { client } = await connect(await serveOperator(t));
    const result = client.callTool(call);
    const { id } = await waitingOne(t);
    const path = `/api/serve/approvals/${id}`;
    for (const body of [{}, { approve: "yes" }, { approve: 1 }, { approve: null }, [true], "true", true, { approve: true, also: 1 }, { "__proto__": { approve: true } }]) {
      const res = await api(t, "POST", path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toMatch(/^invalid_/);
    }
    expect((await api(t, "POST", path, undefined, { raw: "{ approve: true" })).status).toBe(400);
    expect((await api(t, "POST", path, undefined, { raw: "" })).status).toBe(400);
    expect((await api(t, "POST", path, undefined, { raw: '{"approve":true}', type: "text/plain" })).status).toBe(415);
    expect((await api(t, "POST", path, undefined, { raw: `{"approve":true,"pad":"${"x".repeat(10_000)}"}` })).status).toBe(413);
    expect((await api(t, "POST", path, { approve: true }, { auth: false })).status).toBe(401);
    expect((await api(t, "GET", "/api/serve/approvals", undefined, { auth: false })).status).toBe(401);
    expect((await api(t, "GET", path)).status).toBe(405);
    expect((await api(t, "POST", "/api/serve/approvals", { approve: true })).status).toBe(405);
    for (const bad of ["nope", "..%2F..%2Fetc", encodeURIComponent("' OR 1=1"), "x".repeat(2000), encodeURIComponent(id.toUpperCase()), `${id}%00`]) {
      const res = await api(t, "POST", `/api/serve/approvals/${bad}`, { approve: true });
      expect(res.status, bad.slice(0, 40)).toBe(404);
    }
    expect((await api(t, "POST", "/api/serve/approvals/%zz", { approve: true })).status).toBe(400);
    // Still waiting, still decidable.
    expect((await pending(t)).map((p) => p.id)).toEqual([id]);
    expect((await api(t, "POST", path, { approve: true })).status).toBe(200);
    expect(textOf(await result)).toBe("done: wipe the demo disk");
  });
});

describe("an approval nobody decides", () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ approvalTimeoutMs: 400 });
  });
  afterAll(() => t.close());

  it("expires into the dismissed refusal, and a late decision is 404", async () => {
    const { client } = await connect(await serveOperator(t));
    const result = client.callTool(call);
    const waiting = await waitingOne(t);
    expect(waiting.expiresAt - waiting.askedAt).toBe(400);
    const refused = await result;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(`Not run: the approval prompt for ${WHAT} was dismissed: the Patchbay operator did not decide in time. It may be asked again if still needed.`);
    expect(await pending(t)).toEqual([]);
    expect((await api(t, "POST", `/api/serve/approvals/${waiting.id}`, { approve: true })).status).toBe(404);
  });
});

describe("GET /api/serve/info, and serving the saved toolkit it names", () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend();
  });
  afterAll(() => t.close());

  it("names this Node, Patchbay's bin and the workspace, spawning nothing", async () => {
    const res = await api(t, "GET", "/api/serve/info");
    expect(res.status).toBe(200);
    const info = res.json<ServeInfo>();
    expect(info).toEqual({ stdio: { command: process.execPath, args: [expect.any(String), "serve", "--stdio"] }, workspace: t.workspace });
    expect(isAbsolute(info.stdio.args[0]!)).toBe(true);
    expect(info.stdio.args[0]!.endsWith(join("bin", "patchbay.mjs"))).toBe(true);
    expect(existsSync(info.stdio.args[0]!)).toBe(true);
    expect((await api(t, "GET", "/api/serve/info?toolkit=missing")).json<ServeInfo>().stdio.args).toHaveLength(3);
    expect((await api(t, "GET", "/api/serve/info", undefined, { auth: false })).status).toBe(401);
  });

  it.each(["..%2Fsecret", "a%2Fb", "%00", "con", ".hidden", "x".repeat(129), "a%5Cb", "%E2%80%AE"])("refuses the toolkit name %s", async (name) => {
    const res = await api(t, "GET", `/api/serve/info?toolkit=${name}`);
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: "bad_query", message: expect.stringMatching(/^"toolkit" must name a saved toolkit: /) });
  });

  it("adds the saved toolkit's file, which 'patchbay serve' reads as a workspace document", async () => {
    const name = "saved-kit";
    const saved = await api(t, "PUT", `/api/workspace/toolkits/${name}`, { data: { ...toolkitToFile(DEMO_TOOLKIT), name: "saved-agent" } });
    expect(saved.status, saved.text).toBe(200);
    const info = (await api(t, "GET", `/api/serve/info?toolkit=${name}`)).json<ServeInfo>();
    const file = join(t.workspace, "toolkits", `${name}.json`);
    expect(info.stdio.args).toEqual([expect.any(String), "serve", "--stdio", file]);

    // The same file, served over HTTP in-process instead of stdio (the bin would build into dist/).
    const cli = runCli(["serve", "--http", "--port", "0", "--no-fixtures", file]);
    try {
      await expect.poll(() => cli.stdout.join(""), { timeout: 10_000 }).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/mcp/);
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(cli.stdout.join(""))![1]!;
      expect(cli.stdout.join("")).toContain("Serving saved-agent over MCP");
      const { client } = await connect(url);
      expect(client.getServerVersion()?.name).toBe("saved-agent");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(DEMO_TOOLKIT.tools.map((tool) => tool.name));
      expect(cli.stderr.join("")).not.toMatch(/error/);
    } finally {
      cli.stop();
      expect(await cli.done).toBe(0);
    }
  });
});
