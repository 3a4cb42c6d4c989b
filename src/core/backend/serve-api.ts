/**
 * The Serve workbench's view of the backend's /api/serve routes: start, stop and watch the MCP
 * and NATS surfaces, read the served traffic, answer approvals. Every answer is checked before
 * the UI sees it, so a malformed or hostile one becomes a plain error, never a half-read status.
 */
import type { BackendClient } from "./backend-client.ts";
import { framePage, opt, Reader, servedTools } from "./serve-api-read.ts";
import type { A2aServeStatus, A2aStarted, A2aStartInput, McpBridgeStatus, McpServeStatus, McpStarted, McpStartInput, EndpointCounters, NatsSubjects, NatsServeStatus, NatsServing, NatsStartInput, ServedFramePage, PendingApproval, ServeInfo } from "./serve-api-types.ts";
export { A2A_SERVE_CONFIRMS, SERVE_CONFIRM_MODES } from "./serve-api-types.ts";
export type { A2aServeConfirm, A2aServing, A2aServeStatus, A2aStarted, A2aStartInput, ServeConfirmMode, ServedTool, McpBridgeInput, McpBridgeStatus, McpServing, McpServeStatus, McpStarted, McpStartInput, EndpointCounters, NatsServeConnection, NatsSubjects, NatsServing, NatsStopped, NatsServeStatus, NatsStartInput, ServedFrame, ServedFramePage, PendingApproval, ServeInfo } from "./serve-api-types.ts";


function mcpStatus(r: Reader, body: unknown): McpServeStatus {
  const o = r.obj(body, "");
  if (!r.bool(o, "running", "")) return { running: false };
  const tasks = r.obj(o.tasks, ".tasks");
  return {
    running: true,
    url: r.url(o, "url", ""),
    port: r.num(o, "port", ""),
    toolkit: r.str(o, "toolkit", ""),
    confirmMode: r.str(o, "confirmMode", ""),
    concurrency: r.num(o, "concurrency", ""),
    ...opt("timeoutMs", o.timeoutMs === undefined ? undefined : r.num(o, "timeoutMs", "")),
    fixtures: r.bool(o, "fixtures", ""),
    sessions: r.num(o, "sessions", ""),
    tasks: { running: r.num(tasks, "running", ".tasks"), kept: r.num(tasks, "kept", ".tasks") },
    startedAt: r.time(o, "startedAt", ""),
    tools: servedTools(r, o, "tools", ""),
    fixtureTools: r.list(o, "fixtureTools", "", (v, p) => (typeof v === "string" ? v : r.fail(p, "a string"))),
    ...opt("bridge", o.bridge === undefined ? undefined : bridgeStatus(r, o.bridge)),
  };
}

function bridgeStatus(r: Reader, v: unknown): McpBridgeStatus {
  const o = r.obj(v, ".bridge");
  const text = (x: unknown, p: string) => (typeof x === "string" ? x : r.fail(p, "a string"));
  return {
    identities: r.list(o, "identities", ".bridge", text),
    tools: r.list(o, "tools", ".bridge", (t, p) => {
      const tool = r.obj(t, p);
      return { name: r.str(tool, "name", p), agent: r.str(tool, "agent", p), remoteName: r.str(tool, "remoteName", p) };
    }),
    warnings: r.list(o, "warnings", ".bridge", text),
  };
}

function a2aStatus(r: Reader, body: unknown): A2aServeStatus {
  const o = r.obj(body, "");
  if (!r.bool(o, "running", "")) return { running: false };
  const confirm = o.confirm === "omit" || o.confirm === "ask" ? o.confirm : r.fail(".confirm", '"omit" or "ask"');
  const tasks = r.obj(o.tasks, ".tasks");
  return {
    running: true,
    port: r.num(o, "port", ""),
    baseUrl: r.url(o, "baseUrl", ""),
    cardUrl: r.url(o, "cardUrl", ""),
    jsonRpcUrl: r.url(o, "jsonRpcUrl", ""),
    restUrl: r.url(o, "restUrl", ""),
    toolkit: r.str(o, "toolkit", ""),
    confirm,
    concurrency: r.num(o, "concurrency", ""),
    ...opt("timeoutMs", o.timeoutMs === undefined ? undefined : r.num(o, "timeoutMs", "")),
    ...opt("defaultSkill", o.defaultSkill === undefined ? undefined : r.str(o, "defaultSkill", "")),
    startedAt: r.time(o, "startedAt", ""),
    tasks: { running: r.num(tasks, "running", ".tasks"), kept: r.num(tasks, "kept", ".tasks") },
    tools: servedTools(r, o, "tools", ""),
  };
}

function counters(r: Reader, v: unknown, path: string): EndpointCounters {
  const o = r.obj(v, path);
  return { requests: r.num(o, "requests", path), errors: r.num(o, "errors", path), lastError: typeof o.lastError === "string" ? o.lastError : "" };
}

function subjects(r: Reader, v: unknown, path: string): NatsSubjects {
  const o = r.obj(v, path);
  return { discovery: r.str(o, "discovery", path), tool: r.str(o, "tool", path), ...opt("task", typeof o.task === "string" ? o.task : undefined) };
}

function connection(r: Reader, v: unknown): NatsServing["connection"] {
  if (v === undefined) return undefined;
  const o = r.obj(v, ".connection");
  const node = o.node === undefined ? undefined : r.obj(o.node, ".connection.node");
  return {
    state: o.state === "reconnecting" ? "reconnecting" : "connected",
    ...(node ? { node: { name: r.str(node, "name", ".connection.node"), url: r.str(node, "url", ".connection.node"), ...opt("cluster", typeof node.cluster === "string" ? node.cluster : undefined) } } : {}),
    reconnects: r.num(o, "reconnects", ".connection"),
  };
}

function natsStatus(r: Reader, body: unknown): NatsServeStatus {
  const o = r.obj(body, "");
  const identity = r.str(o, "identity", "");
  const served = servedTools(r, o, "served", "");
  if (!r.bool(o, "serving", "")) {
    return { serving: false, identity, subjects: o.subjects === null ? null : subjects(r, o.subjects, ".subjects"), served, ...opt("message", typeof o.message === "string" ? o.message : undefined) };
  }
  const generation = o.generation === "gen1" ? "gen1" : o.generation === "gen2" ? "gen2" : r.fail(".generation", '"gen2" or "gen1"');
  const endpoints = r.obj(o.endpoints, ".endpoints");
  return {
    serving: true,
    server: r.str(o, "server", ""),
    identity,
    ...opt("instance", typeof o.instance === "string" ? o.instance : undefined),
    ...opt("connection", connection(r, o.connection)),
    ...opt("tasks", o.tasks === undefined ? undefined : (() => {
      const t = r.obj(o.tasks, ".tasks");
      return { inFlight: r.num(t, "inFlight", ".tasks"), workers: r.num(t, "workers", ".tasks"), conversations: r.num(t, "conversations", ".tasks") };
    })()),
    serviceId: r.str(o, "serviceId", ""),
    generation,
    concurrency: r.num(o, "concurrency", ""),
    keepaliveMs: r.num(o, "keepaliveMs", ""),
    callTimeoutMs: r.num(o, "callTimeoutMs", ""),
    subjects: subjects(r, o.subjects, ".subjects"),
    served,
    active: r.num(o, "active", ""),
    pending: r.num(o, "pending", ""),
    endpoints: {
      discovery: counters(r, endpoints.discovery, ".endpoints.discovery"),
      tool: counters(r, endpoints.tool, ".endpoints.tool"),
      ...opt("task", endpoints.task === undefined ? undefined : counters(r, endpoints.task, ".endpoints.task")),
    },
  };
}

function approval(r: Reader, v: unknown, path: string): PendingApproval {
  const o = r.obj(v, path);
  return {
    id: r.str(o, "id", path),
    surface: r.str(o, "surface", path),
    tool: r.str(o, "tool", path),
    what: r.str(o, "what", path),
    arguments: o.arguments,
    askedAt: r.time(o, "askedAt", path),
    expiresAt: r.time(o, "expiresAt", path),
  };
}

function cursor(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of 0 or more, not ${value}`);
  return value;
}

/** The /api/serve routes, over the backend client (token, base URL and error bodies handled there). */
export class ServeApi {
  readonly #client: Pick<BackendClient, "call">;

  constructor(client: Pick<BackendClient, "call">) {
    this.#client = client;
  }

  async #get<T>(method: string, path: string, read: (r: Reader, body: unknown) => T, body?: unknown): Promise<T> {
    const answer = await this.#client.call<unknown>(method, path, body);
    return read(new Reader(`${method} /api${path.replace(/\?.*$/, "")}`), answer);
  }

  mcpStatus(): Promise<McpServeStatus> {
    return this.#get("GET", "/serve/mcp/status", mcpStatus);
  }

  mcpStart(input: McpStartInput): Promise<McpStarted> {
    return this.#get("POST", "/serve/mcp/start", (r, body) => {
      const status = mcpStatus(r, body);
      if (!status.running) return r.fail(".running", "true after a start");
      const issues = r.list(r.obj(body, ""), "issues", "", (v, p) => (typeof v === "string" ? v : r.fail(p, "a string")));
      return { ...status, issues };
    }, input);
  }

  mcpStop(): Promise<McpServeStatus> {
    return this.#get("POST", "/serve/mcp/stop", mcpStatus, {});
  }

  async mcpFrames(after: number, limit = 500): Promise<ServedFramePage> {
    return this.#get("GET", `/serve/mcp/frames?after=${cursor(after, "after")}&limit=${cursor(limit, "limit")}`, framePage);
  }

  natsStatus(): Promise<NatsServeStatus> {
    return this.#get("GET", "/serve/nats/status", natsStatus);
  }

  natsStart(input: NatsStartInput): Promise<NatsServeStatus> {
    return this.#get("POST", "/serve/nats/start", natsStatus, input);
  }

  natsStop(): Promise<NatsServeStatus> {
    return this.#get("POST", "/serve/nats/stop", natsStatus, {});
  }

  async natsFrames(after: number, limit = 500): Promise<ServedFramePage> {
    return this.#get("GET", `/serve/nats/frames?after=${cursor(after, "after")}&limit=${cursor(limit, "limit")}`, framePage);
  }

  a2aStatus(): Promise<A2aServeStatus> {
    return this.#get("GET", "/serve/a2a/status", a2aStatus);
  }

  a2aStart(input: A2aStartInput): Promise<A2aStarted> {
    return this.#get("POST", "/serve/a2a/start", (r, body) => {
      const status = a2aStatus(r, body);
      if (!status.running) return r.fail(".running", "true after a start");
      const issues = r.list(r.obj(body, ""), "issues", "", (v, p) => (typeof v === "string" ? v : r.fail(p, "a string")));
      return { ...status, issues };
    }, input);
  }

  a2aStop(): Promise<A2aServeStatus> {
    return this.#get("POST", "/serve/a2a/stop", a2aStatus, {});
  }

  async a2aFrames(after: number, limit = 500): Promise<ServedFramePage> {
    return this.#get("GET", `/serve/a2a/frames?after=${cursor(after, "after")}&limit=${cursor(limit, "limit")}`, framePage);
  }

  approvals(): Promise<PendingApproval[]> {
    return this.#get("GET", "/serve/approvals", (r, body) => r.list(r.obj(body, ""), "approvals", "", (v, p) => approval(r, v, p)));
  }

  /** Answers one approval; a 404 means it expired or was already answered. */
  async decide(id: string, approve: boolean): Promise<void> {
    await this.#client.call("POST", `/serve/approvals/${encodeURIComponent(id)}`, { approve });
  }

  /** How a client starts the stdio server for a saved toolkit (the demo toolkit without one). */
  info(toolkit?: string): Promise<ServeInfo> {
    const query = toolkit === undefined ? "" : `?toolkit=${encodeURIComponent(toolkit)}`;
    return this.#get("GET", `/serve/info${query}`, (r, body) => {
      const o = r.obj(body, "");
      const stdio = r.obj(o.stdio, ".stdio");
      return {
        stdio: { command: r.str(stdio, "command", ".stdio"), args: r.list(stdio, "args", ".stdio", (v, p) => (typeof v === "string" ? v : r.fail(p, "a string"))) },
        workspace: r.str(o, "workspace", ""),
      };
    });
  }
}
