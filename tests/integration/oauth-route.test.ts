/**
 * POST /api/oauth/fetch, the backend's one-request route for the OAuth flow, against real
 * upstreams on 127.0.0.1: the answer comes back verbatim, a redirect is returned rather than
 * followed, every limit and breakage is named, hostile URLs are refused, the route is guarded
 * like the rest of the API, and nothing it carries reaches the log.
 */
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendClient } from "../../src/core/backend/backend-client.ts";
import { backendOAuthSend } from "../../src/core/backend/oauth-fetch.ts";
import type { SendResult } from "../../src/core/oauth/index.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { closeServer, listenLocal, readBody } from "../helpers/a2a-peers/request-log.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";

let t: TestBackend;
let upstream: Server;
let garbage: TcpServer;
let base = "";
let garbagePort = 0;
const garbageSockets = new Set<Socket>();
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
  const path = req.url ?? "/";
  if (path === "/meta") return void res.writeHead(200, { "content-type": "application/json", "x-echo": "1" }).end('{"issuer":"x","é":"\u00e9"}');
  if (path === "/token") return void res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant", got: body, auth: req.headers.authorization }));
  if (path === "/moved") return void res.writeHead(302, { location: "/meta" }).end();
  if (path === "/big") return void res.writeHead(200, { "content-type": "application/json" }).end(`"${"x".repeat(5000)}"`);
  if (path === "/silent") return void res.writeHead(200, { "content-type": "application/json" }).write("{");
  if (path === "/cut") {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"partial":');
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  if (path === "/latin1") return void res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  res.writeHead(404).end();
}

beforeAll(async () => {
  t = await startTestBackend();
  upstream = createServer((req, res) => void readBody(req).then((b) => route(req, res, b.toString("utf8"))));
  base = `http://127.0.0.1:${await listenLocal(upstream)}`;
  // Answers every connection with bytes that are not HTTP.
  garbage = createTcpServer((socket) => {
    garbageSockets.add(socket);
    socket.end("SSH-2.0-OpenSSH_9.2\r\n\0\0garbage\r\n\r\n");
  });
  await new Promise<void>((r) => garbage.listen(0, "127.0.0.1", r));
  garbagePort = (garbage.address() as { port: number }).port;
});
afterAll(async () => {
  await closeServer(upstream);
  for (const socket of garbageSockets) socket.destroy();
  await new Promise<void>((r) => garbage.close(() => r()));
  await t.close();
});

const post = (body: unknown, headers: Record<string, string> = t.auth) =>
  send({ port: t.port, method: "POST", path: "/api/oauth/fetch", headers: { ...headers, "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
const result = async (body: unknown): Promise<SendResult> => {
  const res = await post(body);
  expect(res.status).toBe(200);
  return res.json<SendResult>();
};
const sender = () => backendOAuthSend(new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${t.port}` }), fetch);

describe("POST /api/oauth/fetch", () => {
  it("makes one request and returns status, headers and body verbatim", async () => {
    const got = await sender()({ method: "GET", url: `${base}/meta`, headers: { accept: "application/json" } });
    expect(got).toMatchObject({ ok: true, response: { status: 200, headers: { "x-echo": "1", "content-type": "application/json" }, body: '{"issuer":"x","é":"é"}' } });
    const token = await sender()({ method: "POST", url: `${base}/token`, headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic YTpi" }, body: "grant_type=authorization_code&code=c1" });
    expect(token.ok && JSON.parse(token.response.body)).toEqual({ error: "invalid_grant", got: "grant_type=authorization_code&code=c1", auth: "Basic YTpi" });
    expect(token.ok && token.response.status).toBe(400);
  });

  it("returns a redirect as the answer and does not follow it", async () => {
    const before = seen.length;
    const got = await result({ url: `${base}/moved`, method: "GET" });
    expect(got).toMatchObject({ ok: true, response: { status: 302, headers: { location: "/meta" } } });
    expect(seen.slice(before).map((s) => s.url)).toEqual(["/moved"]);
  });

  it("names an oversize answer, silence, a body that breaks off, bytes that are not HTTP and a refused connection", async () => {
    expect(await result({ url: `${base}/big`, maxBytes: 1024 })).toMatchObject({ ok: false, step: "size", status: 200, message: expect.stringMatching(/over 1024 bytes/) });
    const started = performance.now();
    expect(await result({ url: `${base}/silent`, timeoutMs: 300 })).toMatchObject({ ok: false, step: "timeout", message: expect.stringMatching(/within 300 ms/) });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await result({ url: `${base}/cut` })).toMatchObject({ ok: false, step: "http", status: 200, message: expect.stringMatching(/broke off/) });
    expect(await result({ url: `http://127.0.0.1:${garbagePort}/` })).toMatchObject({ ok: false, step: "http", message: expect.stringMatching(/answered is not HTTP \(HPE_/) });
    const closed = await freePort();
    expect(await result({ url: `http://127.0.0.1:${closed}/` })).toMatchObject({ ok: false, step: "tcp", message: expect.stringMatching(/refused/) });
  });

  it("says when a body is not UTF-8, decoding what it can", async () => {
    expect(await result({ url: `${base}/latin1` })).toMatchObject({ ok: true, response: { body: "caf\uFFFD", invalidUtf8: true } });
  });

  it.each([
    [{ url: "file:///etc/passwd" }, /must be http or https, not file/],
    [{ url: "javascript:alert(1)" }, /must be http or https/],
    [{ url: "http://user:pw@127.0.0.1/" }, /must not carry credentials/],
    [{ url: "not a url" }, /not an absolute URL/],
    [{ url: "http://127.0.0.1/", method: "PUT" }, /method must be GET, POST or DELETE/],
    [{ url: "http://127.0.0.1/", headers: { "x-a": "1\r\nInjected: yes" } }, /line break/],
    [{ url: "http://127.0.0.1/", body: "x" }, /a GET carries no body/],
    [{ url: "http://127.0.0.1/", timeoutMs: 10 }, /timeoutMs must be a whole number from 100/],
    [{ url: "http://127.0.0.1/", maxBytes: 1e12 }, /maxBytes must be a whole number/],
    [{ url: "http://127.0.0.1/", follow: true }, /unexpected member "follow"/],
    [[1], /must be a JSON object/],
  ])("refuses %j", async (body, why) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: "invalid_oauth_request", message: expect.stringMatching(why) });
  });

  it("refuses link-local and metadata addresses before any connection", async () => {
    expect(await result({ url: "http://169.254.169.254/latest/meta-data/" })).toEqual({ ok: false, step: "refused", message: "169.254.169.254 is a link-local address (cloud metadata services answer there); the OAuth route does not call it" });
    expect(await result({ url: "http://[fe80::1]/" })).toMatchObject({ ok: false, step: "refused" });
    expect(await result({ url: "http://0.0.0.0:9/" })).toMatchObject({ ok: false, step: "refused" });
  });

  it("is guarded like every API route: token, Host, Origin, POST only, a JSON body within bounds", async () => {
    expect((await post({ url: `${base}/meta` }, {})).status).toBe(401);
    const json = { ...t.auth, "content-type": "application/json" };
    const body = JSON.stringify({ url: `${base}/meta` });
    expect((await send({ port: t.port, method: "POST", path: "/api/oauth/fetch", headers: { ...json, origin: "https://evil.example" }, body })).status).toBe(403);
    expect((await send({ port: t.port, method: "POST", path: "/api/oauth/fetch", host: "evil.example", headers: json, body })).status).toBe(403);
    const get = await send({ port: t.port, method: "GET", path: "/api/oauth/fetch", headers: t.auth });
    expect([get.status, get.headers.allow]).toEqual([405, "POST"]);
    expect((await send({ port: t.port, method: "POST", path: "/api/oauth/fetch", headers: t.auth, body })).status).toBe(415);
    expect((await post("{not json")).status).toBe(400);
    const huge = await post({ url: `${base}/token`, method: "POST", body: "x".repeat(300 * 1024) });
    expect([huge.status, errorOf(huge).code]).toEqual([413, "body_too_large"]);
  });

  it("a backend refusal reaches the flow as a backend failure", async () => {
    const wrong = backendOAuthSend(new BackendClient({ fetch, token: "not-the-token", baseUrl: `http://127.0.0.1:${t.port}` }), fetch);
    expect(await wrong({ method: "GET", url: `${base}/meta`, headers: {} })).toMatchObject({ ok: false, step: "backend", message: expect.stringMatching(/refused the request: missing or invalid access token/) });
    const gone = backendOAuthSend(new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${await freePort()}` }), fetch);
    expect(await gone({ method: "GET", url: `${base}/meta`, headers: {} })).toMatchObject({ ok: false, step: "backend", message: expect.stringMatching(/unreachable/) });
  });

  it("never writes what it carries to the log", async () => {
    const secrets = ["Sekr1tClientSecret", "c0de-7f3a-verifier-xyz", "at-SECRET-access-token"];
    await sender()({ method: "POST", url: `${base}/token`, headers: { authorization: `Bearer ${secrets[2]}` }, body: `client_secret=${secrets[0]}&code_verifier=${secrets[1]}` });
    await sender()({ method: "GET", url: `${base}/meta?code=${secrets[1]}`, headers: {} });
    await post({ url: `http://169.254.169.254/?token=${secrets[2]}`, headers: { authorization: secrets[0] } });
    await post({ url: `http://127.0.0.1:1/`, headers: { "x-a": `${secrets[0]}\n` } });
    const log = t.logs.join("\n");
    expect(log).toMatch(/POST \/api\/oauth\/fetch (200|400)/);
    for (const s of secrets) expect(log).not.toContain(s);
  });
});

describe("GET /oauth/callback", () => {
  it("is a static page without the token, under the CSP, that loads its script and is never cached", async () => {
    const res = await send({ port: t.port, path: "/oauth/callback?code=abc&state=xyz" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).toContain('<script src="/oauth/callback.js" defer></script>');
    expect(res.text).not.toContain("abc");
    expect(res.text).not.toContain(t.token);
    expect((await send({ port: t.port, method: "POST", path: "/oauth/callback" })).status).toBe(405);
    expect(t.logs.join("\n")).not.toContain("code=abc");
  });
});
