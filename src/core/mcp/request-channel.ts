/**
 * The console's own request path: each request it sends after connecting, its time limit
 * (extended by progress), its cancellation in the era's way, and its answer exactly as received.
 * The SDK client opens the connection and answers the server; this channel carries the console's
 * requests, so no answer is reshaped or refused before the page sees it (an invalid result, an
 * `input_required` or a task), and progress under any token reaches the caller.
 */
import { isJsonObject } from "../json/index.ts";
import { systemScheduler, type Scheduler } from "../env/scheduler.ts";
import { type Envelope, withEnvelope } from "./envelope.ts";
import { relayFailureOf } from "./relay-error.ts";
import { cancelled, closedBefore, McpRequestError, refusal, timedOut } from "./request-failure.ts";

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What the transport is given with a message: headers for its HTTP request, a signal that ends that request. */
export interface SendOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly requestSignal?: AbortSignal;
}

export type Send = (message: Record<string, unknown>, options?: SendOptions) => Promise<void>;

export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface ChannelRequestOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Progress for this request; its time limit starts again with each notification. */
  readonly onProgress?: (progress: Progress) => void;
  /** Extra HTTP headers for this request (the `Mcp-Param-*` of a tool call). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Told the request's JSON-RPC id as it goes out, so its frames can be found. */
  readonly onSent?: (id: number) => void;
}

export interface ChannelDeps {
  readonly send: Send;
  /** The envelope for modern-era requests; undefined on a legacy connection. */
  readonly envelope: () => Envelope | undefined;
  /** True when closing a request's own HTTP stream cancels it (2026-07-28 over Streamable HTTP). */
  readonly perRequestStream: () => boolean;
  readonly scheduler?: Scheduler;
  /** The first id this channel uses; the SDK numbers its own handshake from 0. */
  readonly firstId?: number;
}

interface Pending {
  readonly method: string;
  readonly timeoutMs: number;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly token: string | number | undefined;
  settle(outcome: { result: unknown } | { error: McpRequestError }): void;
  restartTimer(): void;
}

export class RequestChannel {
  readonly #deps: ChannelDeps;
  readonly #scheduler: Scheduler;
  readonly #pending = new Map<number, Pending>();
  readonly #byToken = new Map<string, number>();
  #nextId: number;
  #closed = false;

  constructor(deps: ChannelDeps) {
    this.#deps = deps;
    this.#scheduler = deps.scheduler ?? systemScheduler();
    this.#nextId = deps.firstId ?? 1;
  }

  /** Requests sent and not yet answered. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Sends one request; resolves with its id and its result as received, or rejects with an McpRequestError. */
  exchange(method: string, params: Record<string, unknown> | undefined, options: ChannelRequestOptions = {}): Promise<{ readonly id: number; readonly result: unknown }> {
    if (this.#closed) return Promise.reject(new McpRequestError(method, "connection-closed", `${method} was not sent: the connection is closed`));
    const id = this.#nextId++;
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(cancelled(method, String(signal.reason ?? "aborted")));
    const ownMeta = isJsonObject(params?._meta) ? params._meta : undefined;
    const givenToken = ownMeta?.progressToken;
    const token = typeof givenToken === "string" || typeof givenToken === "number" ? givenToken : options.onProgress ? id : undefined;
    let body = params;
    if (options.onProgress && givenToken === undefined) body = { ...params, _meta: { ...ownMeta, progressToken: id } };
    const envelope = this.#deps.envelope();
    if (envelope) body = withEnvelope(body, envelope);
    const message = { jsonrpc: "2.0", id, method, ...(body !== undefined ? { params: body } : {}) };
    const requestAbort = envelope && this.#deps.perRequestStream() ? new AbortController() : undefined;

    return new Promise((resolve, reject) => {
      let stopTimer: (() => void) | undefined;
      const cleanup = () => {
        stopTimer?.();
        signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
        if (token !== undefined) this.#byToken.delete(tokenKey(token));
      };
      const giveUp = (error: McpRequestError, reason: string) => {
        cleanup();
        this.#cancelOnWire(id, reason, requestAbort);
        reject(error);
      };
      const onAbort = () => giveUp(cancelled(method, String(signal?.reason ?? "aborted")), String(signal?.reason ?? "aborted"));
      const restartTimer = () => {
        stopTimer?.();
        stopTimer = this.#scheduler.after(timeoutMs, () => giveUp(timedOut(method, timeoutMs), `timed out: no answer within ${timeoutMs} ms`));
      };
      this.#pending.set(id, {
        method,
        timeoutMs,
        onProgress: options.onProgress,
        token,
        restartTimer,
        settle: (outcome) => {
          cleanup();
          if ("error" in outcome) reject(outcome.error);
          else resolve({ id, result: outcome.result });
        },
      });
      if (token !== undefined) this.#byToken.set(tokenKey(token), id);
      signal?.addEventListener("abort", onAbort, { once: true });
      restartTimer();
      options.onSent?.(id);
      this.#deps
        .send(message, { ...(options.headers ? { headers: options.headers } : {}), ...(requestAbort ? { requestSignal: requestAbort.signal } : {}) })
        .catch((error: unknown) => {
          if (!this.#pending.has(id)) return;
          cleanup();
          // The transport's own error says best why the request never left (a RelayError names its step).
          reject(error instanceof Error ? error : new McpRequestError(method, "relay-failure", `${method} was not sent: ${String(error)}`));
        });
    });
  }

  /** Sends one notification, enveloped on a modern connection. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const envelope = this.#deps.envelope();
    const body = envelope ? withEnvelope(params, envelope) : params;
    await this.#deps.send({ jsonrpc: "2.0", method, ...(body !== undefined ? { params: body } : {}) });
  }

  /**
   * Offers a message the server sent: an answer to one of this channel's requests, or progress
   * under one of their tokens, is taken (true); anything else is left to the caller (false).
   */
  receive(message: unknown): boolean {
    if (!isJsonObject(message)) return false;
    if (message.method === "notifications/progress") return this.#progress(message.params);
    if ("method" in message || typeof message.id !== "number" || !("result" in message || "error" in message)) return false;
    const pending = this.#pending.get(message.id);
    if (!pending) return false;
    if ("error" in message && isJsonObject(message.error)) {
      const e = message.error;
      const error = { code: typeof e.code === "number" ? e.code : NaN, message: typeof e.message === "string" ? e.message : JSON.stringify(e.message ?? null), ...("data" in e ? { data: e.data } : {}) };
      pending.settle({ error: refusal(pending.method, error, relayFailureOf(e.data)) });
    } else if ("error" in message) {
      pending.settle({ error: refusal(pending.method, { code: NaN, message: `an error answer that is not an object: ${JSON.stringify(message.error)}` }, undefined) });
    } else pending.settle({ result: message.result });
    return true;
  }

  #progress(params: unknown): boolean {
    if (!isJsonObject(params)) return false;
    const token = params.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return false;
    const id = this.#byToken.get(tokenKey(token));
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (!pending?.onProgress || typeof params.progress !== "number") return false;
    pending.restartTimer();
    pending.onProgress({
      progress: params.progress,
      ...(typeof params.total === "number" ? { total: params.total } : {}),
      ...(typeof params.message === "string" ? { message: params.message } : {}),
    });
    return true;
  }

  /** Cancelling over a per-request stream closes that stream; otherwise the server is told with notifications/cancelled. */
  #cancelOnWire(id: number, reason: string, requestAbort: AbortController | undefined): void {
    if (this.#closed) return;
    if (requestAbort) return requestAbort.abort(reason);
    void this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => undefined);
  }

  /** Fails every request still waiting: the connection is gone. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) pending.settle({ error: closedBefore(pending.method) });
  }
}

const tokenKey = (token: string | number) => `${typeof token}:${token}`;
