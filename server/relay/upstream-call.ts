/**
 * One upstream HTTP exchange of a relay session, held to the session's limits: a deadline for the
 * response headers, an idle deadline while the body comes, a size cap per message, and no
 * redirect followed off the origin (the request carries the user's headers, credentials included).
 */
import { BODY_PREVIEW_BYTES, connectFailure } from "./http-failure.ts";
import type { RelayLimits } from "./relay-limits.ts";
import { type SseEvent, SseReader } from "./sse-parser.ts";
import type { RelayStep } from "../../src/core/mcp/relay-api.ts";

/** Why a call was cut short by the relay itself; "aborted" is the client's own cancellation. */
export type CutReason = "closed" | "aborted" | "headers" | "idle" | "size";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Only these keep method and body, so only these are followed (and only on the same origin). */
const FOLLOWED = new Set([307, 308]);
const MAX_HOPS = 5;

export class UpstreamCall {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal;
  readonly #onParentAbort = () => this.cut("closed");
  #why: CutReason | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deadlineMs = 0;
  #lastProgress = 0;
  #timerWhy: CutReason = "idle";
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  /** Aborted with the session (`parent`), or by its own deadlines. */
  constructor(parent: AbortSignal) {
    this.#parent = parent;
    if (parent.aborted) this.#why = "closed";
    parent.addEventListener("abort", this.#onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Set once the relay cut the call short. */
  get why(): CutReason | undefined {
    return this.#why ?? (this.#parent.aborted ? "closed" : undefined);
  }

  cut(why: CutReason): void {
    if (this.#why !== undefined) return;
    this.#why = why;
    this.#clear();
    this.#controller.abort(new Error(`cut: ${why}`));
    // Aborting the fetch does not end every body source; cancelling the reader does.
    void this.#reader?.cancel().catch(() => {});
  }

  /** Cut the call with `why` unless `progress()` is called at least every `ms`. */
  deadline(ms: number, why: CutReason): void {
    this.#clear();
    this.#deadlineMs = ms;
    this.#timerWhy = why;
    this.#lastProgress = performance.now();
    this.#schedule(ms);
  }

  /** The stream moved: the idle deadline starts over (cheaply: the timer is only re-armed when it fires). */
  progress(): void {
    this.#lastProgress = performance.now();
  }

  noDeadline(): void {
    this.#clear();
  }

  /** The reader of the body, so that cutting the call ends the read. */
  reading(reader: ReadableStreamDefaultReader<Uint8Array>): void {
    this.#reader = reader;
    if (this.#why !== undefined) void reader.cancel().catch(() => {});
  }

  dispose(): void {
    this.#clear();
    this.#parent.removeEventListener("abort", this.#onParentAbort);
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      const quiet = performance.now() - this.#lastProgress;
      if (quiet >= this.#deadlineMs) this.cut(this.#timerWhy);
      else this.#schedule(this.#deadlineMs - quiet);
    }, Math.max(1, Math.ceil(ms)));
    this.#timer.unref?.();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

export interface UpstreamRequest {
  readonly method: "GET" | "POST" | "DELETE";
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array<ArrayBuffer>;
}

/** Send a request; same-origin 307/308 are followed, every other redirect comes back as it is. */
export async function upstreamFetch(url: URL, request: UpstreamRequest, call: UpstreamCall, headersTimeoutMs: number): Promise<Response> {
  call.deadline(headersTimeoutMs, "headers");
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { ...request, redirect: "manual", signal: call.signal });
    const next = FOLLOWED.has(res.status) && hop < MAX_HOPS ? locationOf(res, current) : undefined;
    if (next === undefined || next.origin !== current.origin) {
      call.noDeadline();
      return res;
    }
    await res.body?.cancel().catch(() => {});
    current = next;
  }
}

function locationOf(res: Response, base: URL): URL | undefined {
  const location = res.headers.get("location");
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** For a redirect the relay did not follow: why, and where it pointed. */
export function redirectRefusal(res: Response, url: URL): string | undefined {
  if (!REDIRECTS.has(res.status)) return undefined;
  const target = locationOf(res, url);
  if (target === undefined) return `http: the server answered ${res.status} without a usable Location`;
  const where = `${target.origin}${target.pathname}`;
  if (target.origin !== url.origin) {
    return `http: the server redirected (${res.status}) to ${where}, another origin; not followed, since the request carries your headers. Connect to that URL if you trust it`;
  }
  return `http: the server redirected (${res.status}) to ${where}; only 307/308 redirects keep the request as sent, so it was not followed. Connect to that URL instead`;
}

/** The failed step of a fetch that threw: the relay's own deadline, or the network's. */
export function callFailure(err: unknown, call: UpstreamCall, url: URL, limits: RelayLimits): { step: RelayStep; message: string } | undefined {
  if (call.why === "closed" || call.why === "aborted") return undefined;
  if (call.why === "headers") {
    return { step: "http", message: `http: no response headers from ${url.host} within ${limits.headersTimeoutMs} ms (headersTimeoutMs)` };
  }
  return connectFailure(err, url);
}

export interface BodyText {
  readonly text: string;
  readonly invalidUtf8: boolean;
}

const fatal = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

export function decodeText(bytes: Uint8Array): BodyText {
  try {
    return { text: fatal.decode(bytes), invalidUtf8: false };
  } catch {
    return { text: lossy.decode(bytes), invalidUtf8: true };
  }
}

/**
 * A whole (non-stream) body, which must end within the idle limit and stay within the size cap;
 * `oversize` holds the bytes seen when it did not. Rejects when the body breaks.
 */
export async function readWhole(res: Response, call: UpstreamCall, limits: RelayLimits): Promise<BodyText | { oversize: number }> {
  if (res.body === null) return { text: "", invalidUtf8: false };
  call.deadline(limits.idleTimeoutMs, "idle");
  const reader = res.body.getReader();
  call.reading(reader);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limits.maxMessageBytes) {
        call.cut("size");
        return { oversize: size };
      }
      chunks.push(value);
    }
  } finally {
    call.noDeadline();
    reader.releaseLock();
  }
  if (call.why !== undefined) throw new Error(`cut: ${call.why}`);
  return decodeText(Buffer.concat(chunks));
}

/** The start of a body for an error report, bounded; the rest is not read. */
export async function previewOf(res: Response, call: UpstreamCall, limits: RelayLimits): Promise<string> {
  if (res.body === null) return "";
  call.deadline(limits.idleTimeoutMs, "idle");
  const reader = res.body.getReader();
  call.reading(reader);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_PREVIEW_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // What arrived before the failure is still worth showing.
  } finally {
    call.noDeadline();
    void reader.cancel().catch(() => {});
  }
  return lossy.decode(Buffer.concat(chunks).subarray(0, BODY_PREVIEW_BYTES));
}

export interface StreamHooks {
  readonly onEvent: (event: SseEvent) => void;
  readonly onRetry?: (ms: number) => void;
  readonly onOversize?: (bytes: number) => void;
  /** Whether a quiet stream is cut at the idle limit (the standalone GET stream may stay quiet). */
  readonly idle: boolean;
}

/** Read an event stream to its end; resolves when it ends or is cut (see `call.why`), rejects when it breaks. */
export async function readStream(res: Response, call: UpstreamCall, limits: RelayLimits, hooks: StreamHooks): Promise<void> {
  if (res.body === null) return;
  if (hooks.idle) call.deadline(limits.idleTimeoutMs, "idle");
  const parser = new SseReader(hooks.onEvent, {
    maxEventBytes: limits.maxMessageBytes,
    onLine: () => call.progress(),
    ...(hooks.onRetry ? { onRetry: hooks.onRetry } : {}),
    ...(hooks.onOversize ? { onOversize: hooks.onOversize } : {}),
  });
  const reader = res.body.getReader();
  call.reading(reader);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    if (call.why === undefined) parser.end();
  } finally {
    call.noDeadline();
    reader.releaseLock();
  }
}
