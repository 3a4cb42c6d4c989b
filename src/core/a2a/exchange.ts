/**
 * One HTTP exchange with an A2A agent over an injected fetch: the request and every answer
 * frame (the JSON body, or each SSE event) recorded verbatim before it is parsed, then read
 * into events and folded into tasks. Failures are named: network, time limit, HTTP error,
 * HTML or other non-JSON, garbage in a stream, a stream that stops before its end.
 */
import { SseSplitter } from "../framing/sse-splitter.ts";
import type { WireFrameInput } from "../wire/index.ts";
import type { Binding, Dialect } from "./dialect.ts";
import { nameRestError, type NamedError } from "./errors.ts";
import { readAnswer, type A2aEvent } from "./events.ts";
import type { HttpRequestSpec } from "./requests.ts";
import { TaskFold, type StreamEnd } from "./task-fold.ts";

/** fetch as the browser and Node have it; the backend relay offers the same shape. */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; redirect?: "manual" }) => Promise<Response>;

export interface ExchangePorts {
  readonly fetch: FetchLike;
  /** Every frame, as it crossed; called before anything parses it. */
  readonly record?: (frame: WireFrameInput) => void;
  /** Monotonic milliseconds. */
  readonly now: () => number;
}

export interface ExchangeLimits {
  /** From sending to the response headers. */
  readonly headersMs: number;
  /** The longest a body may go without a complete frame. */
  readonly idleMs: number;
}

export const DEFAULT_EXCHANGE_LIMITS: ExchangeLimits = { headersMs: 30_000, idleMs: 120_000 };

export interface AnswerFrame {
  /** Milliseconds since the request was sent. */
  readonly at: number;
  /** The HTTP status of the response it came in. */
  readonly status: number;
  readonly text: string;
  /** The SSE event name, for stream frames. */
  readonly sseEvent?: string;
  readonly event: A2aEvent | undefined;
  /** Why the text could not be read as JSON. */
  readonly problem?: string;
}

export type FailureKind = "network" | "headers-timeout" | "idle-timeout" | "aborted" | "http" | "not-json" | "stream-broken" | "redirect";

export interface ExchangeFailure {
  readonly kind: FailureKind;
  readonly message: string;
  readonly error?: NamedError;
}

export interface ExchangeResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly frames: readonly AnswerFrame[];
  readonly fold: TaskFold;
  readonly streamEnd?: StreamEnd;
  readonly failure?: ExchangeFailure;
  readonly elapsedMs: number;
}

const headerRecord = (h: Headers): Record<string, string> => Object.fromEntries([...h.entries()]);
const toWireHeaders = (h: Readonly<Record<string, string>>): Record<string, string[]> => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), [v]]));
const encoder = new TextEncoder();

/** Redacted for the log: a credential in the Traffic view is a secret left on screen. */
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "api-key", "cookie", "proxy-authorization"]);
export function redactHeaders(h: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? "[redacted]" : v]));
}

function looksLikeHtml(text: string, type: string): boolean {
  return type.includes("text/html") || /^\s*<(!doctype|html|head|body)/i.test(text);
}

export interface ExchangeOptions {
  readonly dialect: Dialect | undefined;
  readonly binding: Binding;
  readonly limits?: ExchangeLimits;
  readonly signal?: AbortSignal;
  /** Each frame as it arrives, for a live timeline. */
  readonly onFrame?: (frame: AnswerFrame) => void;
  /** Ties the frames of one exchange together in the log. */
  readonly correlationId?: string;
}

/** Sends `spec` and reads the whole answer, stream or not. Never throws for what the agent did. */
export async function exchange(ports: ExchangePorts, spec: HttpRequestSpec, options: ExchangeOptions): Promise<ExchangeResult> {
  const limits = options.limits ?? DEFAULT_EXCHANGE_LIMITS;
  const start = ports.now();
  const fold = new TaskFold(options.dialect);
  const frames: AnswerFrame[] = [];
  const corr = options.correlationId;
  const base = { channel: "a2a-http" as const, target: spec.url, ...(corr !== undefined ? { correlationId: corr } : {}) };
  ports.record?.({ ...base, direction: "out", headers: toWireHeaders(redactHeaders({ ...spec.headers, ":method": spec.method })), bytes: encoder.encode(spec.body ?? "") });

  const controller = new AbortController();
  let cut: FailureKind | undefined;
  let reader: ReadableStreamDefaultReader<string> | undefined;
  // Aborting the fetch does not end every body source (a relayed one, say); cancelling the reader does.
  const stop = (why: FailureKind) => {
    cut ??= why;
    controller.abort();
    void reader?.cancel().catch(() => {});
  };
  const onAbort = () => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer = setTimeout(() => stop("headers-timeout"), limits.headersMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop("idle-timeout"), limits.idleMs);
  };
  const done = (r: Omit<ExchangeResult, "fold" | "frames" | "elapsedMs">): ExchangeResult => {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    return { ...r, fold, frames, elapsedMs: ports.now() - start };
  };
  const cutMessage = (kind: FailureKind): string =>
    kind === "headers-timeout" ? `no response within ${limits.headersMs} ms` : kind === "idle-timeout" ? `nothing arrived for ${limits.idleMs} ms` : "stopped by you";

  let res: Response;
  try {
    res = await ports.fetch(spec.url, { method: spec.method, headers: { ...spec.headers }, ...(spec.body !== undefined ? { body: spec.body } : {}), signal: controller.signal, redirect: "manual" });
  } catch (err) {
    const kind = cut ?? "network";
    return done({ status: 0, headers: {}, failure: { kind, message: kind === "network" ? `could not reach ${spec.url}: ${(err as Error).message}` : cutMessage(kind) } });
  }
  rearm();
  const headers = headerRecord(res.headers);
  const type = (headers["content-type"] ?? "").toLowerCase();
  const push = (text: string, sseEvent: string | undefined) => {
    const at = ports.now() - start;
    ports.record?.({ ...base, direction: "in", headers: toWireHeaders(headers), bytes: encoder.encode(text), status: res.status, rttMs: at });
    let frame: AnswerFrame;
    try {
      const value: unknown = JSON.parse(text);
      const event = readAnswer(value, options.dialect, options.binding);
      fold.add(event, at);
      frame = { at, status: res.status, text, ...(sseEvent !== undefined ? { sseEvent } : {}), event };
    } catch (err) {
      frame = { at, status: res.status, text, ...(sseEvent !== undefined ? { sseEvent } : {}), event: undefined, problem: `not JSON: ${(err as Error).message}` };
    }
    frames.push(frame);
    options.onFrame?.(frame);
    return frame;
  };

  if (res.status === 0 || (res.status >= 300 && res.status < 400)) {
    const where = headers.location ? ` to ${headers.location}` : "";
    return done({ status: res.status, headers, failure: { kind: "redirect", message: `the agent redirected${where}; redirects are not followed (the request carries your headers)` } });
  }
  try {
    if (type.includes("text/event-stream") && res.body) {
      const splitter = new SseSplitter();
      reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        rearm();
        for (const e of splitter.push(value)) if (e.data !== "") push(e.data, e.event || undefined);
      }
      const tail = splitter.finish();
      const streamEnd = fold.end;
      if (cut !== undefined) return done({ status: res.status, headers, streamEnd, failure: { kind: cut, message: cutMessage(cut) } });
      if (tail) {
        // An event without its closing blank line is incomplete: kept in the log, never read.
        ports.record?.({ ...base, direction: "in", headers: toWireHeaders(headers), bytes: encoder.encode(tail.data), status: res.status, note: "incomplete SSE event" });
        return done({ status: res.status, headers, streamEnd, failure: { kind: "stream-broken", message: "the stream stopped in the middle of an event" } });
      }
      const bad = frames.find((f) => f.problem !== undefined);
      if (bad) return done({ status: res.status, headers, streamEnd, failure: { kind: "not-json", message: `the stream carried an event that is not JSON (${bad.problem})` } });
      if (streamEnd === "open") return done({ status: res.status, headers, streamEnd, failure: { kind: "stream-broken", message: "the stream ended before the task reached a final, terminal or interrupted state; resubscribe to follow it" } });
      return done({ status: res.status, headers, streamEnd });
    }
    const text = await res.text();
    if (cut !== undefined) return done({ status: res.status, headers, failure: { kind: cut, message: cutMessage(cut) } });
    if (text === "" && res.status < 400) return done({ status: res.status, headers, failure: { kind: "not-json", message: `HTTP ${res.status} with an empty body` } });
    if (looksLikeHtml(text, type)) {
      ports.record?.({ ...base, direction: "in", headers: toWireHeaders(headers), bytes: encoder.encode(text), status: res.status, rttMs: ports.now() - start });
      return done({ status: res.status, headers, failure: { kind: "not-json", message: `HTTP ${res.status}: the answer is an HTML page, not JSON (is this the agent's URL?)` } });
    }
    const frame = push(text, undefined);
    if (res.status >= 400) {
      const auth = headers["www-authenticate"];
      const value = frame.event?.raw;
      const error = frame.event?.kind === "error" ? frame.event.error : nameRestError(res.status, value, text);
      const hint = res.status === 401 ? `; the agent wants credentials${auth ? ` (WWW-Authenticate: ${auth})` : ""}` : "";
      const named = error.name === `HTTP ${res.status}` ? `HTTP ${res.status}` : `HTTP ${res.status} ${error.name}`;
      return done({ status: res.status, headers, failure: { kind: "http", message: `${named}${error.message ? `: ${error.message}` : ""}${hint}`, error } });
    }
    if (frame.problem !== undefined) return done({ status: res.status, headers, failure: { kind: "not-json", message: `the answer is ${frame.problem}` } });
    return done({ status: res.status, headers });
  } catch (err) {
    const kind = cut ?? "stream-broken";
    return done({ status: res.status, headers, streamEnd: fold.end, failure: { kind, message: kind === "stream-broken" ? `the body broke off: ${(err as Error).message}` : cutMessage(kind) } });
  }
}
