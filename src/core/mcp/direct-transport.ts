import { type JSONRPCMessage, SSEClientTransport, StreamableHTTPClientTransport, type TransportSendOptions } from "@modelcontextprotocol/client";
import type { Clock, IdSource } from "../env/environment.ts";
import { httpFrameHeaders, type HeaderSource } from "../wire/http-headers.ts";
import type { WireLog } from "../wire/wire-log.ts";
import { DirectRefusedError, headerObject, mediaType, nameRefusal } from "./direct-refusal.ts";
import { SseSplitter } from "../framing/sse-splitter.ts";
import { FrameRecorder, type FrameExtra } from "./frame-recorder.ts";
import { deliverFrame } from "./incoming-frame.ts";
import { jsonOrUndefined } from "../json/index.ts";
import type { McpTransport } from "./mcp-transport.ts";
import { standardHeaders } from "./modern-headers.ts";
import { preview, type RelayConsoleEvent } from "./relay-api.ts";
import { bodyPreview, RELAY_FAILURE_CODE, NotJsonRpcError, RelayError } from "./relay-error.ts";

/** An MCP server the page talks to itself, without the backend. */
export interface DirectSession {
  readonly transport: "streamable-http" | "sse";
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface DirectTransportOptions {
  readonly fetch: typeof fetch;
  readonly session: DirectSession;
  readonly wireLog: WireLog;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** HTTP statuses and failures, for the console pane. */
  readonly onConsole?: (event: RelayConsoleEvent) => void;
  /** True when a CORS or network refusal makes the page fall back to the relay (Auto). */
  readonly relayFallback?: boolean;
}

const ACCEPT = "application/json, text/event-stream";
/** What a server/discover probe may meet from a server that does not know it. */
const PROBE_REFUSALS: ReadonlySet<string> = new Set(["http", "cors", "not-mcp"]);

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The SDK's Streamable HTTP (or legacy SSE) client transport, run from the page with the injected
 * fetch. The fetch it is given records every frame verbatim in the wire log as it crosses, names
 * failures by step (a CORS refusal included), and reports each HTTP status to the console.
 */
export class DirectTransport implements McpTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly target: string;
  readonly #options: DirectTransportOptions;
  readonly #recorder: FrameRecorder;
  readonly #inner: StreamableHTTPClientTransport | SSEClientTransport;
  readonly #url: URL;
  /** Where a legacy SSE server takes POSTs, from its `endpoint` event. */
  #endpoint: URL | undefined;
  #protocolVersion: string | undefined;
  /** server/discover probes on their way. */
  #probing = 0;
  #startFailure: Error | undefined;
  #started = false;
  #closing = false;
  #closed = false;
  readonly #t0: number;

  constructor(options: DirectTransportOptions) {
    this.#options = options;
    this.#t0 = options.clock.now();
    this.#url = new URL(options.session.url);
    this.target = options.session.url;
    this.#recorder = new FrameRecorder(options.wireLog, options.clock, options.ids, () => this.target);
    const fetch = this.#fetch as typeof globalThis.fetch;
    const requestInit = { headers: { ...options.session.headers } };
    this.#inner =
      options.session.transport === "sse"
        ? new SSEClientTransport(this.#url, { fetch, requestInit })
        : new StreamableHTTPClientTransport(this.#url, { fetch, requestInit });
    this.#inner.onmessage = (message) => this.onmessage?.(message);
    this.#inner.onerror = (error) => {
      const explained = this.#explain(error);
      // The probe's refusal reaches the client as its answer; it ends nothing.
      if (this.#probing > 0 && explained instanceof RelayError && PROBE_REFUSALS.has(explained.step) && !(explained instanceof DirectRefusedError && this.#options.relayFallback === true)) return;
      if (!this.#closing) this.onerror?.(explained);
    };
    this.#inner.onclose = () => this.#finish();
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("DirectTransport already started");
    this.#started = true;
    try {
      await this.#inner.start();
    } catch (error) {
      // The legacy transport's EventSource would keep retrying in the background.
      const failure = this.#startFailure ?? this.#explain(error as Error);
      this.#closing = true;
      await this.#inner.close().catch(() => undefined);
      throw failure;
    }
  }

  /** Over Streamable HTTP each request is its own POST; closing it cancels the request (2026-07-28). */
  get hasPerRequestStream(): boolean {
    return this.#inner instanceof StreamableHTTPClientTransport;
  }

  readonly channelKind = "http" as const;

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new RelayError("send", "the direct connection is closed");
    const probe = "method" in message && message.method === "server/discover" && "id" in message ? message.id : undefined;
    if (probe === undefined) return this.#inner instanceof StreamableHTTPClientTransport ? this.#inner.send(message, options) : this.#inner.send(message);
    // A refusal of the server/discover probe (an HTTP error status, or CORS: a 2025 server's
    // allow-list predates the 2026 headers) is the server's answer to it, as the relay reports it.
    this.#probing++;
    try {
      await (this.#inner instanceof StreamableHTTPClientTransport ? this.#inner.send(message, options) : this.#inner.send(message));
    } catch (error) {
      if (!(error instanceof RelayError) || !PROBE_REFUSALS.has(error.step)) throw error;
      // With a relay to fall back to, a CORS refusal is the fallback's to handle, not an answer.
      if (error instanceof DirectRefusedError && this.#options.relayFallback === true) throw error;
      const relayFailure = { step: error.step, ...(error.status !== undefined ? { status: error.status } : {}), ...(error.body !== undefined ? { body: error.body } : {}) };
      this.onmessage?.({ jsonrpc: "2.0", id: probe, error: { code: RELAY_FAILURE_CODE, message: error.message, data: { relayFailure } } });
    } finally {
      this.#probing--;
    }
  }

  /** Sends any text as one message, valid JSON-RPC or not (raw mode); answers reach onmessage. */
  async sendRaw(text: string): Promise<void> {
    if (!this.#started) throw new Error("DirectTransport is not started");
    if (this.#closed) throw new RelayError("send", "the direct connection is closed");
    const headers: Record<string, string> = { ...this.#options.session.headers, ...standardHeaders(jsonOrUndefined(text)), "content-type": "application/json", accept: ACCEPT };
    const sessionId = this.#inner instanceof StreamableHTTPClientTransport ? this.#inner.sessionId : undefined;
    if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
    if (this.#protocolVersion !== undefined && headers["Mcp-Protocol-Version"] === undefined) headers["mcp-protocol-version"] = this.#protocolVersion;
    const url = this.#options.session.transport === "sse" ? this.#endpoint : this.#url;
    if (url === undefined) throw new RelayError("send", "the server has not yet said where to send messages (no endpoint event)");
    const res = await this.#fetch(url, { method: "POST", headers, body: text });
    const type = mediaType(res.headers.get("content-type"));
    if (this.#options.session.transport === "sse" || res.status === 202) return void (await res.body?.cancel());
    if (type === "application/json") this.#deliver(await res.text());
    else if (type === "text/event-stream" && res.body) await this.#deliverStream(res.body);
    else await res.body?.cancel();
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#inner.setProtocolVersion(version);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    if (this.#inner instanceof StreamableHTTPClientTransport && this.#inner.sessionId !== undefined) {
      // Tell the server the session is over; one that does not allow it answers 405.
      await this.#inner.terminateSession().catch(() => undefined);
    }
    await this.#inner.close().catch(() => undefined);
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  /** Console events carry `at`, ms since this transport was made, like the relay's. */
  #console(event: DistributiveOmit<RelayConsoleEvent, "at">): void {
    this.#options.onConsole?.({ ...event, at: Math.round(this.#options.clock.now() - this.#t0) } as RelayConsoleEvent);
  }

  /** The fetch the SDK transport is given: logs frames, names failures, reports statuses. */
  readonly #fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const method = (init.method ?? "GET").toUpperCase();
    const sent = typeof init.body === "string" ? this.#recorder.out(init.body, undefined, httpFrameHeaders(init.headers as HeaderSource)) : undefined;
    let res: Response;
    try {
      res = await this.#options.fetch(input, init);
    } catch (error) {
      if (init.signal?.aborted || this.#closing) throw error;
      const url = new URL(input instanceof Request ? input.url : input);
      const refused = await nameRefusal(error, url, this.#options.fetch);
      this.#console({ type: "error", step: refused instanceof DirectRefusedError && refused.reason === "cors" ? "cors" : "tcp", message: refused.message });
      if (method === "GET") this.#startFailure ??= refused;
      throw refused;
    }
    // An opaque redirect (status 0) has nothing to report; the SDK decides what to do with it.
    if (res.status === 0) return res;
    this.#console({ type: "http", status: res.status, headers: headerObject(res.headers) });
    return method === "POST" ? this.#posted(res, sent) : method === "GET" ? this.#opened(res) : res;
  };

  async #posted(res: Response, sent: unknown): Promise<Response> {
    if (!res.ok) {
      const body = (await bodyPreview(res)) ?? "";
      throw this.#fail("http", `http: the server answered ${res.status} ${res.statusText}`.trimEnd() + this.#sessionHint(res.status), res.status, body);
    }
    // A legacy SSE server answers POSTs with "Accepted"; its replies come on the event stream.
    if (this.#options.session.transport === "sse") return res;
    const type = mediaType(res.headers.get("content-type"));
    if (type === "text/event-stream" && res.body) return this.#observed(res, res.body);
    // The whole body: the SDK parses what is handed on, so nothing may be cut here.
    const text = await res.text();
    if (type === "application/json") {
      if (text.trim() !== "") this.#recorder.in(text, { status: res.status, ...withHeaders(res.headers) });
    } else if (text !== "") {
      const got = type === "" ? "no Content-Type" : JSON.stringify(type);
      const error = this.#fail("not-mcp", `not-mcp: a ${res.status} response should be application/json or text/event-stream, got ${got}`, res.status, text.slice(0, 4096));
      if (hasRequest(sent)) throw error;
    }
    return new Response(text === "" ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  /** After initialize, a 400 or 404 usually concerns the session: lost, or its id never reached the page. */
  #sessionHint(status: number): string {
    if ((status !== 400 && status !== 404) || this.#protocolVersion === undefined || !(this.#inner instanceof StreamableHTTPClientTransport)) return "";
    if (this.#inner.sessionId !== undefined) return status === 404 ? "; the server no longer knows this session (connect again)" : "";
    return "; no Mcp-Session-Id header reached this page: a server that keeps sessions must expose it (Access-Control-Expose-Headers), or use the relay";
  }

  async #opened(res: Response): Promise<Response> {
    const type = mediaType(res.headers.get("content-type"));
    if (res.ok && type === "text/event-stream" && res.body) return this.#observed(res, res.body);
    // Only the legacy transport needs its GET stream; Streamable HTTP servers may answer 405.
    if (this.#options.session.transport === "sse") {
      const body = (await bodyPreview(res.clone())) ?? "";
      const [step, message] = res.ok
        ? (["not-mcp", `not-mcp: the SSE stream should be text/event-stream, got ${type === "" ? "no Content-Type" : JSON.stringify(type)}`] as const)
        : (["http", `http: the server answered ${res.status} ${res.statusText} to the SSE stream request`.trimEnd()] as const);
      this.#startFailure ??= this.#fail(step, message, res.status, body);
    }
    return res;
  }

  #fail(step: "http" | "not-mcp", message: string, status: number, body: string): RelayError {
    this.#console({ type: "error", step, message, status, body });
    return new RelayError(step, message, { status, body });
  }

  /** The response with its body passed through unchanged, each event's data logged as it goes by. */
  #observed(res: Response, body: ReadableStream<Uint8Array>): Response {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const events = new SseSplitter();
    const status = res.status;
    const headers = withHeaders(res.headers);
    const stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (!this.#closing) {
            this.#console({ type: "error", step: "http", status, message: `http: the response stream broke off: ${(error as Error).message}` });
          }
          controller.error(error);
          return;
        }
        if (chunk.done) {
          for (const event of events.push(decoder.decode())) this.#event(event.event, event.data, { status, ...headers });
          const rest = events.finish();
          if (rest) this.#event(rest.event, rest.data, { status, ...headers, note: "the stream ended before this event was complete" });
          controller.close();
          return;
        }
        for (const event of events.push(decoder.decode(chunk.value, { stream: true }))) this.#event(event.event, event.data, { status, ...headers });
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(stream, { status, statusText: res.statusText, headers: res.headers });
  }

  #event(name: string, data: string, extra: FrameExtra): void {
    if (name === "endpoint") {
      try {
        this.#endpoint = new URL(data, this.#url);
      } catch {
        // The SDK reports an endpoint it cannot use.
      }
      return;
    }
    if ((name === "" || name === "message") && data !== "") this.#recorder.in(data, extra);
  }

  /** A raw send's answer: each JSON-RPC message to onmessage, anything else reported. */
  #deliver(text: string): void {
    if (text.trim() === "") return;
    deliverFrame(jsonOrUndefined(text), text, "frame", (message) => this.onmessage?.(message), (error) => this.onerror?.(error));
  }

  async #deliverStream(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const events = new SseSplitter();
    for (;;) {
      const { done, value } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const event of events.push(text)) if (event.event === "" || event.event === "message") this.#deliver(event.data);
      if (done) return;
    }
  }

  /** The SDK's own errors in plain words; our named failures pass through. */
  #explain(error: Error): Error {
    if (error instanceof RelayError) return error;
    if (error.name === "ZodError" || error instanceof SyntaxError) {
      return new NotJsonRpcError(`server sent a message that is not valid JSON-RPC 2.0 (the frame is in Traffic): ${preview(error.message)}`);
    }
    return error;
  }
}

/** A response's headers for its frames in the wire log (Content-Type, Mcp-Session-Id…). */
function withHeaders(headers: Headers): { headers?: Record<string, string[]> } {
  const recorded = httpFrameHeaders(headers);
  return recorded ? { headers: recorded } : {};
}

function hasRequest(value: unknown): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.some((m) => typeof m === "object" && m !== null && "method" in m && "id" in m);
}

