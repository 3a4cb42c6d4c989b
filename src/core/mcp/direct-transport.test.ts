/**
 * The direct transport's HTTP edge cases, which no real server produces on demand: msw answers
 * Node's fetch the way a browser's would see it (a CORS refusal is a fetch TypeError).
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../env/defaults.ts";
import { WireLog } from "../wire/wire-log.ts";
import { McpConnectError } from "./connect-failure.ts";
import { McpConnection } from "./connection.ts";
import { DirectRefusedError } from "./direct-refusal.ts";
import { DirectTransport } from "./direct-transport.ts";
import type { RelayConsoleEvent } from "./relay-api.ts";
import { RelayError } from "./relay-error.ts";

const URL_ = "http://mcp.test/mcp";
const TOKEN = "sk-live-do-not-log-4242";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type Rpc = { jsonrpc: "2.0"; id?: number | string; method: string; params?: Record<string, unknown> };
const enc = new TextEncoder();
const dec = new TextDecoder();
const sse = (body: ReadableStream<Uint8Array> | string) => new HttpResponse(body, { headers: { "content-type": "text/event-stream" } });
const initResult = (id: Rpc["id"], version = "2025-06-18") =>
  `{ "jsonrpc": "2.0", "id": ${JSON.stringify(id)},\n  "result": {"protocolVersion": "${version}", "capabilities": {"tools": {}}, "serverInfo": {"name": "msw", "version": "1"}} }`;

/** A small Streamable HTTP server: initialize answered in JSON, other requests by `answer`. */
function mcpServer(answer: (rpc: Rpc, request: Request) => Response | Promise<Response>, seen: Request[] = []) {
  server.use(
    http.post(URL_, async ({ request }) => {
      seen.push(request.clone());
      const rpc = (await request.json()) as Rpc;
      if (rpc.method === "initialize") {
        return new HttpResponse(initResult(rpc.id), { headers: { "content-type": "application/json", "mcp-session-id": "sess-1" } });
      }
      if (rpc.id === undefined) return new HttpResponse(null, { status: 202 });
      return answer(rpc, request);
    }),
    http.get(URL_, () => new HttpResponse(null, { status: 405 })),
    http.delete(URL_, ({ request }) => {
      seen.push(request.clone());
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return seen;
}

function direct(headers?: Record<string, string>) {
  const clock = manualClock();
  const wireLog = new WireLog(clock, 1000);
  const consoleEvents: RelayConsoleEvent[] = [];
  const transport = new DirectTransport({
    fetch: (input, init) => fetch(input, init),
    session: { transport: "streamable-http", url: URL_, ...(headers ? { headers } : {}) },
    wireLog,
    clock,
    ids: sequentialIds(),
    onConsole: (e) => consoleEvents.push(e),
  });
  return { transport, wireLog, consoleEvents, frames: () => wireLog.entries().map((e) => ({ dir: e.direction, text: dec.decode(e.bytes), status: e.status, note: e.note })) };
}

const BIG_TOOLS = Array.from({ length: 200 }, (_, i) => ({ name: `tool-${i}`, description: "x".repeat(100), inputSchema: { type: "object" } }));
const CLIENT = { clientInfo: { name: "t", version: "0" }, protocolVersion: "2025-06-18", timeoutMs: 2000 };

async function connected(headers?: Record<string, string>) {
  const made = direct(headers);
  const connection = new McpConnection();
  const errors: Error[] = [];
  connection.on("error", (e) => errors.push(e));
  await connection.connect(made.transport, CLIENT);
  return { ...made, connection, errors };
}

async function connectFailure(made: ReturnType<typeof direct>) {
  const error = await new McpConnection().connect(made.transport, CLIENT).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(McpConnectError);
  return (error as McpConnectError).failure;
}

describe("DirectTransport over Streamable HTTP", () => {
  it("initializes, sends the custom headers, logs frames verbatim and never the token", async () => {
    const seen = mcpServer((rpc) => HttpResponse.json({ jsonrpc: "2.0", id: rpc.id, result: { tools: BIG_TOOLS } }));
    const { connection, frames, consoleEvents, wireLog } = await connected({ Authorization: `Bearer ${TOKEN}`, "X-Team": "blue" });
    expect(connection.info?.negotiatedVersion).toBe("2025-06-18");
    expect(await connection.listTools()).toEqual(BIG_TOOLS);
    await connection.close();

    const init = seen[0]!;
    expect(init.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(init.headers.get("x-team")).toBe("blue");
    expect(seen[1]!.headers.get("mcp-session-id")).toBe("sess-1");
    expect(seen[1]!.headers.get("mcp-protocol-version")).toBe("2025-06-18");
    expect(seen.at(-1)!.method).toBe("DELETE");
    // The answer is logged byte for byte, whitespace and all, with its HTTP status.
    expect(frames()[1]).toEqual({ dir: "in", text: initResult(0), status: 200, note: undefined });
    expect(frames().map((f) => f.dir)).toEqual(["out", "in", "out", "out", "in"]);
    // A JSON answer reaches the SDK whole, however long.
    expect(frames()[4]!.text).toBe(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: BIG_TOOLS } }));
    expect(consoleEvents.filter((e) => e.type === "http").map((e) => e.status)).toEqual([200, 202, 405, 200, 200]);
    const everything = JSON.stringify([wireLog.entries().map((e) => ({ ...e, bytes: dec.decode(e.bytes) })), consoleEvents]);
    expect(everything).not.toContain(TOKEN);
  });

  it("names a CORS refusal (a fetch TypeError, yet the server answers without CORS) and suggests the relay", async () => {
    server.use(
      http.post(URL_, () => HttpResponse.error()),
      http.head(URL_, () => new HttpResponse(null, { status: 404 })),
    );
    const made = direct();
    const failure = await connectFailure(made);
    expect(failure).toEqual({ step: "cors", message: "the server at http://mcp.test does not allow this page's origin (CORS); use the relay" });
    expect(made.consoleEvents).toContainEqual(expect.objectContaining({ type: "error", step: "cors", message: failure.message }));
  });

  it("tells an unreachable server from a CORS refusal", async () => {
    server.use(
      http.post(URL_, () => HttpResponse.error()),
      http.head(URL_, () => HttpResponse.error()),
    );
    const made = direct();
    const error = await made.transport.start().then(() => made.transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(DirectRefusedError);
    expect((error as DirectRefusedError).reason).toBe("unreachable");
    expect((error as DirectRefusedError).step).toBe("tcp");
    expect((error as Error).message).toMatch(/^the page could not reach http:\/\/mcp\.test \(.+\): the server is down/);
  });

  it("names a wrong content type as not an MCP endpoint, with the raw answer", async () => {
    server.use(http.post(URL_, () => new HttpResponse("<!doctype html><h1>Welcome</h1>", { headers: { "content-type": "text/html; charset=utf-8" } })));
    const failure = await connectFailure(direct());
    expect(failure).toEqual({
      step: "not-mcp",
      message: 'not-mcp: a 200 response should be application/json or text/event-stream, got "text/html"',
      status: 200,
      raw: "<!doctype html><h1>Welcome</h1>",
    });
  });

  it("a 500 in the middle of a session fails that request with the status and body, and the session stays usable", async () => {
    let calls = 0;
    mcpServer((rpc) => (++calls === 1 ? new HttpResponse("upstream exploded", { status: 500, statusText: "Internal Server Error" }) : HttpResponse.json({ jsonrpc: "2.0", id: rpc.id, result: {} })));
    const { connection, consoleEvents } = await connected();
    const error = await connection.ping(1000).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ step: "http", status: 500, body: "upstream exploded", message: "http: the server answered 500 Internal Server Error" });
    expect(consoleEvents).toContainEqual(expect.objectContaining({ type: "error", step: "http", status: 500, body: "upstream exploded" }));
    await connection.ping(1000);
    await connection.close();
  });

  it("a response stream that breaks off mid-way: what arrived is delivered and logged, the break is reported", async () => {
    mcpServer((rpc) => {
      const token = (rpc.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(enc.encode(`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(token)},"progress":1,"total":2}}\n\n`));
          setTimeout(() => c.error(new Error("connection reset by peer")), 5);
        },
      });
      return sse(body);
    });
    const { connection, consoleEvents, frames, errors } = await connected();
    const progress: number[] = [];
    const outcome = await connection.callTool("slow", {}, { timeoutMs: 300, onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1]);
    expect(outcome).toEqual({ kind: "timeout", timeoutMs: 300 });
    expect(frames().filter((f) => f.dir === "in" && f.text.includes("notifications/progress"))).toHaveLength(1);
    expect(consoleEvents).toContainEqual(expect.objectContaining({ type: "error", step: "http", status: 200, message: expect.stringMatching(/^http: the response stream broke off: /) }));
    expect(errors.map((e) => e.message).join("\n")).toMatch(/SSE stream disconnected/);
    await connection.close();
  });

  it("a session the server no longer knows, and a session id that never reached the page, are named", async () => {
    let calls = 0;
    mcpServer(() => (++calls === 1 ? new HttpResponse("gone", { status: 404, statusText: "Not Found" }) : HttpResponse.json({})));
    const { connection } = await connected();
    await expect(connection.ping(1000)).rejects.toThrow("http: the server answered 404 Not Found; the server no longer knows this session (connect again)");
    await connection.close();

    // As a browser sees a server that does not expose Mcp-Session-Id to the page: no session id, then 400.
    server.use(
      http.post(URL_, async ({ request }) => {
        const rpc = (await request.json()) as Rpc;
        if (rpc.method === "initialize") return new HttpResponse(initResult(rpc.id), { headers: { "content-type": "application/json" } });
        return new HttpResponse("Bad Request: No valid session ID provided", { status: 400, statusText: "Bad Request" });
      }),
    );
    const failure = await connectFailure(direct());
    expect(failure).toMatchObject({
      step: "http",
      status: 400,
      message:
        "http: the server answered 400 Bad Request; no Mcp-Session-Id header reached this page: a server that keeps sessions must expose it (Access-Control-Expose-Headers), or use the relay",
    });
  });

  it("a slow drip of SSE bytes (CRLF split across chunks, multi-line data) arrives whole, each event logged once", async () => {
    const events: string[] = [];
    mcpServer((rpc) => {
      const token = (rpc.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      events.push(
        `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(token)},"progress":1}}`,
        `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},\n"result":{"content":[{"type":"text","text":"dripped"}]}}`,
      );
      const text = `: keep-alive\r\n\r\nid: 7\r\ndata:\r\n\r\n${events.map((e) => `event: message\r\n${e.split("\n").map((l) => `data: ${l}`).join("\r\n")}\r\n\r\n`).join("")}`;
      const bytes = enc.encode(text);
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 1));
          const size = 1 + (at % 3);
          c.enqueue(bytes.slice(at, at + size));
          at += size;
          if (at >= bytes.length) c.close();
        },
      });
      return sse(body);
    });
    const { connection, frames } = await connected();
    const progress: number[] = [];
    const outcome = await connection.callTool("drip", {}, { timeoutMs: 10_000, onProgress: (p) => progress.push(p.progress) });
    expect(outcome).toMatchObject({ kind: "success", result: { content: [{ type: "text", text: "dripped" }] } });
    expect(progress).toEqual([1]);
    const inbound = frames().filter((f) => f.dir === "in").slice(1).map((f) => f.text);
    expect(inbound).toEqual(events);
    await connection.close();
  });
});

describe("DirectTransport raw sends", () => {
  it("sends the exact text, with the session headers, and hands the answer to onmessage", async () => {
    const seen = mcpServer(() => HttpResponse.json({ jsonrpc: "2.0", id: 99, error: { code: -32601, message: "Method not found" } }));
    const { transport, frames } = direct();
    const got: unknown[] = [];
    transport.onmessage = (m) => got.push(m);
    await transport.start();
    await transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
    transport.setProtocolVersion("2025-06-18");
    await transport.sendRaw('{"jsonrpc":"2.0",  "id":99,"method":"nope"}');
    const raw = seen.at(-1)!;
    expect(await raw.text()).toBe('{"jsonrpc":"2.0",  "id":99,"method":"nope"}');
    expect(raw.headers.get("mcp-session-id")).toBe("sess-1");
    expect(got.at(-1)).toEqual({ jsonrpc: "2.0", id: 99, error: { code: -32601, message: "Method not found" } });
    expect(frames().at(-2)).toMatchObject({ dir: "out", text: '{"jsonrpc":"2.0",  "id":99,"method":"nope"}' });
    await transport.close();
  });

  it("text that is not JSON goes out as it is, and the server's refusal comes back as a named error", async () => {
    server.use(http.post(URL_, () => HttpResponse.json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, { status: 400, statusText: "Bad Request" })));
    const { transport, frames } = direct();
    await transport.start();
    const error = await transport.sendRaw("{not json").then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ step: "http", status: 400, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' });
    expect(frames()).toEqual([{ dir: "out", text: "{not json", status: undefined, note: undefined }]);
  });

  it("refuses raw sends before start and after close", async () => {
    const { transport } = direct();
    await expect(transport.sendRaw("{}")).rejects.toThrow("DirectTransport is not started");
    await transport.start();
    await transport.close();
    await expect(transport.sendRaw("{}")).rejects.toThrow("the direct connection is closed");
  });
});
