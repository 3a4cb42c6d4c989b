/**
 * A Streamable HTTP GET stream: the standalone one, on which the server sends what belongs to no
 * request (list_changed, log messages, its own requests), or a resumption of a response stream
 * that broke (Last-Event-ID). Dropped streams are reopened from the last event id, with bounded
 * retries and growing delays.
 */
import { mediaType } from "../relay/http-failure.ts";
import type { RelayLimits } from "../relay/relay-limits.ts";
import { callFailure, previewOf, readStream, redirectRefusal, UpstreamCall, upstreamFetch } from "../relay/upstream-call.ts";

/** Consecutive failed attempts before giving up. */
export const GET_RETRIES = 5;
export const FIRST_DELAY_MS = 500;
export const MAX_DELAY_MS = 30_000;
/** A stream that delivered an event or stayed open this long was a success: the retry count starts over. */
const HEALTHY_MS = 10_000;

export type GetStreamEnd =
  | { readonly kind: "done" }
  | { readonly kind: "stopped" }
  /** 405: the server offers no GET stream. */
  | { readonly kind: "unsupported" }
  /** 404 on a request that carried the session id. */
  | { readonly kind: "expired"; readonly status: number; readonly body: string }
  | { readonly kind: "gave-up"; readonly problem: string }
  | { readonly kind: "refused"; readonly problem: string };

export interface GetStreamOptions {
  readonly url: URL;
  readonly limits: RelayLimits;
  /** The session's signal: aborting it ends the stream. */
  readonly signal: AbortSignal;
  /** Headers for the next attempt (user headers, session id, version); undefined once the session is gone. */
  readonly headers: () => Record<string, string> | undefined;
  /** Resume after this event id (a broken response stream); absent for the standalone stream. */
  readonly lastEventId?: string;
  /** "GET stream" or "resumed stream": how notes name it. */
  readonly label: string;
  readonly onMessage: (text: string, invalidUtf8: boolean) => void;
  readonly onOversize: (bytes: number) => void;
  readonly note: (text: string) => void;
  /** For a resumption: true once every request it waits for is answered, which ends it. */
  readonly done?: () => boolean;
  /** The first reconnection delay, doubled per failure in a row (a `retry:` field replaces it). */
  readonly firstDelayMs?: number;
}

export interface GetStream {
  stop(): void;
  readonly ended: Promise<GetStreamEnd>;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    timer.unref?.();
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    }
    signal.addEventListener("abort", finish, { once: true });
  });
}

export function openGetStream(options: GetStreamOptions): GetStream {
  const { url, limits, label } = options;
  const own = new AbortController();
  const stopOn = () => own.abort();
  options.signal.addEventListener("abort", stopOn, { once: true });
  if (options.signal.aborted) own.abort();
  let lastEventId = options.lastEventId;
  let firstDelay = options.firstDelayMs ?? FIRST_DELAY_MS;

  /** One attempt: an end that stops the loop, or the problem to retry after (and whether the stream had been healthy). */
  async function attempt(headers: Record<string, string>): Promise<GetStreamEnd | { retry: string; healthy: boolean }> {
    const call = new UpstreamCall(own.signal);
    const from = lastEventId;
    const request = { method: "GET" as const, headers: { ...headers, accept: "text/event-stream", ...(from !== undefined ? { "last-event-id": from } : {}) } };
    try {
      let res: Response;
      try {
        res = await upstreamFetch(url, request, call, limits.headersTimeoutMs);
      } catch (err) {
        const failure = callFailure(err, call, url, limits);
        return failure === undefined ? { kind: "stopped" } : { retry: failure.message, healthy: false };
      }
      const refusal = redirectRefusal(res, url);
      if (refusal !== undefined) {
        await res.body?.cancel().catch(() => {});
        return { kind: "refused", problem: refusal };
      }
      if (res.status === 405) {
        await res.body?.cancel().catch(() => {});
        return { kind: "unsupported" };
      }
      if (!res.ok) {
        const body = await previewOf(res, call, limits);
        if (res.status === 404 && headers["mcp-session-id"] !== undefined) return { kind: "expired", status: 404, body };
        const shown = body.length > 200 ? `${body.slice(0, 200)}…` : body;
        return { retry: `the server answered ${res.status} ${res.statusText}${shown ? `: ${shown}` : ""}`.trim(), healthy: false };
      }
      const type = mediaType(res.headers.get("content-type"));
      if (type !== "text/event-stream") {
        await res.body?.cancel().catch(() => {});
        return { kind: "refused", problem: `the server answered the GET with ${type === "" ? "no Content-Type" : JSON.stringify(type)}, not text/event-stream` };
      }
      options.note(`${label} open (HTTP ${res.status}${from !== undefined ? `, resuming after event ${from}` : ""})`);
      const opened = performance.now();
      let events = 0;
      let problem = "the server ended the stream";
      try {
        await readStream(res, call, limits, {
          idle: false,
          onEvent: (event) => {
            events++;
            if (event.id !== undefined) lastEventId = event.id;
            if (event.event === "message" && event.data !== "") options.onMessage(event.data, event.invalidUtf8 ?? false);
            if (options.done?.()) call.cut("closed");
          },
          onRetry: (ms) => (firstDelay = Math.min(MAX_DELAY_MS, Math.max(100, ms))),
          onOversize: options.onOversize,
        });
      } catch (err) {
        problem = `the stream broke (${(err as Error).message})`;
      }
      if (options.done?.()) return { kind: "done" };
      if (own.signal.aborted) return { kind: "stopped" };
      return { retry: problem, healthy: events > 0 || performance.now() - opened >= HEALTHY_MS };
    } finally {
      call.dispose();
    }
  }

  async function run(): Promise<GetStreamEnd> {
    let failures = 0;
    try {
      for (;;) {
        if (own.signal.aborted) return { kind: "stopped" };
        const headers = options.headers();
        if (headers === undefined) return { kind: "stopped" };
        const outcome = await attempt(headers);
        if ("kind" in outcome) return outcome;
        failures = outcome.healthy ? 1 : failures + 1;
        if (failures > GET_RETRIES) return { kind: "gave-up", problem: outcome.retry };
        const delay = Math.min(MAX_DELAY_MS, firstDelay * 2 ** (failures - 1));
        options.note(`${label}: ${outcome.retry}; reconnecting in ${delay} ms (attempt ${failures} of ${GET_RETRIES})`);
        await sleep(delay, own.signal);
      }
    } finally {
      options.signal.removeEventListener("abort", stopOn);
    }
  }

  return { stop: () => own.abort(), ended: run() };
}
