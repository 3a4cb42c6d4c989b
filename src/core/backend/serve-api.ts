/**
 * The Serve workbench's view of the backend's /api/serve routes: start, stop and watch the MCP
 * and NATS surfaces, read the served traffic, answer approvals. Every answer is checked before
 * the UI sees it, so a malformed or hostile one becomes a plain error, never a half-read status.
 */
import { isJsonObject } from "../json/index.ts";
import { BackendError, type BackendClient } from "./backend-client.ts";
import type { ServedTool, McpServeStatus, McpStarted, McpStartInput, EndpointCounters, NatsSubjects, NatsServeStatus, NatsStartInput, ServedFrame, ServedFramePage, PendingApproval, ServeInfo } from "./serve-api-types.ts";
export { SERVE_CONFIRM_MODES } from "./serve-api-types.ts";
export type { ServeConfirmMode, ServedTool, McpServing, McpServeStatus, McpStarted, McpStartInput, EndpointCounters, NatsSubjects, NatsServing, NatsStopped, NatsServeStatus, NatsStartInput, ServedFrame, ServedFramePage, PendingApproval, ServeInfo } from "./serve-api-types.ts";


const MAX_ITEMS = 10_000;

/** Reads one answer, naming the route and the exact place that is wrong. */
class Reader {
  readonly #route: string;
  constructor(route: string) {
    this.#route = route;
  }
  fail(path: string, want: string): never {
    throw new BackendError(200, "bad_response", `the backend's answer to ${this.#route} was not understood: ${path ? `"${path.replace(/^\./, "")}"` : "the body"} should be ${want}`);
  }
  obj(v: unknown, path: string): Record<string, unknown> {
    return isJsonObject(v) ? v : this.fail(path, "an object");
  }
  str(o: Record<string, unknown>, key: string, path: string): string {
    const v = o[key];
    return typeof v === "string" ? v : this.fail(`${path}.${key}`, "a string");
  }
  num(o: Record<string, unknown>, key: string, path: string): number {
    const v = o[key];
    return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : this.fail(`${path}.${key}`, "a number of 0 or more");
  }
  bool(o: Record<string, unknown>, key: string, path: string): boolean {
    const v = o[key];
    return typeof v === "boolean" ? v : this.fail(`${path}.${key}`, "true or false");
  }
  list<T>(o: Record<string, unknown>, key: string, path: string, item: (v: unknown, path: string) => T): T[] {
    const v = o[key];
    if (!Array.isArray(v) || v.length > MAX_ITEMS) this.fail(`${path}.${key}`, `a list of at most ${MAX_ITEMS} items`);
    return v.map((x, i) => item(x, `${path}.${key}[${i}]`));
  }
  /** Epoch ms, sent as a number or an ISO date. */
  time(o: Record<string, unknown>, key: string, path: string): number {
    const v = o[key];
    const ms = typeof v === "string" ? Date.parse(v) : v;
    return typeof ms === "number" && Number.isFinite(ms) ? ms : this.fail(`${path}.${key}`, "a time");
  }
  url(o: Record<string, unknown>, key: string, path: string): string {
    const v = this.str(o, key, path);
    return /^https?:\/\/[^\s]+$/i.test(v) ? v : this.fail(`${path}.${key}`, "an http(s) URL");
  }
}

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

function servedTools(r: Reader, o: Record<string, unknown>, key: string, path: string): ServedTool[] {
  return r.list(o, key, path, (v, p) => {
    const t = r.obj(v, p);
    return { name: r.str(t, "name", p), served: r.bool(t, "served", p), reason: r.str(t, "reason", p) };
  });
}

function mcpStatus(r: Reader, body: unknown): McpServeStatus {
  const o = r.obj(body, "");
  if (!r.bool(o, "running", "")) return { running: false };
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
    startedAt: r.time(o, "startedAt", ""),
    tools: servedTools(r, o, "tools", ""),
    fixtureTools: r.list(o, "fixtureTools", "", (v, p) => (typeof v === "string" ? v : r.fail(p, "a string"))),
  };
}

function counters(r: Reader, v: unknown, path: string): EndpointCounters {
  const o = r.obj(v, path);
  return { requests: r.num(o, "requests", path), errors: r.num(o, "errors", path), lastError: typeof o.lastError === "string" ? o.lastError : "" };
}

function subjects(r: Reader, v: unknown, path: string): NatsSubjects {
  const o = r.obj(v, path);
  return { discovery: r.str(o, "discovery", path), tool: r.str(o, "tool", path) };
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
    serviceId: r.str(o, "serviceId", ""),
    generation,
    concurrency: r.num(o, "concurrency", ""),
    keepaliveMs: r.num(o, "keepaliveMs", ""),
    callTimeoutMs: r.num(o, "callTimeoutMs", ""),
    subjects: subjects(r, o.subjects, ".subjects"),
    served,
    active: r.num(o, "active", ""),
    pending: r.num(o, "pending", ""),
    endpoints: { discovery: counters(r, endpoints.discovery, ".endpoints.discovery"), tool: counters(r, endpoints.tool, ".endpoints.tool") },
  };
}

function headers(r: Reader, v: unknown, path: string): Record<string, string[]> {
  const o = r.obj(v, path);
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(o)) {
    const values = typeof value === "string" ? [value] : value;
    if (!Array.isArray(values) || !values.every((x) => typeof x === "string")) r.fail(`${path}.${name}`, "a string or a list of strings");
    out[name] = values as string[];
  }
  return out;
}

function frame(r: Reader, v: unknown, path: string): ServedFrame {
  const o = r.obj(v, path);
  const direction = o.direction === "in" || o.direction === "out" ? o.direction : r.fail(`${path}.direction`, '"in" or "out"');
  const optStr = (key: string) => (o[key] === undefined ? undefined : r.str(o, key, path));
  return {
    seq: r.num(o, "seq", path),
    at: r.time(o, "at", path),
    direction,
    ...opt("session", optStr("session")),
    ...opt("subject", optStr("subject")),
    ...opt("reply", optStr("reply")),
    ...opt("headers", o.headers === undefined ? undefined : headers(r, o.headers, `${path}.headers`)),
    text: r.str(o, "text", path),
    ...opt("truncated", o.truncated === true ? (true as const) : undefined),
    ...opt("length", o.length === undefined ? undefined : r.num(o, "length", path)),
  };
}

function framePage(r: Reader, body: unknown): ServedFramePage {
  const o = r.obj(body, "");
  return { frames: r.list(o, "frames", "", (v, p) => frame(r, v, p)), next: r.num(o, "next", ""), dropped: r.num(o, "dropped", "") };
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
