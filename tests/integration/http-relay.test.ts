/**
 * The backend's generic HTTP relay (POST /api/relay/http) and the A2A push receivers, against a
 * real upstream on 127.0.0.1: the relayed answer is byte-exact, streams arrive as they are sent,
 * and every hostile or broken case is refused or named: bad URLs, schemes, header injection,
 * oversize bodies, redirects off the origin, silence, an answer over the size cap.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendClient } from "../../src/core/backend/backend-client.ts";
import { relayFetch } from "../../src/core/backend/relay-fetch.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

let t: TestBackend;
let upstream: Server;
let base = "";
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
  const path = req.url ?? "/";
  if (path === "/json") return void res.writeHead(200, { "content-type": "application/json", "x-echo": "1" }).end(`{"got":${JSON.stringify(body)},"é":"\u00e9"}`);
  if (path === "/binary") return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from([0, 255, 128, 10]));
  if (path === "/sse") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    let n = 0;
    const tick = setInterval(() => {
      res.write(`data: {"n":${n}}\n\n`);
      if (++n === 3) {
        clearInterval(tick);
        res.end();
      }
    }, 30);
    return;
  }
  if (path === "/silent") return void res.writeHead(200, { "content-type": "text/event-stream" }).write("data: {}\n\n");
  if (path === "/big") return void res.writeHead(200, { "content-type": "application/json" }).end(`"${"x".repeat(4000)}"`);
  if (path === "/away") return void res.writeHead(307, { location: "http://other.invalid/x" }).end();
  if (path === "/here") return void res.writeHead(307, { location: "/json" }).end();
  if (path === "/401") return void res.writeHead(401, { "www-authenticate": 'Bearer realm="agent"', "content-type": "application/json" }).end('{"error":"login"}');
  res.writeHead(404).end();
}

beforeAll(async () => {
  t = await startTestBackend();
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => route(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((r) => upstream.close(() => r()));
  await t.close();
});

const relay = (body: unknown, headers: Record<string, string> = t.auth) =>
  send({ port: t.port, method: "POST", path: "/api/relay/http", headers: { ...headers, "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
const lines = (text: string) => text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
const client = () => relayFetch(new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${t.port}` }), fetch);

describe("POST /api/relay/http", () => {
  it("relays method, headers and body, and gives back status, headers and the exact bytes", async () => {
    const res = await client()(`${base}/json`, { method: "POST", headers: { "content-type": "application/json", "X-Api-Key": "k" }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-echo")).toBe("1");
    expect(await res.text()).toBe('{"got":"{\\"a\\":1}","é":"é"}');
    const last = seen[seen.length - 1]!;
    expect([last.method, last.headers["x-api-key"], last.body]).toEqual(["POST", "k", '{"a":1}']);
    const bin = await client()(`${base}/binary`, { method: "GET", headers: {} });
    expect([...new Uint8Array(await bin.arrayBuffer())]).toEqual([0, 255, 128, 10]);
  });

  it("streams an event stream as it comes, chunk by chunk", async () => {
    const res = await client()(`${base}/sse`, { method: "GET", headers: {} });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const got: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      got.push(value);
    }
    expect(got.join("")).toBe('data: {"n":0}\n\ndata: {"n":1}\n\ndata: {"n":2}\n\n');
    expect(got.length).toBeGreaterThanOrEqual(3);
  });

  it("passes a 401 and its WWW-Authenticate through, and follows only a same-origin 307", async () => {
    const denied = await client()(`${base}/401`, { method: "GET", headers: {} });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("www-authenticate")).toBe('Bearer realm="agent"');
    const moved = await client()(`${base}/here`, { method: "POST", headers: {}, body: "x" });
    expect(moved.status).toBe(200);
    const away = await client()(`${base}/away`, { method: "GET", headers: {} });
    expect(away.status).toBe(307);
    expect(away.headers.get("x-patchbay-refused")).toMatch(/another origin; not followed/);
  });

  it("names a refused connection, silence within the idle limit, and an answer over the size cap", async () => {
    const closed = await freePort();
    await expect(client()(`http://127.0.0.1:${closed}/`, { method: "GET", headers: {} })).rejects.toThrow(new RegExp(`connection to 127\\.0\\.0\\.1:${closed} was refused`));
    const quiet = relayFetch(new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${t.port}` }), fetch, { idleTimeoutMs: 150 });
    const res = await quiet(`${base}/silent`, { method: "GET", headers: {} });
    await expect(res.text()).rejects.toThrow(/nothing arrived from 127\.0\.0\.1:\d+ for 150 ms/);
    const capped = relayFetch(new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${t.port}` }), fetch, { maxMessageBytes: 1024 });
    await expect((await capped(`${base}/big`, { method: "GET", headers: {} })).text()).rejects.toThrow(/over 1024 bytes/);
  });

  it.each([
    [{ method: "GET" }, /url must be a string/],
    [{ url: "not a url" }, /is not an absolute URL/],
    [{ url: "file:///etc/passwd" }, /must be http or https, not file/],
    [{ url: "http://u:p@127.0.0.1/" }, /must not carry credentials/],
    [{ url: "http://127.0.0.1/", method: "TRACE" }, /method must be GET, POST or DELETE/],
    [{ url: "http://127.0.0.1/", headers: { "x-a": "1\r\nInjected: yes" } }, /line break/],
    [{ url: "http://127.0.0.1/", headers: { "bad name": "1" } }, /is not a header name/],
    [{ url: "http://127.0.0.1/", headers: { a: 1 } }, /must be a string/],
    [{ url: "http://127.0.0.1/", body: { a: 1 } }, /body must be a string/],
    [{ url: "http://127.0.0.1/", body: "x" }, /a GET carries no body/],
    [{ url: "http://127.0.0.1/", limits: { idleTimeoutMs: 1 } }, /idleTimeoutMs/],
    [[1, 2], /must be a JSON object/],
  ])("refuses %j with a 400 naming the problem", async (body, message) => {
    const res = await relay(body);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(message);
  });

  it("refuses malformed JSON, a missing token, a foreign Origin, and a GET", async () => {
    expect((await relay("{nope")).status).toBe(400);
    expect((await relay({ url: `${base}/json` }, {})).status).toBe(401);
    expect((await relay({ url: `${base}/json` }, { ...t.auth, origin: "https://evil.example" })).status).toBe(403);
    expect((await send({ port: t.port, path: `/api/relay/http?url=${encodeURIComponent(`${base}/json`)}`, headers: t.auth })).status).toBe(405);
  });

  it("answers a relayed request as NDJSON head, chunks, end; and never logs the headers it relayed", async () => {
    const res = await relay({ url: `${base}/json`, method: "POST", headers: { Authorization: "Bearer upstream-secret-xyz" }, body: "{}" });
    const got = lines(res.text);
    expect(got[0]).toMatchObject({ type: "head", status: 200 });
    expect(got.at(-1)).toEqual({ type: "end" });
    expect(got.slice(1, -1).every((l) => l.type === "chunk")).toBe(true);
    expect(t.logs.join("\n")).not.toContain("upstream-secret-xyz");
  });
});

describe("A2A push receivers", () => {
  it("takes notifications with the receiver's token only, and hands them to the page verbatim", async () => {
    const made = await send({ port: t.port, method: "POST", path: "/api/a2a/push-receivers", headers: t.auth });
    expect(made.status).toBe(201);
    const { id, token, path } = made.json<{ id: string; token: string; path: string }>();
    const post = (headers: Record<string, string>, body = '{"statusUpdate":{"taskId":"t"}}') =>
      send({ port: t.port, method: "POST", path, headers: { "content-type": "application/json", ...headers }, body });
    expect((await post({})).status).toBe(401);
    expect((await post({ "x-a2a-notification-token": "wrong" })).status).toBe(401);
    expect((await post({ "x-a2a-notification-token": token })).status).toBe(204);
    expect((await post({ authorization: `Bearer ${token}` }, '{"n":2}')).status).toBe(204);
    expect((await post({ "x-a2a-notification-token": token, origin: "https://evil.example" })).status).toBe(403);
    expect((await send({ port: t.port, path, headers: {} })).status).toBe(405);
    expect((await send({ port: t.port, method: "POST", path: "/hooks/a2a/nope", headers: { "x-a2a-notification-token": token } })).status).toBe(404);
    const big = await send({ port: t.port, method: "POST", path, headers: { "x-a2a-notification-token": token }, body: "x".repeat(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    const read = await send({ port: t.port, path: `/api/a2a/push-receivers/${id}`, headers: t.auth });
    const { notifications } = read.json<{ notifications: { seq: number; text: string; headers: Record<string, string> }[] }>();
    expect(notifications.map((n) => n.text)).toEqual(['{"statusUpdate":{"taskId":"t"}}', '{"n":2}']);
    expect(notifications[0]!.headers["x-a2a-notification-token"]).toBe("[redacted]");
    const after = await send({ port: t.port, path: `/api/a2a/push-receivers/${id}?after=1`, headers: t.auth });
    expect(after.json<{ notifications: unknown[] }>().notifications).toHaveLength(1);
    expect((await send({ port: t.port, path: `/api/a2a/push-receivers/${id}`, headers: {} })).status).toBe(401);
    expect((await send({ port: t.port, method: "DELETE", path: `/api/a2a/push-receivers/${id}`, headers: t.auth })).status).toBe(204);
    expect((await post({ "x-a2a-notification-token": token })).status).toBe(404);
  });
});
