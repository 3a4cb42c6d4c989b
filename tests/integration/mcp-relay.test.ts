/**
 * The MCP relay over the real HTTP API with a real stdio server (server-everything), raw JSON-RPC
 * text only: create, stream, send, close; plus the API's refusals (auth, body checks, 409, 429).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { openRelayStream, type RelayEv, waitFor } from "../helpers/relay-stream.ts";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

type Ev = RelayEv;

let t: TestBackend;
const openStream = (id: string) => openRelayStream(t.port, t.auth, id);
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  send({ port: t.port, method: "POST", path, headers: { ...t.auth, "content-type": "application/json", ...headers }, body });

async function createStdio(extra: Record<string, unknown> = {}): Promise<{ id: string; pid: number }> {
  const res = await post("/api/mcp/sessions", JSON.stringify({ transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"], ...extra }));
  expect(res.status, res.text).toBe(201);
  return res.json();
}

/** Open the NDJSON stream and collect its events. */


const responseTo = (events: Ev[], id: number) =>
  events.find((e) => e.type === "message" && (JSON.parse(e.text!) as { id?: unknown }).id === id);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "relay-test", version: "0" } },
});

describe("stdio relay against server-everything", () => {
  it("relays initialize, tools/list and tools/call echo in order, with stderr, and close kills the process", async () => {
    const { id, pid } = await createStdio({ env: { RELAY_TEST_MARK: "from-the-session" } });
    expect(alive(pid)).toBe(true);
    const stream = await openStream(id);
    expect(stream.status).toBe(200);
    expect(stream.type).toBe("application/x-ndjson");

    for (const body of [
      INIT,
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi relay"}}}',
    ]) {
      const res = await post(`/api/mcp/sessions/${id}/messages`, body);
      expect(res.status).toBe(202);
      expect(res.json()).toEqual({ accepted: true });
    }
    const echo = await waitFor(() => responseTo(stream.events, 3), "the echo result");
    expect(echo.text).toContain("hi relay");
    const order = stream.events.filter((e) => e.type === "message").map((e) => (JSON.parse(e.text!) as { id?: number }).id).filter((x) => x !== undefined);
    expect(order).toEqual([1, 2, 3]);
    const init = JSON.parse(responseTo(stream.events, 1)!.text!) as { result: { protocolVersion: string } };
    expect(init.result.protocolVersion).toBe("2025-06-18");
    const tools = JSON.parse(responseTo(stream.events, 2)!.text!) as { result: { tools: { name: string }[] } };
    expect(tools.result.tools.map((x) => x.name)).toContain("echo");
    expect(stream.events.some((e) => e.type === "stderr" && /STDIO/.test(e.text!))).toBe(true);
    for (const e of stream.events) expect(typeof e.at).toBe("number");

    const list = await send({ port: t.port, path: "/api/mcp/sessions", headers: t.auth });
    const mine = list.json<{ sessions: Record<string, unknown>[] }>().sessions.find((s) => s.id === id);
    expect(mine).toMatchObject({ id, transport: "stdio", pid, open: true });
    expect(String(mine?.target)).toContain("stdio");
    expect(list.text).not.toContain("from-the-session");
    expect(t.logs.join("\n")).not.toContain("from-the-session");

    const closed = await post(`/api/mcp/sessions/${id}/close`, "");
    expect(closed.status).toBe(200);
    expect(closed.json()).toEqual({ closed: true });
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ type: "closed" });
    expect(alive(pid)).toBe(false);
    const after = await post(`/api/mcp/sessions/${id}/messages`, '{"jsonrpc":"2.0","method":"ping","id":9}');
    expect([404, 409]).toContain(after.status);
  });

  it("passes env to the child (get-env shows it) and buffers events sent before the stream opens", async () => {
    const { id } = await createStdio({ env: { RELAY_TEST_MARK: "env-reached-child" } });
    await post(`/api/mcp/sessions/${id}/messages`, INIT);
    await post(`/api/mcp/sessions/${id}/messages`, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await post(`/api/mcp/sessions/${id}/messages`, '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get-env","arguments":{}}}');
    await new Promise((r) => setTimeout(r, 500));
    const stream = await openStream(id);
    const env = await waitFor(() => responseTo(stream.events, 5), "the get-env result");
    expect(env.text).toContain("env-reached-child");
    await post(`/api/mcp/sessions/${id}/close`, "");
    await stream.ended;
  });

  it("forwards invalid JSON byte for byte, and the server keeps serving afterwards", async () => {
    // A child that echoes each stdin line back shows exactly what arrived.
    const echo = "process.stdin.setEncoding('utf8');let b='';process.stdin.on('data',d=>{b+=d;let i;while((i=b.indexOf('\\n'))>=0){process.stdout.write(b.slice(0,i)+'\\n');b=b.slice(i+1)}})";
    const res = await post("/api/mcp/sessions", JSON.stringify({ transport: "stdio", command: process.execPath, args: ["-e", echo] }));
    const { id } = res.json<{ id: string }>();
    const stream = await openStream(id);
    const raw = '{"jsonrpc":"2.0","id":7,"method":"tools/list",,,}  \u00e9 ü';
    expect((await post(`/api/mcp/sessions/${id}/messages`, raw, { "content-type": "text/plain" })).status).toBe(202);
    const back = await waitFor(() => stream.events.find((e) => e.type === "message"), "the echoed frame");
    expect(back.text).toBe(raw);
    await post(`/api/mcp/sessions/${id}/close`, "");

    const real = await createStdio();
    const live = await openStream(real.id);
    await post(`/api/mcp/sessions/${real.id}/messages`, '{"jsonrpc":"2.0","id":7,"method":"initialize",,,}');
    await post(`/api/mcp/sessions/${real.id}/messages`, INIT);
    const init = await waitFor(() => responseTo(live.events, 1), "initialize after a malformed frame");
    expect(init.text).toContain("protocolVersion");
    await post(`/api/mcp/sessions/${real.id}/close`, "");
    await live.ended;
  });

  it("refuses a second stream with 409 while the first is open", async () => {
    const { id } = await createStdio();
    const first = await openStream(id);
    const second = await post(`/api/mcp/sessions/${id}/stream`, "");
    expect(second.status).toBe(409);
    expect(errorOf(second).code).toBe("stream_taken");
    await post(`/api/mcp/sessions/${id}/close`, "");
    await first.ended;
  });

  it("reports a command that does not exist as 502 spawn_failed naming the step", async () => {
    const res = await post("/api/mcp/sessions", JSON.stringify({ transport: "stdio", command: "patchbay-no-such-command-xyz" }));
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: "spawn_failed" });
    expect(errorOf(res).message).toMatch(/^command ".*patchbay-no-such-command-xyz" was not found \(ENOENT\)/);
  });

  it("reports a process that exits on its own with its exit code", async () => {
    const res = await post("/api/mcp/sessions", JSON.stringify({ transport: "stdio", command: process.execPath, args: ["-e", "console.error('bye'); process.exit(3)"] }));
    const { id } = res.json<{ id: string }>();
    const stream = await openStream(id);
    await stream.ended;
    expect(stream.events.find((e) => e.type === "stderr")?.text).toBe("bye");
    expect(stream.events.at(-1)).toMatchObject({ type: "closed", code: 3 });
  });
});

describe("backend shutdown", () => {
  it("stops every child and ends every stream when the backend closes", async () => {
    const other = await startTestBackend();
    const res = await send({
      port: other.port,
      method: "POST",
      path: "/api/mcp/sessions",
      headers: { ...other.auth, "content-type": "application/json" },
      body: JSON.stringify({ transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] }),
    });
    const { pid } = res.json<{ pid: number }>();
    expect(alive(pid)).toBe(true);
    await other.close();
    expect(alive(pid)).toBe(false);
    expect(other.logs.some((l) => l.includes("mcp relay session closed") && l.includes("SIGTERM"))).toBe(true);
  });
});

describe("the session API's checks", () => {
  it("401s without a token", async () => {
    const res = await send({ port: t.port, method: "POST", path: "/api/mcp/sessions", headers: { "content-type": "application/json" }, body: '{"transport":"stdio","command":"x"}' });
    expect(res.status).toBe(401);
  });

  it("403s a foreign Origin even with the token", async () => {
    const res = await post("/api/mcp/sessions", '{"transport":"stdio","command":"x"}', { origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it.each([
    ['{"transport":"carrier-pigeon"}', /unknown transport "carrier-pigeon"/],
    ['{"transport":"stdio"}', /command is required/],
    ['{"transport":"stdio","command":""}', /command must not be empty/],
    ['{"transport":"stdio","command":"x","args":[1]}', /args\[0\] must be a string/],
    ['{"transport":"stdio","command":"x","env":{"TOKEN":5}}', /env\.TOKEN must be a string/],
    ['{"transport":"stdio","command":"x","shell":true}', /unexpected property "shell"/],
    ['{"transport":"streamable-http","url":"file:///etc/passwd"}', /http: or https:/],
    ['{"transport":"sse","url":"not a url"}', /not a valid absolute URL/],
    ['{"transport":"sse","url":"http://me:pw@127.0.0.1/sse"}', /must not carry credentials/],
    ['{"transport":"streamable-http","url":"http://127.0.0.1/mcp","limits":{"idleTimeoutMs":0}}', /limits\.idleTimeoutMs must be a whole number/],
    ['{"transport":"streamable-http","url":"http://127.0.0.1/mcp","headers":{"Authorization":42}}', /headers\.Authorization must be a string/],
    ['{"transport":"streamable-http","url":"http://127.0.0.1/mcp","headers":{"X":"a\\r\\nInjected: 1"}}', /CR, LF/],
    ['{"transport":"streamable-http","url":"http://127.0.0.1/mcp","headers":{"X":"snow \u2603"}}', /printable Latin-1/],
    ['{"transport":"streamable-http","url":"http://127.0.0.1/mcp","headers":{"Mcp-Session-Id":"x"}}', /set by the relay/],
    ["[]", /expected a JSON object/],
  ])("400s %s", async (body, message) => {
    const res = await post("/api/mcp/sessions", body);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(message);
  });

  it("413s an oversize body", async () => {
    const big = JSON.stringify({ transport: "stdio", command: "x", args: ["y".repeat(1024 * 1024 + 10)] });
    expect((await post("/api/mcp/sessions", big)).status).toBe(413);
  });

  it("404s an unknown session and never lets GET create one", async () => {
    expect((await post("/api/mcp/sessions/nope/messages", "{}")).status).toBe(404);
    expect((await send({ port: t.port, path: "/api/mcp/sessions/nope/stream", headers: t.auth })).status).toBe(405);
  });

  it("allows 16 live sessions and answers the 17th with 429", async () => {
    const ids: string[] = [];
    const body = JSON.stringify({ transport: "streamable-http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer sekrit-value" } });
    const listed = await send({ port: t.port, path: "/api/mcp/sessions", headers: t.auth });
    const open = listed.json<{ sessions: { open: boolean }[] }>().sessions.filter((x) => x.open).length;
    for (let i = open; i < 16; i++) {
      const res = await post("/api/mcp/sessions", body);
      expect(res.status, res.text).toBe(201);
      ids.push(res.json<{ id: string }>().id);
    }
    const over = await post("/api/mcp/sessions", body);
    expect(over.status).toBe(429);
    const list = await send({ port: t.port, path: "/api/mcp/sessions", headers: t.auth });
    expect(list.text).not.toContain("sekrit-value");
    expect(t.logs.join("\n")).not.toContain("sekrit-value");
    for (const id of ids) expect((await post(`/api/mcp/sessions/${id}/close`, "")).status).toBe(200);
    expect((await post("/api/mcp/sessions", body)).status).toBe(201);
  });
});
