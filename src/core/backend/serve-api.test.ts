import { describe, expect, it } from "vitest";
import { BackendClient, BackendError } from "./backend-client.ts";
import { ServeApi } from "./serve-api.ts";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

/** A fetch that answers from a script keyed by "METHOD /path" (query ignored) and records every call. */
function fakeBackend(script: Record<string, { status?: number; body: unknown } | string>) {
  const seen: Seen[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    seen.push({ method, url, body: init?.body === undefined ? undefined : JSON.parse(String(init.body)) });
    const key = `${method} ${new URL(url, "http://x").pathname}`;
    const answer = script[key];
    if (answer === undefined) return new Response(JSON.stringify({ error: { code: "not_found", message: `no route ${key}` } }), { status: 404 });
    if (typeof answer === "string") return new Response(answer, { status: 200 });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  return { api: new ServeApi(new BackendClient({ fetch, token: "t" })), seen };
}

const RUNNING = {
  running: true,
  url: "http://127.0.0.1:40001/mcp",
  port: 40001,
  toolkit: "patchbay-demo",
  confirmMode: "operator",
  concurrency: 2,
  fixtures: false,
  sessions: 1,
  tasks: { running: 1, kept: 3 },
  startedAt: 1_700_000_000_000,
  tools: [{ name: "echo", served: true, reason: "served" }],
  fixtureTools: [],
};

const NATS_RUNNING = {
  serving: true,
  server: "nats://127.0.0.1:4222",
  identity: "patchbay-demo",
  serviceId: "abc",
  generation: "gen2",
  concurrency: 2,
  keepaliveMs: 10_000,
  callTimeoutMs: 30_000,
  subjects: { discovery: "choria.fisk-ai.discovery.patchbay-demo", tool: "choria.fisk-ai.tool.patchbay-demo" },
  served: [{ name: "confirm", served: false, reason: "needs approval" }],
  active: 0,
  pending: 0,
  endpoints: { discovery: { requests: 3, errors: 0, lastError: "" }, tool: { requests: 5, errors: 1, lastError: "bad" } },
};

const errorOf = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as BackendError);

describe("ServeApi: the MCP surface", () => {
  it("starts with the body it is given and reads the running status, issues included", async () => {
    const { api, seen } = fakeBackend({ "POST /api/serve/mcp/start": { body: { ...RUNNING, issues: ["warning at /tools/0: odd"] } } });
    const started = await api.mcpStart({ port: 0, confirmMode: "operator", toolkit: { name: "x" }, fixtures: false });
    expect(started).toMatchObject({ running: true, url: "http://127.0.0.1:40001/mcp", tasks: { running: 1, kept: 3 }, issues: ["warning at /tools/0: odd"] });
    expect(seen[0]).toMatchObject({ method: "POST", body: { port: 0, confirmMode: "operator", toolkit: { name: "x" }, fixtures: false } });
  });

  it("reads a stopped status and passes the backend's own refusal through with its code", async () => {
    const { api } = fakeBackend({
      "GET /api/serve/mcp/status": { body: { running: false } },
      "POST /api/serve/mcp/start": { status: 409, body: { error: { code: "port_in_use", message: "port 7421 is already in use on 127.0.0.1" } } },
    });
    expect(await api.mcpStatus()).toEqual({ running: false });
    const err = await errorOf(api.mcpStart({ port: 7421 }));
    expect(err).toBeInstanceOf(BackendError);
    expect(err).toMatchObject({ status: 409, code: "port_in_use", message: "port 7421 is already in use on 127.0.0.1" });
  });

  it("names the route and the field when an answer is malformed or hostile", async () => {
    const cases: [unknown, RegExp][] = [
      [[1, 2], /GET \/api\/serve\/mcp\/status was not understood: the body should be an object/],
      [{ ...RUNNING, url: "javascript:alert(1)" }, /"url" should be an http\(s\) URL/],
      [{ ...RUNNING, tools: [{ name: 3, served: true, reason: "" }] }, /"tools\[0\]\.name" should be a string/],
      [{ ...RUNNING, sessions: -1 }, /"sessions" should be a number of 0 or more/],
      [{ ...RUNNING, tasks: { running: 1 } }, /"tasks\.kept" should be a number/],
      [{ ...RUNNING, fixtureTools: "all" }, /"fixtureTools" should be a list/],
      [{ running: "yes" }, /"running" should be true or false/],
    ];
    for (const [body, message] of cases) {
      const { api } = fakeBackend({ "GET /api/serve/mcp/status": { body } });
      const err = await errorOf(api.mcpStatus());
      expect(err).toMatchObject({ code: "bad_response" });
      expect(err?.message).toMatch(message);
    }
    const { api } = fakeBackend({ "GET /api/serve/mcp/status": "<html>proxy error</html>" });
    expect((await errorOf(api.mcpStatus()))?.message).toMatch(/non-JSON/);
  });

  it("refuses a start answer that says nothing runs", async () => {
    const { api } = fakeBackend({ "POST /api/serve/mcp/start": { body: { running: false, issues: [] } } });
    expect((await errorOf(api.mcpStart({})))?.message).toMatch(/"running" should be true after a start/);
  });
});

describe("ServeApi: frames", () => {
  it("pages with after and limit, keeps text verbatim and reads NATS subjects and headers", async () => {
    const { api, seen } = fakeBackend({
      "GET /api/serve/mcp/frames": { body: { frames: [{ seq: 4, at: 10, direction: "in", session: "s1", text: '{"id":1}', truncated: true, length: 99 }], next: 4, dropped: 3 } },
      "GET /api/serve/nats/frames": { body: { frames: [{ seq: 1, at: "2024-01-01T00:00:00Z", direction: "out", subject: "_INBOX.x", headers: { "Fisk-AI-Stream-Final": "true", A: ["1", "2"] }, text: "é" }], next: 1, dropped: 0 } },
    });
    const page = await api.mcpFrames(3, 50);
    expect(seen[0]?.url).toBe("/api/serve/mcp/frames?after=3&limit=50");
    expect(page).toEqual({ frames: [{ seq: 4, at: 10, direction: "in", session: "s1", text: '{"id":1}', truncated: true, length: 99 }], next: 4, dropped: 3 });
    const nats = await api.natsFrames(0);
    expect(nats.frames[0]).toEqual({ seq: 1, at: Date.UTC(2024, 0, 1), direction: "out", subject: "_INBOX.x", headers: { "Fisk-AI-Stream-Final": ["true"], A: ["1", "2"] }, text: "é" });
  });

  it("refuses a bad cursor before asking, and a frame with a strange direction or headers", async () => {
    const { api, seen } = fakeBackend({ "GET /api/serve/mcp/frames": { body: { frames: [{ seq: 1, at: 1, direction: "sideways", text: "" }], next: 1, dropped: 0 } } });
    await expect(api.mcpFrames(-1)).rejects.toThrow(/after must be a whole number/);
    expect(seen).toHaveLength(0);
    expect((await errorOf(api.mcpFrames(0)))?.message).toMatch(/"frames\[0\]\.direction" should be "in" or "out"/);
    const bad = fakeBackend({ "GET /api/serve/nats/frames": { body: { frames: [{ seq: 1, at: 1, direction: "in", text: "", headers: { A: [1] } }], next: 1, dropped: 0 } } });
    expect((await errorOf(bad.api.natsFrames(0)))?.message).toMatch(/"frames\[0\]\.headers\.A" should be a string or a list of strings/);
  });

  it("refuses an oversized page", async () => {
    const frames = Array.from({ length: 10_001 }, (_, i) => ({ seq: i + 1, at: 1, direction: "in", text: "" }));
    const { api } = fakeBackend({ "GET /api/serve/mcp/frames": { body: { frames, next: 1, dropped: 0 } } });
    expect((await errorOf(api.mcpFrames(0)))?.message).toMatch(/at most 10000 items/);
  });
});

describe("ServeApi: the NATS surface", () => {
  it("reads running and stopped statuses and sends the start options", async () => {
    const { api, seen } = fakeBackend({
      "POST /api/serve/nats/start": { body: NATS_RUNNING },
      "POST /api/serve/nats/stop": { body: { serving: false, identity: "patchbay-demo", subjects: null, served: [], message: "the NATS connection closed" } },
    });
    const running = await api.natsStart({ concurrency: 3, generation: "gen1" });
    expect(running).toMatchObject({ serving: true, generation: "gen2", endpoints: { tool: { requests: 5, errors: 1, lastError: "bad" } } });
    expect(seen[0]?.body).toEqual({ concurrency: 3, generation: "gen1" });
    expect(await api.natsStop()).toEqual({ serving: false, identity: "patchbay-demo", subjects: null, served: [], message: "the NATS connection closed" });
  });

  it("reads the instance, its connection and its tasks when the backend reports them, and sends identity and instance", async () => {
    const status = {
      ...NATS_RUNNING,
      instance: "console-1",
      connection: { state: "reconnecting", node: { name: "n2", url: "127.0.0.1:4222", cluster: "c1", id: "X", peers: [] }, reconnects: 2 },
      tasks: { inFlight: 1, workers: 4, conversations: 7 },
      subjects: { ...NATS_RUNNING.subjects, task: "choria.fisk-ai.task.patchbay-demo" },
      endpoints: { ...NATS_RUNNING.endpoints, task: { requests: 3, errors: 0, lastError: "" } },
    };
    const { api, seen } = fakeBackend({ "POST /api/serve/nats/start": { body: status } });
    const running = await api.natsStart({ identity: "orders", instance: "console-1" });
    expect(seen[0]?.body).toEqual({ identity: "orders", instance: "console-1" });
    expect(running).toMatchObject({
      instance: "console-1",
      connection: { state: "reconnecting", node: { name: "n2", url: "127.0.0.1:4222", cluster: "c1" }, reconnects: 2 },
      tasks: { inFlight: 1, workers: 4, conversations: 7 },
      subjects: { task: "choria.fisk-ai.task.patchbay-demo" },
      endpoints: { task: { requests: 3 } },
    });
  });

  it("refuses an unknown generation", async () => {
    const { api } = fakeBackend({ "GET /api/serve/nats/status": { body: { ...NATS_RUNNING, generation: "gen9" } } });
    expect((await errorOf(api.natsStatus()))?.message).toMatch(/"generation" should be "gen2" or "gen1"/);
  });
});

describe("ServeApi: approvals and info", () => {
  it("lists approvals, answers one by its escaped id, and reports an expired one as the backend's 404", async () => {
    const approvals = [{ id: "a/1", surface: "mcp", tool: "confirm", what: "confirm (say hi)", arguments: { message: "hi" }, askedAt: 1000, expiresAt: 121_000 }];
    const { api, seen } = fakeBackend({
      "GET /api/serve/approvals": { body: { approvals } },
      "POST /api/serve/approvals/a%2F1": { body: { ok: true } },
    });
    expect(await api.approvals()).toEqual(approvals);
    await api.decide("a/1", true);
    expect(seen[1]).toMatchObject({ method: "POST", url: "/api/serve/approvals/a%2F1", body: { approve: true } });
    expect(await errorOf(api.decide("gone", false))).toMatchObject({ status: 404 });
  });

  it("refuses an approval without its times", async () => {
    const { api } = fakeBackend({ "GET /api/serve/approvals": { body: { approvals: [{ id: "1", surface: "mcp", tool: "t", what: "w", askedAt: 1 }] } } });
    expect((await errorOf(api.approvals()))?.message).toMatch(/"approvals\[0\]\.expiresAt" should be a time/);
  });

  it("asks for the stdio command of a saved toolkit by name", async () => {
    const { api, seen } = fakeBackend({ "GET /api/serve/info": { body: { stdio: { command: "node", args: ["/p/bin/patchbay.mjs", "serve", "--stdio", "/w/toolkits/my kit.json"] }, workspace: "/w" } } });
    expect(await api.info("my kit")).toEqual({ stdio: { command: "node", args: ["/p/bin/patchbay.mjs", "serve", "--stdio", "/w/toolkits/my kit.json"] }, workspace: "/w" });
    expect(seen[0]?.url).toBe("/api/serve/info?toolkit=my%20kit");
    const bad = fakeBackend({ "GET /api/serve/info": { body: { stdio: { command: "node", args: "serve" }, workspace: "/w" } } });
    expect((await errorOf(bad.api.info()))?.message).toMatch(/GET \/api\/serve\/info was not understood: "stdio\.args" should be a list/);
  });
});

const A2A_RUNNING = {
  running: true,
  port: 40002,
  baseUrl: "http://127.0.0.1:40002",
  cardUrl: "http://127.0.0.1:40002/.well-known/agent-card.json",
  jsonRpcUrl: "http://127.0.0.1:40002/a2a/jsonrpc",
  restUrl: "http://127.0.0.1:40002/a2a/rest",
  toolkit: "patchbay-demo",
  confirm: "omit",
  concurrency: 2,
  defaultSkill: "echo",
  startedAt: 1_700_000_000_000,
  tasks: { running: 1, kept: 4 },
  tools: [{ name: "echo", served: true, reason: "served" }],
};

describe("ServeApi: the A2A surface", () => {
  it("starts with the body it is given and reads the running status, issues included", async () => {
    const { api, seen } = fakeBackend({ "POST /api/serve/a2a/start": { body: { ...A2A_RUNNING, issues: ["warning: odd"] } } });
    const started = await api.a2aStart({ port: 0, confirm: "ask" });
    expect(seen[0]).toMatchObject({ method: "POST", body: { port: 0, confirm: "ask" } });
    expect(started).toMatchObject({ running: true, cardUrl: A2A_RUNNING.cardUrl, confirm: "omit", defaultSkill: "echo", tasks: { running: 1, kept: 4 }, issues: ["warning: odd"] });
  });

  it("reads a stopped status and refuses a malformed running one, naming the field", async () => {
    const { api } = fakeBackend({ "GET /api/serve/a2a/status": { body: { running: false } }, "POST /api/serve/a2a/stop": { body: { ...A2A_RUNNING, confirm: "maybe" } } });
    expect(await api.a2aStatus()).toEqual({ running: false });
    const error = await errorOf(api.a2aStop());
    expect(error).toBeInstanceOf(BackendError);
    expect(error?.message).toContain('"confirm" should be "omit" or "ask"');
  });

  it("refuses a card URL that is not http(s) and a start answer that says it is not running", async () => {
    const { api } = fakeBackend({
      "GET /api/serve/a2a/status": { body: { ...A2A_RUNNING, cardUrl: "javascript:alert(1)" } },
      "POST /api/serve/a2a/start": { body: { running: false, issues: [] } },
    });
    expect((await errorOf(api.a2aStatus()))?.message).toContain('"cardUrl" should be an http(s) URL');
    expect((await errorOf(api.a2aStart({})))?.message).toContain('"running" should be true after a start');
  });

  it("reads frames with their HTTP binding, method, path and status, and checks the cursor", async () => {
    const frame = { seq: 1, at: 1_700_000_000_000, direction: "out", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", status: 200, text: "{}" };
    const { api, seen } = fakeBackend({ "GET /api/serve/a2a/frames": { body: { frames: [frame], next: 1, dropped: 0 } } });
    const page = await api.a2aFrames(0, 10);
    expect(seen[0]?.url).toContain("/api/serve/a2a/frames?after=0&limit=10");
    expect(page.frames[0]).toEqual(frame);
    await expect(api.a2aFrames(-1)).rejects.toThrow(RangeError);
  });
});
