import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { manualClock, sequentialIds } from "../../../core/env/index.ts";
import { DirectTransport, McpConnection, type RelayConsoleEvent, RelayTransport } from "../../../core/mcp/index.ts";
import { fakeRelay } from "../../../core/mcp/test-relay.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { ConnectFormState } from "./connect-form-state.svelte.ts";
import { FallbackTransport, transportFactory } from "./relay-factory.ts";

const URL_ = "http://mcp.test/mcp";
const TOKEN = "tok-never-logged-77";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const line = (event: object) => `${JSON.stringify(event)}\n`;
const result = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "srv", version: "1" } };

/** A relay double that answers initialize, and a factory whose direct sessions use Node's fetch (msw answers it). */
function world() {
  const relay = fakeRelay({
    onMessage: (text, write) => {
      const request = JSON.parse(text) as { id?: number; method: string };
      if (request.method === "initialize") write(line({ type: "message", text: JSON.stringify({ jsonrpc: "2.0", id: request.id, result }), at: 1 }));
    },
  });
  const wireLog = new WireLog(manualClock(), 1000);
  const routed = (async (input: URL | string, init?: RequestInit) =>
    String(input).startsWith("http://127.0.0.1:1/") ? relay.fetch(input, init) : fetch(input, init)) as typeof fetch;
  const factory = transportFactory({ fetch: routed, baseUrl: "http://127.0.0.1:1", token: "launch-token", wireLog, clock: manualClock(), ids: sequentialIds() });
  const consoleEvents: RelayConsoleEvent[] = [];
  const notes: string[] = [];
  const errors: Error[] = [];
  /** Builds the form's request, opens its transport, and connects. */
  async function connect(form: ConnectFormState) {
    const built = form.build();
    if (!built.ok) throw new Error(built.error);
    const transport = factory(built.request.body, (e) => consoleEvents.push(e), { mode: built.request.mode, onNote: (t) => notes.push(t) });
    const connection = new McpConnection();
    connection.on("error", (e) => errors.push(e));
    await connection.connect(transport, { clientInfo: { name: "t", version: "0" }, protocolVersion: "2025-06-18", timeoutMs: 2000 });
    return { transport, connection };
  }
  const logged = () => JSON.stringify([wireLog.entries().map((e) => ({ ...e, bytes: new TextDecoder().decode(e.bytes) })), consoleEvents, notes, errors.map((e) => e.message)]);
  return { relay, factory, connect, consoleEvents, notes, errors, logged, wireLog };
}

function httpForm(mode: ConnectFormState["connectionMode"]): ConnectFormState {
  const form = new ConnectFormState();
  form.transportChoice = "streamable-http";
  form.url = URL_;
  form.connectionMode = mode;
  form.bearerToken = TOKEN;
  return form;
}

describe("choosing the transport", () => {
  it("stdio always goes through the relay; HTTP goes the way the form says, the relay by default", () => {
    const { factory } = world();
    const noop = () => {};
    expect(factory({ transport: "stdio", command: "srv" }, noop, { mode: "direct" })).toBeInstanceOf(RelayTransport);
    expect(factory({ transport: "streamable-http", url: URL_ }, noop)).toBeInstanceOf(RelayTransport);
    expect(factory({ transport: "streamable-http", url: URL_ }, noop, { mode: "direct" })).toBeInstanceOf(DirectTransport);
    expect(factory({ transport: "sse", url: URL_ }, noop, { mode: "auto" })).toBeInstanceOf(FallbackTransport);
  });
});

describe("Auto mode", () => {
  it("falls back to the relay on a CORS refusal, says so, and connects", async () => {
    server.use(
      http.post(URL_, () => HttpResponse.error()),
      http.head(URL_, () => new HttpResponse(null, { status: 200 })),
    );
    const w = world();
    const { transport, connection } = await w.connect(httpForm("auto"));
    expect(connection.info?.serverInfo.name).toBe("srv");
    expect((transport as FallbackTransport).via).toBe("relay");
    expect(w.notes).toEqual([
      "Direct connection refused (the server at http://mcp.test does not allow this page's origin (CORS); use the relay); connecting through the backend relay instead.",
    ]);
    // The refusal was handled by falling back: it is not the connection's error.
    expect(w.errors).toEqual([]);
    // The relay was asked for the same server, token included, since it now makes the requests.
    const create = w.relay.calls.find((c) => c.url.endsWith("/api/mcp/sessions"))!;
    expect(JSON.parse(create.body!)).toEqual({ limits: { headersTimeoutMs: 70_000, idleTimeoutMs: 70_000 }, transport: "streamable-http", url: URL_, headers: { Authorization: `Bearer ${TOKEN}` } });
  });

  it("stays direct when the server allows this page", async () => {
    server.use(
      http.post(URL_, async ({ request }) => {
        const rpc = (await request.json()) as { id?: number; method: string };
        if (rpc.id === undefined) return new HttpResponse(null, { status: 202 });
        return HttpResponse.json({ jsonrpc: "2.0", id: rpc.id, result });
      }),
      http.get(URL_, () => new HttpResponse(null, { status: 405 })),
    );
    const w = world();
    const { transport, connection } = await w.connect(httpForm("auto"));
    expect((transport as FallbackTransport).via).toBe("direct");
    expect(w.notes).toEqual([]);
    expect(w.relay.calls).toEqual([]);
    await connection.close();
  });

  it("a refusal after the first answer is an error, not a silent switch", async () => {
    let posts = 0;
    server.use(
      http.post(URL_, async ({ request }) => {
        const rpc = (await request.json()) as { id?: number; method: string };
        if (++posts > 2) return HttpResponse.error();
        if (rpc.id === undefined) return new HttpResponse(null, { status: 202 });
        return HttpResponse.json({ jsonrpc: "2.0", id: rpc.id, result });
      }),
      http.get(URL_, () => new HttpResponse(null, { status: 405 })),
      http.head(URL_, () => new HttpResponse(null, { status: 200 })),
    );
    const w = world();
    const { transport, connection } = await w.connect(httpForm("auto"));
    await expect(connection.ping(1000)).rejects.toThrow("does not allow this page's origin (CORS)");
    expect((transport as FallbackTransport).via).toBe("direct");
    expect(w.relay.calls).toEqual([]);
  });
});

describe("the bearer token is never logged", () => {
  it("through the relay: it reaches the backend's session request, not the Traffic log or the console", async () => {
    const w = world();
    await w.connect(httpForm("relay"));
    expect(w.relay.calls[0]!.body).toContain(`Bearer ${TOKEN}`);
    expect(w.wireLog.entries().length).toBeGreaterThan(1);
    expect(w.logged()).not.toContain(TOKEN);
  });

  it("direct: it reaches the server as a header, not the Traffic log or the console", async () => {
    const seen: string[] = [];
    server.use(
      http.post(URL_, async ({ request }) => {
        seen.push(request.headers.get("authorization") ?? "");
        const rpc = (await request.json()) as { id?: number };
        if (rpc.id === undefined) return new HttpResponse(null, { status: 202 });
        return HttpResponse.json({ jsonrpc: "2.0", id: rpc.id, result }, { headers: { "mcp-session-id": "s" } });
      }),
      http.get(URL_, () => new HttpResponse(null, { status: 405 })),
    );
    const w = world();
    await w.connect(httpForm("direct"));
    expect(seen[0]).toBe(`Bearer ${TOKEN}`);
    expect(w.consoleEvents.length).toBeGreaterThan(0);
    expect(w.logged()).not.toContain(TOKEN);
  });
});
