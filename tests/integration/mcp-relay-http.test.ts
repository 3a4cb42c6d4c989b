/**
 * The MCP relay over HTTP peers: server-everything over Streamable HTTP and legacy SSE on free
 * ports, and a tiny node:http server for the failure steps no real MCP server produces on demand.
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../server/nats/free-port.ts";
import { send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { openRelayStream, type RelayEv, waitFor } from "../helpers/relay-stream.ts";
import { startEverythingHttp } from "../helpers/everything-server.ts";

type Ev = RelayEv;

let t: TestBackend;
const openStream = (id: string) => openRelayStream(t.port, t.auth, id);
let oddServer: Server;
let oddPort = 0;
const everything: ChildProcess[] = [];
/** What the fake MCP endpoint received: method, headers and body of each request. */
const seen: { method: string; headers: Record<string, string | string[] | undefined>; body: string; closed?: boolean }[] = [];

/** Start server-everything in an HTTP mode on a free port; resolves once it listens. */
async function startEverything(mode: "streamableHttp" | "sse"): Promise<number> {
  const { port, child } = await startEverythingHttp(mode);
  everything.push(child);
  return port;
}

beforeAll(async () => {
  t = await startTestBackend();
  oddServer = createServer((req, res) => {
    if (req.url === "/fake-mcp" && req.method === "GET") {
      // The standalone stream: stays open until the relay lets go of it.
      const entry = { method: "GET", headers: req.headers, body: "", closed: false };
      seen.push(entry);
      res.on("close", () => (entry.closed = true));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": open\n\n");
      return;
    }
    if (req.url === "/fake-mcp") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (d: string) => (body += d));
      req.on("end", () => {
        seen.push({ method: req.method ?? "", headers: req.headers, body });
        if (req.method === "DELETE") return void res.writeHead(204).end();
        if (body.includes('"initialize"')) {
          const result = { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "fake", version: "0" } } };
          return void res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "fake-session-1" }).end(JSON.stringify(result));
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n');
        res.end('data: {"jsonrpc":"2.0","id":2,"result":{}}\r\n\r\n');
      });
      return;
    }
    req.resume();
    if (req.url === "/html404") {
      res.writeHead(404, { "content-type": "text/html" }).end("<!doctype html><h1>Not Found</h1><p>nothing here</p>");
    } else if (req.url === "/plain") {
      res.writeHead(200, { "content-type": "text/plain" }).end("hello, I am not an MCP server");
    } else {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => oddServer.listen(0, "127.0.0.1", resolve));
  oddPort = (oddServer.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  for (const child of everything) child.kill("SIGKILL");
  await new Promise((r) => oddServer.close(r));
});

const post = (path: string, body: string) =>
  send({ port: t.port, method: "POST", path, headers: { ...t.auth, "content-type": "application/json" }, body });

async function create(body: Record<string, unknown>): Promise<string> {
  const res = await post("/api/mcp/sessions", JSON.stringify(body));
  expect(res.status, res.text).toBe(201);
  expect(res.json<{ transport: string }>().transport).toBe(body.transport);
  return res.json<{ id: string }>().id;
}



const responseTo = (events: Ev[], id: number) =>
  events.find((e) => e.type === "message" && (JSON.parse(e.text!) as { id?: unknown }).id === id);

const FLOW = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"relay-test","version":"0"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"over http"}}}',
];

describe("streamable HTTP relay against server-everything", () => {
  it("relays the flow in order with http events, reusing the session id", async () => {
    const port = await startEverything("streamableHttp");
    const id = await create({ transport: "streamable-http", url: `http://127.0.0.1:${port}/mcp`, headers: { "X-Relay-Test": "yes" } });
    const stream = await openStream(id);
    for (const body of FLOW) expect((await post(`/api/mcp/sessions/${id}/messages`, body)).status).toBe(202);
    const echo = await waitFor(() => responseTo(stream.events, 3), "the echo result", stream.events);
    expect(echo.text).toContain("over http");
    const ids = stream.events.filter((e) => e.type === "message").map((e) => (JSON.parse(e.text!) as { id?: number }).id).filter((x) => x !== undefined);
    // Requests go out without waiting for each other's headers, so 2 and 3 may answer in either order.
    expect(ids[0]).toBe(1);
    expect([...ids].sort()).toEqual([1, 2, 3]);
    const http = stream.events.filter((e) => e.type === "http");
    expect(http).toHaveLength(4);
    expect(http.map((e) => e.status)).toEqual([200, 202, 200, 200]);
    const sid = http[0]!.headers!["mcp-session-id"];
    expect(sid).toMatch(/\S/);
    // Had a later POST lacked the session id, server-everything would have answered 400.
    expect(stream.events.some((e) => e.type === "error")).toBe(false);
    expect(stream.events.some((e) => e.type === "note" && e.text === "GET stream open (HTTP 200)")).toBe(true);

    expect((await post(`/api/mcp/sessions/${id}/close`, "")).status).toBe(200);
    await stream.ended;
    const last = stream.events.slice(-2);
    expect(last[0]).toMatchObject({ type: "http" }); // the DELETE
    expect(last[1]).toMatchObject({ type: "closed" });
  });

  it("reports a request the server refuses as an http error with its body", async () => {
    const port = await startEverything("streamableHttp");
    const id = await create({ transport: "streamable-http", url: `http://127.0.0.1:${port}/mcp` });
    const stream = await openStream(id);
    await post(`/api/mcp/sessions/${id}/messages`, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const err = await waitFor(() => stream.events.find((e) => e.type === "error"), "an error", stream.events);
    expect(err).toMatchObject({ step: "http", status: 400, requestIds: [1] });
    expect(err.body).toContain("jsonrpc");
    // The JSON-RPC error body reaches the client as a message too; it carries no id, so request 1 is named above.
    const refusal = stream.events.find((e) => e.type === "message");
    expect(JSON.parse(refusal!.text!)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    await post(`/api/mcp/sessions/${id}/close`, "");
  });
});

describe("streamable HTTP request headers", () => {
  it("sends Accept, Content-Type, custom headers, then the session id and negotiated version, and DELETEs on close", async () => {
    const id = await create({ transport: "streamable-http", url: `http://127.0.0.1:${oddPort}/fake-mcp`, headers: { Authorization: "Bearer abc" } });
    const stream = await openStream(id);
    await post(`/api/mcp/sessions/${id}/messages`, FLOW[0]!);
    await post(`/api/mcp/sessions/${id}/messages`, '{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await waitFor(() => responseTo(stream.events, 2), "the SSE-framed result", stream.events);
    const texts = stream.events.filter((e) => e.type === "message").map((e) => e.text);
    expect(texts.slice(1)).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
      '{"jsonrpc":"2.0","id":2,"result":{}}',
    ]);
    await waitFor(() => seen.find((s) => s.method === "GET"), "the GET stream", stream.events);
    await post(`/api/mcp/sessions/${id}/close`, "");
    await stream.ended;
    const [init, ping, del] = seen.filter((s) => s.method !== "GET");
    const get = seen.find((s) => s.method === "GET")!;
    expect(get.headers).toMatchObject({ accept: "text/event-stream", "mcp-session-id": "fake-session-1", "mcp-protocol-version": "2025-03-26", authorization: "Bearer abc" });
    await waitFor(() => (get.closed ? true : undefined), "the GET stream to close with the session");
    expect(init).toMatchObject({ method: "POST", body: FLOW[0] });
    expect(init!.headers).toMatchObject({ accept: "application/json, text/event-stream", "content-type": "application/json", authorization: "Bearer abc" });
    expect(init!.headers["mcp-session-id"]).toBeUndefined();
    expect(ping!.headers).toMatchObject({ "mcp-session-id": "fake-session-1", "mcp-protocol-version": "2025-03-26", authorization: "Bearer abc" });
    expect(del).toMatchObject({ method: "DELETE" });
    expect(del!.headers["mcp-session-id"]).toBe("fake-session-1");
  });
});

describe("legacy SSE relay against server-everything", () => {
  it("learns the endpoint, posts there and relays responses from the stream", async () => {
    const port = await startEverything("sse");
    const id = await create({ transport: "sse", url: `http://127.0.0.1:${port}/sse` });
    const stream = await openStream(id);
    for (const body of FLOW) expect((await post(`/api/mcp/sessions/${id}/messages`, body)).status).toBe(202);
    const echo = await waitFor(() => responseTo(stream.events, 3), "the echo result over SSE", stream.events);
    expect(echo.text).toContain("over http");
    expect(stream.events.filter((e) => e.type === "http").length).toBeGreaterThanOrEqual(5);
    await post(`/api/mcp/sessions/${id}/close`, "");
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ type: "closed" });
  });
});

describe("failures name their step", () => {
  async function firstError(url: string): Promise<Ev> {
    const id = await create({ transport: "streamable-http", url });
    const stream = await openStream(id);
    await post(`/api/mcp/sessions/${id}/messages`, FLOW[0]!);
    const err = await waitFor(() => stream.events.find((e) => e.type === "error"), `an error from ${url}`, stream.events);
    await post(`/api/mcp/sessions/${id}/close`, "");
    return err;
  }

  it("tcp: nothing listening", async () => {
    const port = await freePort();
    const err = await firstError(`http://127.0.0.1:${port}/mcp`);
    expect(err.step).toBe("tcp");
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it("dns: a host that does not resolve", async () => {
    const err = await firstError("http://patchbay-relay-test.invalid/mcp");
    expect(err.step).toBe("dns");
    expect(err.message).toContain("patchbay-relay-test.invalid");
  });

  it("http: a 404 HTML page, with its body", async () => {
    const err = await firstError(`http://127.0.0.1:${oddPort}/html404`);
    expect(err).toMatchObject({ step: "http", status: 404 });
    expect(err.body).toContain("<h1>Not Found</h1>");
  });

  it("not-mcp: a 2xx text/plain answer, with its body", async () => {
    const err = await firstError(`http://127.0.0.1:${oddPort}/plain`);
    expect(err).toMatchObject({ step: "not-mcp", status: 200, body: "hello, I am not an MCP server" });
    expect(err.message).toContain("text/plain");
  });
});
