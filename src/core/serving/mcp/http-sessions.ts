import { type Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";
import { BoundedEventStore } from "./event-store.ts";
import { RecordingTransport, type FrameDirection, type FrameSink } from "./recording-transport.ts";
import { watchResponseBody } from "./response-frames.ts";
import { createMcpServer } from "./server-factory.ts";
import type { McpServingContext } from "./serving-context.ts";

export const DEFAULT_MAX_SESSIONS = 32;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** How soon a client whose stream was closed should reconnect (the SSE retry field). */
export const SSE_RETRY_MS = 1_000;

export interface HttpSessionsOptions {
  readonly context: McpServingContext;
  /** Session ids are the only thing tying requests to a session: make them unguessable. */
  readonly newSessionId: () => string;
  readonly maxSessions?: number;
  /** A session with no request or open stream for this long is closed. */
  readonly idleMs?: number;
  readonly onFrame?: FrameSink;
}

/** A POST body already read and parsed by the HTTP layer; `text` is what arrived. */
export interface RequestBody {
  readonly text: string;
  readonly value: unknown;
}

interface Entry {
  readonly id: string;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Requests in progress plus response streams still open. */
  active: number;
  cancelIdle?: () => void;
}

/** A JSON-RPC error answer with no id, for failures before any message was read. */
export function rpcErrorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), { status, headers: { "Content-Type": "application/json" } });
}

/** Whose tasks a legacy HTTP session sees: its own. */
export const sessionOwner = (sessionId: string) => `session:${sessionId}`;

function startsSession(value: unknown): boolean {
  const isInit = (m: unknown) => isJsonObject(m) && m.method === "initialize";
  return Array.isArray(value) ? value.some(isInit) : isInit(value);
}

/**
 * The legacy era's Streamable HTTP sessions (2024-11-05 … 2025-11-25) of one served agent, over
 * web-standard Request and Response: each session gets its own SDK server and transport (never
 * shared, CVE-2026-25536), at most `maxSessions` live at once, idle ones expire, DELETE ends one
 * (and cancels the tasks it started). Inbound bodies are recorded by the caller.
 */
export class McpHttpSessions {
  readonly #ctx: McpServingContext;
  readonly #options: HttpSessionsOptions;
  readonly #entries = new Map<string, Entry>();
  #opening = 0;
  #closed = false;

  constructor(options: HttpSessionsOptions) {
    this.#ctx = options.context;
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  #record(direction: FrameDirection, text: string, session: string | undefined): void {
    this.#options.onFrame?.(session === undefined ? { direction, text } : { direction, text, session });
  }

  #refuse(status: number, code: number, message: string, session: string | undefined): Response {
    const response = rpcErrorResponse(status, code, message);
    this.#record("out", JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), session);
    return response;
  }

  async handle(request: Request, body?: RequestBody): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id") ?? undefined;
    if (this.#closed) return this.#refuse(503, -32000, "The MCP endpoint is stopping.", sessionId);
    // JSON-RPC: an empty batch is an invalid request, not "nothing to answer".
    if (Array.isArray(body?.value) && body.value.length === 0) return this.#refuse(400, -32600, "Invalid Request: the batch is empty.", sessionId);
    if (sessionId !== undefined) {
      const entry = this.#entries.get(sessionId);
      if (!entry) return this.#refuse(404, -32001, "Session not found: it ended or expired. Start a new session with initialize.", sessionId);
      return this.#forward(entry, request, body);
    }
    if (request.method !== "POST") {
      return this.#refuse(400, -32000, `Bad Request: ${request.method} needs an Mcp-Session-Id header; a session starts with a POST of initialize.`, undefined);
    }
    if (!startsSession(body?.value)) {
      return this.#refuse(400, -32600, "Bad Request: there is no Mcp-Session-Id header and the body is not an initialize request; a session starts with initialize.", undefined);
    }
    const max = this.#options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (this.#entries.size + this.#opening >= max) {
      return this.#refuse(503, -32000, `Too many MCP sessions (${max} are open). End one with DELETE, or wait for idle ones to expire.`, undefined);
    }
    return this.#open(request, body!);
  }

  async #open(request: Request, body: RequestBody): Promise<Response> {
    this.#opening++;
    const id = this.#options.newSessionId();
    const server = createMcpServer(this.#ctx, "legacy", sessionOwner(id));
    let entry: Entry | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Resumable streams: a client that lost one reconnects with Last-Event-ID.
      eventStore: new BoundedEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (opened) => {
        entry = { id: opened, server, transport, active: 0 };
        this.#entries.set(opened, entry);
      },
    });
    // Bridged agents' tools come and go: legacy sessions hear it on their standalone stream.
    const off = this.#ctx.bridge ? this.#ctx.changes.on((kind) => kind === "tools" && void Promise.resolve(server.sendToolListChanged()).catch(() => undefined)) : undefined;
    server.onclose = () => {
      off?.();
      if (entry) this.#forget(entry);
    };
    server.oninitialized = () => this.#ctx.logger.info("MCP session opened", { client: server.getClientVersion()?.name, session: entry?.id.slice(0, 8) });
    let response: Response;
    try {
      await server.connect(new RecordingTransport(transport, (frame) => this.#options.onFrame?.(frame), { recordInbound: false }));
      response = await transport.handleRequest(request, { parsedBody: body.value });
    } finally {
      this.#opening--;
    }
    if (!entry) {
      // The initialize was refused (headers, shape): nothing to keep.
      await server.close();
      return this.#recordRefusal(response, undefined);
    }
    if (response.body === null) {
      this.#busy(entry);
      this.#idle(entry);
    }
    return this.#track(entry, response);
  }

  async #forward(entry: Entry, request: Request, body: RequestBody | undefined): Promise<Response> {
    this.#busy(entry);
    let response: Response;
    try {
      response = await entry.transport.handleRequest(request, body ? { parsedBody: body.value } : {});
    } finally {
      this.#idle(entry);
    }
    if (!response.ok) return this.#recordRefusal(response, entry.id);
    return this.#track(entry, response);
  }

  /** The transport's own HTTP refusals (406, 415, 400, …) carry a JSON-RPC error: record it too. */
  async #recordRefusal(response: Response, session: string | undefined): Promise<Response> {
    if (!response.ok && response.body !== null && response.headers.get("content-type")?.includes("application/json")) {
      this.#record("out", await response.clone().text(), session);
    }
    return response;
  }

  /** Counts an open response stream as activity until it ends or the client goes away. */
  #track(entry: Entry, response: Response): Response {
    if (response.body === null) return response;
    this.#busy(entry);
    return watchResponseBody(response, { end: () => this.#idle(entry) });
  }

  #busy(entry: Entry): void {
    entry.active++;
    entry.cancelIdle?.();
    entry.cancelIdle = undefined;
  }

  #idle(entry: Entry): void {
    entry.active--;
    if (entry.active > 0 || !this.#entries.has(entry.id)) return;
    const idleMs = this.#options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    entry.cancelIdle = this.#ctx.scheduler.after(idleMs, () => {
      this.#ctx.logger.info("MCP session expired", { session: entry.id.slice(0, 8), idleMs });
      void this.#close(entry);
    });
  }

  #forget(entry: Entry): void {
    entry.cancelIdle?.();
    entry.cancelIdle = undefined;
    if (this.#entries.get(entry.id) !== entry) return;
    this.#entries.delete(entry.id);
    this.#ctx.tasks.cancelOwned(sessionOwner(entry.id));
  }

  async #close(entry: Entry): Promise<void> {
    this.#forget(entry);
    await entry.server.close().catch(() => undefined);
  }

  /** Ends every session; later requests are refused. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#entries.values()].map((entry) => this.#close(entry)));
  }
}
