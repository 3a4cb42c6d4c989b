/**
 * One outbound request of the OAuth flow, made by the backend: the address guard first, then a
 * single fetch that follows no redirect (a redirect comes back as the answer, for the flow to show
 * as a step), within one time limit for the whole exchange and a size cap on the body. Every
 * failure is a result naming its step. Nothing here logs: the requests carry secrets.
 */
import type { SendResult } from "../../src/core/oauth/index.ts";
import { connectFailure, headerObject } from "../relay/http-failure.ts";
import { readWhole, UpstreamCall } from "../relay/upstream-call.ts";
import { dnsLookup, refusedHost, type Lookup } from "./address-guard.ts";

export interface OutboundRequest {
  readonly url: URL;
  readonly method: "GET" | "POST" | "DELETE";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** For the whole exchange, headers and body. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export const OUTBOUND_DEFAULTS = { timeoutMs: 30_000, maxBytes: 1024 * 1024 } as const;

export async function oauthOutbound(request: OutboundRequest, closed: AbortSignal, resolve: Lookup = dnsLookup): Promise<SendResult> {
  const { url, timeoutMs, maxBytes } = request;
  const refused = await refusedHost(url, resolve);
  if (refused !== undefined) return { ok: false, step: "refused", message: refused };
  const call = new UpstreamCall(closed);
  const started = performance.now();
  const left = () => Math.max(1, timeoutMs - (performance.now() - started));
  const timedOut = () => ({ ok: false as const, step: "timeout" as const, message: `no complete answer from ${url.host} within ${timeoutMs} ms` });
  try {
    call.deadline(timeoutMs, "headers");
    let res: Response;
    try {
      res = await fetch(url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: "manual",
        signal: call.signal,
      });
    } catch (err) {
      if (call.why === "headers") return timedOut();
      if (call.why === "closed") return { ok: false, step: "backend", message: "the page went away before the answer" };
      const failure = connectFailure(err, url);
      // The HTTP parser's codes: something answered, but not in HTTP.
      const parser = failure.message.indexOf("(HPE_");
      if (parser >= 0) return { ok: false, step: "http", message: `http: what ${url.host} answered is not HTTP ${failure.message.slice(parser)}` };
      return { ok: false, step: failure.step === "dns" || failure.step === "tls" ? failure.step : "tcp", message: failure.message };
    }
    const headers = headerObject(res.headers);
    let body;
    try {
      body = await readWhole(res, call, { headersTimeoutMs: timeoutMs, idleTimeoutMs: left(), maxMessageBytes: maxBytes });
    } catch (err) {
      if (call.why === "idle") return { ...timedOut(), status: res.status, headers };
      return { ok: false, step: "http", message: `the body from ${url.host} broke off: ${(err as Error).message}`, status: res.status, headers };
    }
    if ("oversize" in body) return { ok: false, step: "size", message: `the answer from ${url.host} is over ${maxBytes} bytes; the rest was not read`, status: res.status, headers };
    return {
      ok: true,
      response: { status: res.status, statusText: res.statusText, headers, body: body.text, ...(body.invalidUtf8 ? { invalidUtf8: true } : {}) },
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    call.dispose();
  }
}
