/**
 * The relay's standalone GET stream against a real server (server-everything over Streamable
 * HTTP on 127.0.0.1): what the server says outside any request arrives. Plus the session limits
 * over the API, and the backend log kept free of header and env values whatever goes wrong.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { McpConnection, RelayTransport, type RelayConsoleEvent } from "../../src/core/mcp/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { openRelayStream, type RelayEv, waitFor } from "../helpers/relay-stream.ts";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

type Ev = RelayEv;
type Msg = { id?: number | string; method?: string; params?: { level?: string; data?: unknown }; result?: unknown };

let t: TestBackend;
const openStream = (id: string) => openRelayStream(t.port, t.auth, id);
let everything: ChildProcess;
let url = "";
let odd: Server;
let oddPort = 0;

beforeAll(async () => {
  t = await startTestBackend();
  const port = await freePort();
  everything = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    everything.stderr!.on("data", (d: Buffer) => {
      said += d.toString();
      if (/listening on port/.test(said)) resolve();
    });
    everything.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
  url = `http://127.0.0.1:${port}/mcp`;
  // Failures on demand: a 401, a redirect elsewhere, and an answer that never comes.
  odd = createServer((req, res) => {
    req.resume();
    if (req.url === "/denied") res.writeHead(401, { "www-authenticate": "Bearer" }).end("who are you?");
    else if (req.url === "/moved") res.writeHead(307, { location: "http://elsewhere.invalid/mcp" }).end();
    else if (req.url === "/hang") return; // never answers
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
  oddPort = (odd.address() as AddressInfo).port;
});

afterAll(async () => {
  await t.close();
  everything.kill("SIGKILL");
  odd.closeAllConnections();
  await new Promise((r) => odd.close(r));
});

const post = (path: string, body: string) => send({ port: t.port, method: "POST", path, headers: { ...t.auth, "content-type": "application/json" }, body });

async function create(body: Record<string, unknown>): Promise<string> {
  const res = await post("/api/mcp/sessions", JSON.stringify(body));
  expect(res.status, res.text).toBe(201);
  return res.json<{ id: string }>().id;
}



const messages = (events: Ev[]) => events.flatMap((e) => (e.type === "message" ? [JSON.parse(e.text!) as Msg] : []));
const init = (capabilities: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "edge-test", version: "0" } } });

describe("the standalone GET stream against server-everything", () => {
  it("carries the server's own request (roots/list) and the log message it sends after our answer", async () => {
    const id = await create({ transport: "streamable-http", url });
    const stream = await openStream(id);
    await post(`/api/mcp/sessions/${id}/messages`, init({ roots: { listChanged: true } }));
    await post(`/api/mcp/sessions/${id}/messages`, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    // server-everything asks for roots 350 ms after initialized, outside any request of ours.
    const ask = await waitFor(() => messages(stream.events).find((m) => m.method === "roots/list"), "roots/list", stream.events);
    expect(stream.events.some((e) => e.type === "note" && e.text === "GET stream open (HTTP 200)")).toBe(true);
    const answer = { jsonrpc: "2.0", id: ask.id, result: { roots: [{ uri: "file:///tmp/edge", name: "edge" }] } };
    expect((await post(`/api/mcp/sessions/${id}/messages`, JSON.stringify(answer))).status).toBe(202);
    const log = await waitFor(() => messages(stream.events).find((m) => m.method === "notifications/message"), "the roots log", stream.events);
    expect(log.params?.data).toBe("Roots updated: 1 root(s) received from client");
    expect(stream.events.filter((e) => e.type === "error")).toEqual([]);
    await post(`/api/mcp/sessions/${id}/close`, "");
    await stream.ended;
  });

  it("brings simulated log messages to McpConnection's log event between requests", async () => {
    const clock = systemClock(performance, Date);
    const consoleEvents: RelayConsoleEvent[] = [];
    const transport = new RelayTransport({
      fetch: globalThis.fetch,
      baseUrl: `http://127.0.0.1:${t.port}`,
      token: t.token,
      session: { transport: "streamable-http", url, limits: { headersTimeoutMs: 10_000, idleTimeoutMs: 10_000 } },
      wireLog: new WireLog(clock, 1000),
      clock,
      ids: sequentialIds("edge"),
      onConsole: (e) => consoleEvents.push(e),
    });
    const connection = new McpConnection();
    const logs: unknown[] = [];
    connection.on("log", (params) => logs.push(params.data));
    await connection.connect(transport, { clientInfo: { name: "edge-test", version: "0" }, timeoutMs: 20_000 });
    try {
      const started = await connection.callTool("toggle-simulated-logging", {});
      expect(started.kind).toBe("success");
      // One message at once, then one every 5 s: all sent outside the call, so only the GET stream carries them.
      await waitFor(() => (logs.length >= 2 ? true : undefined), "two simulated log messages", logs, 12_000);
      expect(String(logs[1])).toMatch(/message - SessionId /);
      expect(consoleEvents).toContainEqual(expect.objectContaining({ type: "note", text: "GET stream open (HTTP 200)" }));
      await connection.callTool("toggle-simulated-logging", {});
    } finally {
      await connection.close();
    }
  }, 30_000);
});

describe("session limits over the API", () => {
  it.each([
    ['{"limits":5}', /limits must be an object/],
    ['{"limits":{"idleTimeoutMs":50}}', /limits\.idleTimeoutMs must be a whole number from 100 to 300000/],
    ['{"limits":{"headersTimeoutMs":300001}}', /limits\.headersTimeoutMs must be a whole number from 100 to 300000/],
    ['{"limits":{"maxMessageBytes":1.5}}', /limits\.maxMessageBytes must be a whole number/],
    ['{"limits":{"retries":3}}', /unexpected property limits\.retries/],
  ])("400s %s", async (extra, message) => {
    const body = JSON.stringify({ transport: "streamable-http", url: "http://127.0.0.1:9/mcp", ...(JSON.parse(extra) as object) });
    const res = await post("/api/mcp/sessions", body);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(message);
  });

  it("refuses limits on stdio, which has no upstream HTTP", async () => {
    const res = await post("/api/mcp/sessions", JSON.stringify({ transport: "stdio", command: "x", limits: {} }));
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/unexpected property "limits" for transport stdio/);
  });

  it("takes valid limits and applies them: a missing answer is reported after headersTimeoutMs", async () => {
    const id = await create({ transport: "streamable-http", url: `http://127.0.0.1:${oddPort}/hang`, limits: { headersTimeoutMs: 300 } });
    const stream = await openStream(id);
    await post(`/api/mcp/sessions/${id}/messages`, init({}));
    const err = await waitFor(() => stream.events.find((e) => e.type === "error"), "the timeout", stream.events);
    expect(err).toMatchObject({ step: "http", requestIds: [1], message: `http: no response headers from 127.0.0.1:${oddPort} within 300 ms (headersTimeoutMs)` });
    await post(`/api/mcp/sessions/${id}/close`, "");
  });
});

describe("secrets stay out of the backend log", () => {
  it("logs no header, env or URL credential value, whatever fails", async () => {
    const header = "Bearer hdr-secret-5c1e";
    const envValue = "env-secret-9d2b";
    const query = "q-secret-77aa";
    const refused = await freePort();
    const sessions = [
      { transport: "stdio", command: process.execPath, args: ["-e", "process.exit(3)"], env: { API_KEY: envValue } },
      { transport: "streamable-http", url: `http://127.0.0.1:${refused}/mcp?token=${query}`, headers: { Authorization: header } },
      { transport: "streamable-http", url: `http://127.0.0.1:${oddPort}/denied`, headers: { Authorization: header } },
      { transport: "streamable-http", url: `http://127.0.0.1:${oddPort}/moved`, headers: { Authorization: header } },
      { transport: "streamable-http", url: `http://127.0.0.1:${oddPort}/hang`, headers: { Authorization: header }, limits: { headersTimeoutMs: 200 } },
      { transport: "sse", url: `http://127.0.0.1:${refused}/sse?token=${query}`, headers: { Authorization: header } },
      { transport: "sse", url: `http://127.0.0.1:${oddPort}/denied`, headers: { "X-Api-Key": header } },
    ];
    const seen: Ev[] = [];
    for (const body of sessions) {
      const id = await create(body);
      const stream = await openStream(id);
      if (body.transport === "streamable-http") {
        await post(`/api/mcp/sessions/${id}/messages`, init({}));
        await waitFor(() => stream.events.find((e) => e.type === "error"), `an error from ${body.transport}`, stream.events);
      }
      if (body.transport !== "streamable-http") await waitFor(() => stream.events.find((e) => e.type === "closed"), "the close", stream.events);
      await post(`/api/mcp/sessions/${id}/close`, "");
      await stream.ended;
      seen.push(...stream.events);
    }
    const withPassword = await post("/api/mcp/sessions", JSON.stringify({ transport: "streamable-http", url: "http://user:pw-secret-31f0@127.0.0.1:9/mcp" }));
    expect(withPassword.status).toBe(400);
    expect(errorOf(withPassword).message).toMatch(/must not carry credentials/);
    expect(withPassword.text).not.toContain("pw-secret");

    const log = t.logs.join("\n");
    expect(log).toContain("mcp relay session closed");
    for (const secret of ["hdr-secret", envValue, query, "pw-secret"]) expect(log).not.toContain(secret);
    // What the client sees names hosts and statuses, never the values the user sent.
    expect(JSON.stringify(seen)).not.toContain("hdr-secret");
    expect(JSON.stringify(seen)).not.toContain(envValue);
    expect(seen.some((e) => e.type === "error" && e.status === 401)).toBe(true);
    expect(seen.some((e) => e.type === "error" && /another origin; not followed/.test(e.message ?? ""))).toBe(true);
  });
});
