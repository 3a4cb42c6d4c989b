import { type JSONRPCMessage, type TransportSendOptions } from "@modelcontextprotocol/client";
import { jsonOrUndefined } from "../json/index.ts";
import type { Clock, IdSource } from "../env/environment.ts";
import { httpFrameHeaders } from "../wire/http-headers.ts";
import type { WireLog } from "../wire/wire-log.ts";
import { FrameRecorder } from "./frame-recorder.ts";
import { deliverFrame } from "./incoming-frame.ts";
import type { McpTransport } from "./mcp-transport.ts";
import { standardHeaders } from "./modern-headers.ts";
import { LineSplitter } from "../framing/line-splitter.ts";
import { type CreateSessionBody, parseRelayEvent, type RelayConsoleEvent, sessionTarget } from "./relay-api.ts";
import { bodyPreview, RELAY_FAILURE_CODE, type RelayFailureDetail, RelayError, relayErrorMessage, relayErrorOf } from "./relay-error.ts";

export interface RelayTransportOptions {
  readonly fetch: typeof fetch;
  /** The backend's origin, e.g. `http://127.0.0.1:8080`; routes live under `/api/mcp`. */
  readonly baseUrl: string;
  readonly token: string;
  /** A session to create, or one that exists (then `target` names it in the log). */
  readonly session: CreateSessionBody | { readonly id: string; readonly target?: string };
  readonly wireLog: WireLog;
  readonly clock: Clock;
  /** Correlates frames that carry no JSON-RPC id (notifications, raw text). */
  readonly ids: IdSource;
  /** stderr lines, HTTP statuses, relay errors and the close, for the console pane. */
  readonly onConsole?: (event: RelayConsoleEvent) => void;
}

/**
 * The MCP client transport over the backend relay: one relay session, its NDJSON event stream
 * for what the server says, and a POST per message sent, with the message's `Mcp-*` headers for
 * the relay to send upstream. Every frame is logged verbatim.
 */
export class RelayTransport implements McpTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: RelayTransportOptions;
  readonly #recorder: FrameRecorder;
  readonly #abort = new AbortController();
  #relayId: string | undefined;
  #target: string;
  #lastStatus: number | undefined;
  #lastHeaders: Record<string, string[]> | undefined;
  #closed = false;
  #closedReason: string | undefined;
  // Requests sent through send() and not yet answered, keyed by type and value of the id, so a
  // relay failure that names them fails them at once instead of leaving them to time out.
  readonly #pending = new Map<string, string | number>();

  constructor(options: RelayTransportOptions) {
    this.#options = options;
    const session = options.session;
    this.#target = "id" in session ? (session.target ?? `relay:${session.id}`) : sessionTarget(session);
    this.#recorder = new FrameRecorder(options.wireLog, options.clock, options.ids, () => this.#target);
  }

  /** Over Streamable HTTP each request is its own upstream POST, which the relay can close (2026-07-28 cancellation). */
  get hasPerRequestStream(): boolean {
    const session = this.#options.session;
    return "transport" in session && session.transport === "streamable-http";
  }

  get channelKind(): "stdio" | "http" {
    const session = this.#options.session;
    return "transport" in session && session.transport === "stdio" ? "stdio" : "http";
  }

  /** The relay's id for this session, once started. Not `sessionId`: the SDK would skip initialize. */
  get relaySessionId(): string | undefined {
    return this.#relayId;
  }

  get target(): string {
    return this.#target;
  }

  /** Why the relay ended the session, once it said so. */
  get closedReason(): string | undefined {
    return this.#closedReason;
  }

  async start(): Promise<void> {
    if (this.#relayId !== undefined) throw new Error("RelayTransport already started");
    const session = this.#options.session;
    if ("id" in session) this.#relayId = session.id;
    else {
      const res = await this.#post("/api/mcp/sessions", JSON.stringify(session), "create-session");
      const body = await bodyPreview(res);
      const id = parseId(body);
      if (res.status !== 201 || id === undefined) {
        // A command that cannot start is the user's to fix, not the relay's: its words alone.
        const spawn = relayErrorOf(body);
        if (spawn?.code === "spawn_failed") throw new RelayError("spawn", spawn.message);
        const step = res.status === 502 ? "spawn" : "create-session";
        throw new RelayError(step, `relay could not create the session (HTTP ${res.status}): ${relayErrorMessage(body)}`, { status: res.status, ...(body !== undefined ? { body } : {}) });
      }
      this.#relayId = id;
    }
    const stream = await this.#post(`${this.#sessionPath()}/stream`, undefined, "open-stream", this.#abort.signal);
    const type = stream.headers.get("content-type") ?? "";
    if (stream.status !== 200 || !type.toLowerCase().startsWith("application/x-ndjson") || !stream.body) {
      const body = await bodyPreview(stream);
      const why = stream.status !== 200 ? `HTTP ${stream.status}` : `Content-Type ${type || "missing"}, not application/x-ndjson`;
      // A session this transport created would otherwise hold a relay slot (and a child process) until the backend stops.
      if (!("id" in session)) await this.#post(`${this.#sessionPath()}/close`, undefined, "send").catch(() => undefined);
      throw new RelayError("open-stream", `relay could not open the event stream (${why}): ${relayErrorMessage(body)}`, { status: stream.status, ...(body !== undefined ? { body } : {}) });
    }
    void this.#read(stream.body);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = "method" in message && "id" in message ? message.id : undefined;
    if (id !== undefined) this.#pending.set(idKey(id), id);
    const signal = options?.requestSignal;
    if (id !== undefined && signal) signal.addEventListener("abort", () => void this.#abortRequest(id), { once: true });
    await this.#deliver(JSON.stringify(message), { ...standardHeaders(message), ...options?.headers });
  }

  /** Sends any text as one message, valid JSON-RPC or not (raw mode); an enveloped request gets its Mcp-* headers. */
  async sendRaw(text: string): Promise<void> {
    await this.#deliver(text, standardHeaders(jsonOrUndefined(text)));
  }

  async #deliver(text: string, mcpHeaders: Readonly<Record<string, string>>): Promise<void> {
    if (this.#relayId === undefined) throw new Error("RelayTransport is not started");
    if (this.#closed) throw new RelayError("send", "the relay session is closed");
    const forward = this.channelKind === "http" ? mcpHeaders : {};
    this.#recorder.out(text, undefined, httpFrameHeaders(forward));
    const res = await this.#post(`${this.#sessionPath()}/messages`, text, "send", undefined, forward);
    if (res.status !== 202) {
      const body = await bodyPreview(res);
      throw new RelayError("send", `relay refused the message (HTTP ${res.status}): ${relayErrorMessage(body)}`, { status: res.status, ...(body !== undefined ? { body } : {}) });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const id = this.#relayId;
    try {
      if (id !== undefined) await this.#post(`${this.#sessionPath()}/close`, undefined, "send");
    } catch (err) {
      this.onerror?.(err as Error);
    } finally {
      this.#finish();
    }
  }

  #sessionPath(): string {
    return `/api/mcp/sessions/${encodeURIComponent(this.#relayId ?? "")}`;
  }

  /** Asks the relay to close the upstream request that carries `id`: how 2026-07-28 cancels over HTTP. */
  async #abortRequest(id: string | number): Promise<void> {
    if (this.#closed || this.#relayId === undefined) return;
    await this.#post(`${this.#sessionPath()}/abort`, JSON.stringify({ requestId: id }), "send").then(
      (res) => res.body?.cancel(),
      (err: unknown) => this.onerror?.(err as Error),
    );
  }

  async #post(path: string, body: string | undefined, step: "create-session" | "open-stream" | "send", signal?: AbortSignal, extra: Readonly<Record<string, string>> = {}): Promise<Response> {
    const headers: Record<string, string> = { ...extra, authorization: `Bearer ${this.#options.token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      return await this.#options.fetch(new URL(path, this.#options.baseUrl), { method: "POST", headers, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
    } catch (err) {
      throw new RelayError(step === "send" ? "send" : "relay-unreachable", `backend relay at ${this.#options.baseUrl} did not answer: ${(err as Error).message}`);
    }
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const lines = new LineSplitter();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const line of lines.push(decoder.decode(value, { stream: true }))) this.#line(line);
        if (this.#closed) return;
      }
      for (const line of lines.push(decoder.decode())) this.#line(line);
      for (const line of lines.finish()) this.#line(line);
      if (!this.#closed) {
        this.onerror?.(new RelayError("stream", "relay event stream ended without a closed event"));
        this.#finish();
      }
    } catch (err) {
      if (this.#closed) return;
      const message = err instanceof RangeError ? err.message : `relay event stream broke: ${(err as Error).message}`;
      this.onerror?.(new RelayError("stream", message));
      this.#finish();
    } finally {
      reader.releaseLock();
    }
  }

  #line(line: string): void {
    if (this.#closed) return;
    const event = parseRelayEvent(line);
    if ("problem" in event) {
      this.onerror?.(new RelayError("stream", event.problem));
      return;
    }
    if (event.type === "message") this.#message(event.text);
    else this.#console(event);
  }

  #message(text: string): void {
    const value = this.#recorder.in(text, { ...(this.#lastStatus !== undefined ? { status: this.#lastStatus } : {}), ...(this.#lastHeaders ? { headers: this.#lastHeaders } : {}) });
    const source = "transport" in this.#options.session && this.#options.session.transport === "stdio" ? "stdout" : "frame";
    const answered = (message: JSONRPCMessage) => {
      if (!("method" in message) && "id" in message && message.id !== undefined) this.#pending.delete(idKey(message.id));
      this.onmessage?.(message);
    };
    deliverFrame(value, text, source, answered, (error) => this.onerror?.(error));
  }

  #console(event: RelayConsoleEvent): void {
    this.#options.onConsole?.(event);
    if (event.type === "http") {
      this.#lastStatus = event.status;
      this.#lastHeaders = httpFrameHeaders(event.headers);
    }
    else if (event.type === "error") {
      const status = event.status ?? (event.step === "http" ? this.#lastStatus : undefined);
      const detail = status !== undefined ? ` (HTTP ${status})` : "";
      const message = `${event.step} step failed${detail}: ${event.message}`;
      this.onerror?.(new RelayError(event.step, message, { ...(status !== undefined ? { status } : {}), ...(event.body !== undefined ? { body: event.body } : {}) }));
      for (const id of event.requestIds ?? []) this.#failRequest(id, message, { step: event.step, ...(status !== undefined ? { status } : {}), ...(event.body !== undefined ? { body: event.body } : {}) });
    } else if (event.type === "closed") {
      const code = event.code !== undefined && !event.reason.includes(`code ${event.code}`) ? ` (code ${event.code})` : "";
      this.#closedReason = `${event.reason}${code}`;
      this.#finish();
    }
  }

  /**
   * Answers a request the relay could not deliver or get answered. Not logged: it never crossed
   * the wire. `data.relayFailure` tells it apart from an error the server sent.
   */
  #failRequest(id: string | number, message: string, relayFailure: RelayFailureDetail): void {
    const key = idKey(id);
    if (!this.#pending.has(key)) return;
    this.#pending.delete(key);
    this.onmessage?.({ jsonrpc: "2.0", id, error: { code: RELAY_FAILURE_CODE, message, data: { relayFailure } } });
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    this.onclose?.();
  }
}

function idKey(id: string | number): string {
  return `${typeof id}:${id}`;
}

function parseId(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    const value = JSON.parse(body) as { id?: unknown };
    return typeof value.id === "string" && value.id !== "" ? value.id : undefined;
  } catch {
    return undefined;
  }
}
