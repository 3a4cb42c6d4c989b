/**
 * The Streamable HTTP relay's streams under msw: response streams that break, drip or go quiet,
 * resumption with Last-Event-ID, the standalone GET stream, ordering, and the DELETE on close.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET_RETRIES, openGetStream } from "./http-get-stream.ts";
import { DEFAULT_LIMITS } from "../relay/relay-limits.ts";
import { event, INIT, INIT_RESULT, relayUnderTest, SSE, scripted, type Step, URL_MCP } from "./test-upstream.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CALL = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: {} } };
const RESULT = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "done" }] } };
const progress = (n: number) => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: n } });

type Seen = { method: string; sid: string | null; version: string | null; accept: string | null; lastEventId: string | null; body: string };

/** A session server: initialize opens "s-1"; `post` answers other POSTs, `get` the GETs (405 by default). */
function sessionServer(handlers: { post?: (body: { id?: number; method?: string }) => Response | Promise<Response>; get?: (seen: Seen, n: number) => Response; del?: () => Response }) {
  const seen: Seen[] = [];
  let gets = 0;
  server.use(
    http.all(URL_MCP, async ({ request }) => {
      const h = request.headers;
      const entry: Seen = {
        method: request.method,
        sid: h.get("mcp-session-id"),
        version: h.get("mcp-protocol-version"),
        accept: h.get("accept"),
        lastEventId: h.get("last-event-id"),
        body: request.method === "POST" ? await request.text() : "",
      };
      seen.push(entry);
      if (request.method === "GET") return handlers.get?.(entry, gets++) ?? new HttpResponse(null, { status: 405 });
      if (request.method === "DELETE") return handlers.del?.() ?? new HttpResponse(null, { status: 204 });
      const body = JSON.parse(entry.body) as { id?: number; method?: string };
      if (body.method === "initialize") return HttpResponse.json(INIT_RESULT, { headers: { "mcp-session-id": "s-1" } });
      return handlers.post?.(body) ?? new HttpResponse(null, { status: 202 });
    }),
  );
  return seen;
}

async function initialized(limits = {}) {
  const r = relayUnderTest(limits);
  await r.send(INIT);
  await r.waitFor(() => r.messages()[0], "the initialize result");
  return r;
}

describe("a response stream that breaks", () => {
  it("delivers what came before a mid-stream failure and names the request left unanswered", async () => {
    sessionServer({ post: () => new HttpResponse(scripted([event(progress(1)), event(progress(2)), { fail: "upstream 500" }]), { headers: SSE }) });
    const r = await initialized();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the failure");
    expect(r.messages().slice(1)).toEqual([progress(1), progress(2)]);
    expect(err).toMatchObject({ step: "http", requestIds: [7] });
    expect(err.message).toBe("http: the response stream broke (upstream 500) before answering request 7");
    await r.peer.close();
  });

  it("resumes a stream that carried event ids with a GET from the last one, and the answer arrives", async () => {
    const seen = sessionServer({
      post: () => new HttpResponse(scripted([event(progress(1), "e1"), { fail: "reset" }]), { headers: SSE }),
      get: (s) => (s.lastEventId === "e1" ? new HttpResponse(scripted([event(progress(2), "e2"), event(RESULT, "e3")], { hang: true }), { headers: SSE }) : new HttpResponse(null, { status: 405 })),
    });
    const r = await initialized();
    await r.send(CALL);
    await r.waitFor(() => r.messages().find((m) => (m as { id?: number }).id === 7), "the resumed answer");
    expect(r.messages().slice(1).filter((m) => (m as { method?: string }).method === "notifications/progress")).toEqual([progress(1), progress(2)]);
    expect(r.errors()).toEqual([]);
    const resume = seen.find((s) => s.lastEventId === "e1")!;
    expect(resume).toMatchObject({ method: "GET", sid: "s-1", version: "2025-06-18", accept: "text/event-stream" });
    expect(r.notes().some((n) => /resuming after event e1/.test(n))).toBe(true);
    await r.peer.close();
  });

  it("names the request when the stream cannot be resumed (405 on GET)", async () => {
    sessionServer({ post: () => new HttpResponse(scripted([event(progress(1), "e1"), { fail: "reset" }]), { headers: SSE }) });
    const r = await initialized();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the failure");
    expect(err).toMatchObject({ step: "http", requestIds: [7] });
    expect(err.message).toMatch(/resuming failed: the server offers no GET stream to resume on \(405\)/);
    await r.peer.close();
  });

  it("says when a stream ends cleanly without the answer", async () => {
    sessionServer({ post: () => new HttpResponse(scripted([event(progress(1))]), { headers: SSE }) });
    const r = await initialized();
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the failure");
    expect(err).toMatchObject({ step: "protocol", requestIds: [7], message: "protocol: the response stream ended before answering request 7" });
    await r.peer.close();
  });
});

describe("the idle limit", () => {
  const drip = (steps: Step[]) => sessionServer({ post: () => new HttpResponse(scripted(steps), { headers: SSE }) });

  it("keeps a slow stream alive while events come (one per second, idle limit 1.5 s)", async () => {
    drip([event(progress(1)), { wait: 1000 }, event(progress(2)), { wait: 1000 }, event(progress(3)), { wait: 1000 }, event(RESULT)]);
    const r = await initialized({ idleTimeoutMs: 1500 });
    await r.send(CALL);
    await r.waitFor(() => r.messages().find((m) => (m as { id?: number }).id === 7), "the answer", 6000);
    expect(r.messages()).toHaveLength(5);
    expect(r.errors()).toEqual([]);
    await r.peer.close();
  });

  it("counts keepalive comments as progress", async () => {
    drip([": keepalive\n\n", { wait: 400 }, ": keepalive\n\n", { wait: 400 }, ": keepalive\n\n", { wait: 400 }, ": keepalive\n\n", { wait: 400 }, event(RESULT)]);
    const r = await initialized({ idleTimeoutMs: 700 });
    await r.send(CALL);
    await r.waitFor(() => r.messages()[1], "the answer", 4000);
    expect(r.errors()).toEqual([]);
    await r.peer.close();
  });

  it("closes a stream that goes quiet and names the request", async () => {
    sessionServer({ post: () => new HttpResponse(scripted([event(progress(1))], { hang: true }), { headers: SSE }) });
    const r = await initialized({ idleTimeoutMs: 400 });
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the idle cut");
    expect(err).toMatchObject({ step: "http", requestIds: [7], message: "http: the response made no progress for 400 ms (idleTimeoutMs) and was closed before answering request 7" });
    await r.peer.close();
  });

  it("does not count bytes that never complete a line: a drip of one byte at a time is cut", async () => {
    const bytes: Step[] = [];
    for (const ch of 'data: {"jsonrpc":"2.0"') bytes.push(ch, { wait: 100 });
    drip(bytes);
    const r = await initialized({ idleTimeoutMs: 500 });
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the idle cut", 4000);
    expect(err.message).toMatch(/no progress for 500 ms/);
    await r.peer.close();
  });

  it("holds a JSON body to the idle limit as a whole", async () => {
    const text = JSON.stringify(RESULT);
    sessionServer({
      post: () => new HttpResponse(scripted([text.slice(0, 10), { wait: 300 }, text.slice(10, 20), { wait: 300 }, text.slice(20)]), { headers: { "content-type": "application/json" } }),
    });
    const r = await initialized({ idleTimeoutMs: 400 });
    await r.send(CALL);
    const err = await r.waitFor(() => r.errors()[0], "the idle cut");
    expect(err).toMatchObject({ step: "http", requestIds: [7] });
    await r.peer.close();
  });
});

describe("the standalone GET stream", () => {
  it("opens after initialize with the session id and version, and delivers what the server sends on it", async () => {
    const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "between requests" } };
    const seen = sessionServer({ get: () => new HttpResponse(scripted([": hi\n\n", { wait: 50 }, event(log, "g1")], { hang: true }), { headers: SSE }) });
    const r = await initialized();
    await r.waitFor(() => r.messages()[1], "the notification");
    expect(r.messages()[1]).toEqual(log);
    expect(seen.find((s) => s.method === "GET")).toMatchObject({ sid: "s-1", version: "2025-06-18", accept: "text/event-stream", lastEventId: null });
    expect(r.notes()[0]).toBe("GET stream open (HTTP 200)");
    // GET answers do not count as http events: the client ties statuses to POST answers.
    expect(r.events.filter((e) => e.type === "http")).toHaveLength(1);
    await r.peer.close();
  });

  it("notes a 405 once and does not try again", async () => {
    const seen = sessionServer({});
    const r = await initialized();
    await r.waitFor(() => r.notes()[0], "the note");
    expect(r.notes()).toEqual(["the server offers no standalone GET stream (HTTP 405): only messages that belong to a request can arrive"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.filter((s) => s.method === "GET")).toHaveLength(1);
    expect(r.errors()).toEqual([]);
    await r.peer.close();
  });

  it("reconnects a dropped stream with Last-Event-ID", async () => {
    const ping = (n: number) => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `n${n}` } });
    const seen = sessionServer({
      get: (_s, n) => new HttpResponse(scripted(n === 0 ? ["retry: 120\n\n", event(ping(0), "a"), { fail: "dropped" }] : [event(ping(1), "b")], { hang: n > 0 }), { headers: SSE }),
    });
    const r = await initialized();
    await r.waitFor(() => r.messages()[2], "both notifications");
    expect(r.messages().slice(1)).toEqual([ping(0), ping(1)]);
    expect(seen.filter((s) => s.method === "GET").map((s) => s.lastEventId)).toEqual([null, "a"]);
    expect(r.notes().some((n) => /GET stream: the stream broke .*reconnecting in 120 ms/.test(n))).toBe(true);
    await r.peer.close();
  });

  it("gives up after a bounded number of failed attempts in a row", async () => {
    let attempts = 0;
    server.use(
      http.get(URL_MCP, () => {
        attempts++;
        return new HttpResponse("busy", { status: 503 });
      }),
    );
    const notes: string[] = [];
    const stream = openGetStream({
      url: new URL(URL_MCP),
      limits: DEFAULT_LIMITS,
      signal: new AbortController().signal,
      headers: () => ({ "mcp-session-id": "s-1" }),
      label: "GET stream",
      onMessage: () => {},
      onOversize: () => {},
      note: (text) => notes.push(text),
      firstDelayMs: 5,
    });
    const end = await stream.ended;
    expect(end).toEqual({ kind: "gave-up", problem: "the server answered 503 Service Unavailable: busy" });
    expect(attempts).toBe(GET_RETRIES + 1);
    expect(notes.at(-1)).toMatch(new RegExp(`attempt ${GET_RETRIES} of ${GET_RETRIES}`));
  });

  it("treats a 404 on the GET as an expired session", async () => {
    sessionServer({ get: () => new HttpResponse("gone", { status: 404 }) });
    const r = await initialized();
    const err = await r.waitFor(() => r.errors()[0], "the expiry");
    expect(err).toMatchObject({ step: "http", status: 404, body: "gone" });
    expect(err.message).toMatch(/session expired/);
    await r.peer.close();
  });
});

describe("ordering and close", () => {
  it("lets a ping overtake a slow call once the session is set up, but sends initialized first", async () => {
    const arrived: string[] = [];
    sessionServer({
      post: async (body) => {
        arrived.push(body.method ?? "?");
        if (body.method === "tools/call") await new Promise((resolve) => setTimeout(resolve, 300));
        return body.id === undefined ? new HttpResponse(null, { status: 202 }) : Response.json({ jsonrpc: "2.0", id: body.id, result: {} });
      },
    });
    const r = await initialized();
    await r.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await r.send(CALL);
    await r.send({ jsonrpc: "2.0", id: 8, method: "ping" });
    await r.waitFor(() => (r.messages().length === 3 ? true : undefined), "both answers");
    expect(arrived).toEqual(["notifications/initialized", "tools/call", "ping"]);
    expect(r.messages().slice(1).map((m) => (m as { id: number }).id)).toEqual([8, 7]);
    await r.peer.close();
  });

  it("DELETEs the session on close; a 405 there is fine", async () => {
    const seen = sessionServer({
      get: () => new HttpResponse(scripted([], { hang: true }), { headers: SSE }),
      del: () => new HttpResponse(null, { status: 405 }),
    });
    const r = await initialized();
    await r.waitFor(() => r.notes()[0], "the GET stream");
    await r.peer.close();
    const del = seen.find((s) => s.method === "DELETE");
    expect(del).toMatchObject({ sid: "s-1", version: "2025-06-18" });
    expect(r.events.at(-1)).toMatchObject({ type: "http", status: 405 });
    expect(r.errors()).toEqual([]);
    await expect(r.send(CALL)).rejects.toThrow(/closed/);
  });
});
