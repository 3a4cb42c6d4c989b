/**
 * What the Streamable HTTP relay makes of answers real servers give only by accident: error
 * statuses with and without JSON-RPC bodies, wrong types, redirects, oversize and invalid UTF-8
 * bodies, missing headers. msw plays the server.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INVALID_UTF8 } from "./http-exchange.ts";
import { event, INIT, INIT_RESULT, JSON_TYPE, ORIGIN, relayUnderTest, SECRET, SSE, scripted, URL_MCP } from "./test-upstream.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CALL = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } };
const PING = { jsonrpc: "2.0", id: 8, method: "ping" };

/** A server whose initialize opens session "s-1" and whose GET stream is refused, plus `rest` for other POSTs. */
function sessionServer(rest: (body: Record<string, unknown>, request: Request) => Response | Promise<Response>) {
  const seen: { method: string; sid: string | null; body: string }[] = [];
  server.use(
    http.all(URL_MCP, async ({ request }) => {
      const text = request.method === "POST" ? await request.text() : "";
      seen.push({ method: request.method, sid: request.headers.get("mcp-session-id"), body: text });
      if (request.method !== "POST") return new HttpResponse(null, { status: 405 });
      const body = JSON.parse(text) as Record<string, unknown>;
      if (body.method === "initialize") return HttpResponse.json(INIT_RESULT, { headers: { "mcp-session-id": "s-1" } });
      return rest(body, request);
    }),
  );
  return seen;
}

describe("an error status with a JSON-RPC body", () => {
  it.each([400, 404, 500])("delivers the body of a %i as a message; it answers the request, so no error", async (status) => {
    server.use(http.post(URL_MCP, () => HttpResponse.json({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "bad params" } }, { status })));
    const r = relayUnderTest();
    await r.send(CALL);
    const answer = await r.waitFor(() => r.messages()[0], "the error message");
    expect(answer).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "bad params" } });
    expect(r.events.find((e) => e.type === "http")).toMatchObject({ status });
    expect(r.errors()).toEqual([]);
  });

  it("also names the request the body does not answer (an error with id null)", async () => {
    server.use(http.post(URL_MCP, () => HttpResponse.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: no session" } }, { status: 400 })));
    const r = relayUnderTest();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "an error");
    expect(r.messages()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: no session" } }]);
    expect(err).toMatchObject({ step: "http", status: 400, requestIds: [7] });
    expect(err.message).toMatch(/answered 400 .*left request 7 unanswered/);
  });

  it("says the session expired on a 404 to a request that carried the session id, and forgets the id", async () => {
    let expire = true;
    const seen = sessionServer(() => {
      if (expire) {
        expire = false;
        return HttpResponse.json({ jsonrpc: "2.0", id: 7, error: { code: -32001, message: "Session not found" } }, { status: 404 });
      }
      return HttpResponse.json({ jsonrpc: "2.0", id: 8, result: {} });
    });
    const r = relayUnderTest();
    await r.send(INIT);
    await r.waitFor(() => r.messages()[0], "the initialize result");
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the expiry");
    expect(err).toMatchObject({ step: "http", status: 404 });
    expect(err.message).toMatch(/session expired.*send initialize again/);
    expect(err.requestIds).toBeUndefined(); // the JSON-RPC body answered request 7
    expect(r.messages()[1]).toMatchObject({ id: 7, error: { message: "Session not found" } });
    await r.send(PING);
    await r.waitFor(() => r.messages()[2], "the ping result");
    const posts = seen.filter((s) => s.method === "POST");
    expect(posts.map((p) => p.sid)).toEqual([null, "s-1", null]);
    await r.peer.close();
  });
});

describe("an error status without a JSON-RPC body", () => {
  it("is an http error with the body, naming the request so the client can fail it at once", async () => {
    server.use(http.post(URL_MCP, () => new HttpResponse("<h1>Internal Server Error</h1>", { status: 500, headers: { "content-type": "text/html" } })));
    const r = relayUnderTest();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "an error");
    expect(err).toMatchObject({ step: "http", status: 500, body: "<h1>Internal Server Error</h1>", requestIds: [7] });
    expect(r.messages()).toEqual([]);
  });

  it("names no request when the frame asked none (a notification)", async () => {
    server.use(http.post(URL_MCP, () => new HttpResponse("nope", { status: 500 })));
    const r = relayUnderTest();
    await r.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const err = await r.waitFor(() => r.errors()[0], "an error");
    expect(err).toMatchObject({ step: "http", status: 500, body: "nope" });
    expect(err.requestIds).toBeUndefined();
  });

  it("names every request of a batch, and only those", async () => {
    server.use(http.post(URL_MCP, () => new HttpResponse("busy", { status: 503 })));
    const r = relayUnderTest();
    await r.send([CALL, { jsonrpc: "2.0", method: "notifications/x" }, PING, { jsonrpc: "2.0", id: "s", result: {} }]);
    const err = await r.waitFor(() => r.errors()[0], "an error");
    expect(err.requestIds).toEqual([7, 8]);
    expect(err.message).toMatch(/requests 7, 8/);
  });
});

describe("a 2xx that is not MCP", () => {
  it("is a not-mcp error naming the request", async () => {
    server.use(http.post(URL_MCP, () => new HttpResponse("<html>login</html>", { headers: { "content-type": "text/html" } })));
    const r = relayUnderTest();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "an error");
    expect(err).toMatchObject({ step: "not-mcp", status: 200, body: "<html>login</html>", requestIds: [7] });
    expect(err.message).toContain('"text/html"');
  });

  it("notes a bodiless 202 to a request instead of failing it (the answer may come on the GET stream)", async () => {
    server.use(http.post(URL_MCP, () => new HttpResponse(null, { status: 202 })));
    const r = relayUnderTest();
    await r.send(CALL);
    const note = await r.waitFor(() => r.notes()[0], "a note");
    expect(note).toMatch(/202 with no body to request 7/);
    expect(r.errors()).toEqual([]);
  });
});

describe("time limits", () => {
  it("gives up on missing headers after headersTimeoutMs, names the request, and keeps the session", async () => {
    let calls = 0;
    server.use(
      http.post(URL_MCP, async ({ request }) => {
        calls++;
        const body = (await request.json()) as { id: number };
        if (body.id === 7) return new Promise<Response>(() => {});
        return HttpResponse.json({ jsonrpc: "2.0", id: body.id, result: {} });
      }),
    );
    const r = relayUnderTest({ headersTimeoutMs: 300 });
    const started = Date.now();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(err).toMatchObject({ step: "http", requestIds: [7] });
    expect(err.message).toBe("http: no response headers from mcp.test within 300 ms (headersTimeoutMs)");
    await r.send(PING);
    await r.waitFor(() => r.messages()[0], "the ping result");
    expect(calls).toBe(2);
  });
});

describe("redirects", () => {
  it("does not follow a redirect to another origin with the user's headers, and says where it pointed", async () => {
    const elsewhere: string[] = [];
    server.use(
      http.post(URL_MCP, () => new HttpResponse(null, { status: 307, headers: { location: "http://other.test/mcp" } })),
      http.all("http://other.test/*", ({ request }) => {
        elsewhere.push(request.headers.get("authorization") ?? "");
        return HttpResponse.json({});
      }),
    );
    const r = relayUnderTest();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the refusal");
    expect(err).toMatchObject({ step: "http", status: 307, requestIds: [7] });
    expect(err.message).toMatch(/redirected \(307\) to http:\/\/other\.test\/mcp, another origin; not followed/);
    expect(elsewhere).toEqual([]);
  });

  it("follows a 307 on the same origin, resending the body and headers", async () => {
    const got: { auth: string | null; body: string }[] = [];
    server.use(
      http.post(URL_MCP, () => new HttpResponse(null, { status: 307, headers: { location: "/v2/mcp" } })),
      http.post(`${ORIGIN}/v2/mcp`, async ({ request }) => {
        got.push({ auth: request.headers.get("authorization"), body: await request.text() });
        return HttpResponse.json({ jsonrpc: "2.0", id: 7, result: { content: [] } });
      }),
    );
    const r = relayUnderTest();
    await r.send(CALL);
    await r.waitFor(() => r.messages()[0], "the result");
    expect(got).toEqual([{ auth: SECRET, body: JSON.stringify(CALL) }]);
    expect(r.errors()).toEqual([]);
  });

  it("refuses a same-origin 302, which would turn the POST into a GET", async () => {
    server.use(http.post(URL_MCP, () => new HttpResponse(null, { status: 302, headers: { location: "/login" } })));
    const r = relayUnderTest();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the refusal");
    expect(err.message).toMatch(/redirected \(302\) to http:\/\/mcp\.test\/login; only 307\/308/);
  });
});

describe("size and encoding", () => {
  it("refuses a JSON body over maxMessageBytes, names the request, and keeps the session", async () => {
    server.use(
      http.post(URL_MCP, async ({ request }) => {
        const body = (await request.json()) as { id: number };
        const pad = body.id === 7 ? "x".repeat(5000) : "";
        return new HttpResponse(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { pad } }), { headers: JSON_TYPE });
      }),
    );
    const r = relayUnderTest({ maxMessageBytes: 2048 });
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the refusal");
    expect(err).toMatchObject({ step: "protocol", requestIds: [7] });
    expect(err.message).toMatch(/the limit is 2048 bytes \(maxMessageBytes\); the session stays open/);
    await r.send(PING);
    expect(await r.waitFor(() => r.messages()[0], "the ping result")).toMatchObject({ id: 8 });
  });

  it("drops an oversize SSE event, delivers the events around it, and names the request it left unanswered", async () => {
    const big = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "y".repeat(4000) } };
    const small = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "small" } };
    server.use(http.post(URL_MCP, () => new HttpResponse(scripted([event(small), event(big), event(small)]), { headers: SSE })));
    const r = relayUnderTest({ maxMessageBytes: 2048 });
    await r.send(CALL);
    const ended = await r.waitFor(() => r.errors()[1], "two errors");
    expect(r.errors()[0]!.message).toMatch(/refused: the limit is 2048 bytes/);
    expect(r.messages()).toEqual([small, small]);
    expect(ended).toMatchObject({ step: "protocol", requestIds: [7] });
    expect(ended.message).toMatch(/ended \(a message over the size limit was refused\) before answering request 7/);
  });

  it("delivers a message with invalid UTF-8 (bad bytes as U+FFFD) and says so, on SSE and JSON bodies", async () => {
    const bytes = (text: string) => new Uint8Array([...Buffer.from(text.split("@")[0]!), 0xff, 0xfe, ...Buffer.from(text.split("@")[1]!)]);
    server.use(
      http.post(URL_MCP, async ({ request }) => {
        const body = (await request.json()) as { id: number };
        const text = `{"jsonrpc":"2.0","id":${body.id},"result":{"t":"a@b"}}`;
        if (body.id === 7) return new HttpResponse(scripted(["data: ", bytes(text), "\n\n"]), { headers: SSE });
        return new HttpResponse(bytes(text), { headers: JSON_TYPE });
      }),
    );
    const r = relayUnderTest();
    await r.send(CALL);
    await r.send(PING);
    await r.waitFor(() => (r.messages().length === 2 ? true : undefined), "both results");
    expect(r.messages()).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 7, result: { t: "a\uFFFD\uFFFDb" } },
        { jsonrpc: "2.0", id: 8, result: { t: "a\uFFFD\uFFFDb" } },
      ]),
    );
    expect(r.errors().map((e) => e.message)).toEqual([INVALID_UTF8, INVALID_UTF8]);
  });
});

describe("secrets", () => {
  it("never puts the user's header values into an event, whatever fails", async () => {
    server.use(
      http.post(URL_MCP, async ({ request }) => {
        const body = (await request.json()) as { id: number };
        if (body.id === 1) return new HttpResponse(null, { status: 307, headers: { location: "http://other.test/" } });
        if (body.id === 2) return new HttpResponse("denied", { status: 401, headers: { "www-authenticate": "Bearer" } });
        if (body.id === 3) return HttpResponse.error();
        return new HttpResponse(scripted([event({ jsonrpc: "2.0", method: "x" }), { fail: "reset" }]), { headers: SSE });
      }),
    );
    const r = relayUnderTest();
    for (const id of [1, 2, 3, 4]) await r.send({ jsonrpc: "2.0", id, method: "tools/list" });
    await r.waitFor(() => (r.errors().length >= 4 ? true : undefined), "four errors");
    await r.peer.close();
    expect(JSON.stringify(r.events)).not.toContain("relay-test-secret");
    expect(r.errors().flatMap((e) => e.requestIds ?? [])).toEqual(expect.arrayContaining([1, 2, 3, 4]));
  });
});

