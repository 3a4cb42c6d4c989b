/**
 * POST /api/relay/http: one outbound HTTP request made for the browser, which cannot reach most
 * agents itself (they send no CORS headers). The upstream answer comes back as NDJSON lines: a
 * `head` (status, headers), `chunk`s holding the body's exact bytes (base64), then `end`, or an
 * `error` naming the step that failed. Held to the same limits and redirect policy as the MCP
 * relay: deadlines for headers and for each chunk, a size cap, no redirect off the origin.
 */
import type { ServerResponse } from "node:http";
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";
import type { Reply, Route } from "../http/router.ts";
import { checkedHeaders, checkedUrl } from "./forward-request.ts";
import { connectFailure, headerObject } from "./http-failure.ts";
import { parseLimits, type RelayLimits } from "./relay-limits.ts";
import { redirectRefusal, UpstreamCall, upstreamFetch } from "./upstream-call.ts";

export const RELAY_HTTP_PATH = "/api/relay/http";
/** The largest request body the relay forwards. */
export const MAX_FORWARD_BODY = 4 * 1024 * 1024;

const METHODS = new Set(["GET", "POST", "DELETE"]);

export interface RelayRequest {
  readonly url: URL;
  readonly method: "GET" | "POST" | "DELETE";
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly limits: RelayLimits;
}

const bad = (message: string) => new HttpError(400, "invalid_relay_request", message);

/** Checks the browser's description of the request; anything off is a 400 naming the member. */
export function parseRelayRequest(value: unknown): RelayRequest {
  if (!isJsonObject(value)) throw bad('the body must be a JSON object such as {"url":"http://127.0.0.1:4000/","method":"GET"}');
  const url = checkedUrl(value.url, "invalid_relay_request");
  const method = value.method ?? "GET";
  if (typeof method !== "string" || !METHODS.has(method)) throw bad("method must be GET, POST or DELETE");
  const headers = checkedHeaders(value.headers, "invalid_relay_request");
  if (value.body !== undefined && typeof value.body !== "string") throw bad("body must be a string (the exact text to send)");
  if (typeof value.body === "string" && Buffer.byteLength(value.body) > MAX_FORWARD_BODY) throw new HttpError(413, "body_too_large", `body is over ${MAX_FORWARD_BODY} bytes`);
  if (value.body !== undefined && method === "GET") throw bad("a GET carries no body");
  return { url, method: method as RelayRequest["method"], headers, ...(typeof value.body === "string" ? { body: value.body } : {}), limits: parseLimits(value.limits) };
}

type Line = Record<string, unknown>;

/** Makes the request and writes its answer as NDJSON lines; never throws once the stream started. */
async function relay(request: RelayRequest, write: (line: Line) => void, closed: AbortSignal): Promise<void> {
  const call = new UpstreamCall(closed);
  const { limits, url } = request;
  try {
    let res: Response;
    try {
      const body = request.body !== undefined ? new TextEncoder().encode(request.body) : undefined;
      res = await upstreamFetch(url, { method: request.method, headers: request.headers, ...(body ? { body } : {}) }, call, limits.headersTimeoutMs);
    } catch (err) {
      if (call.why === "closed") return;
      if (call.why === "headers") return write({ type: "error", step: "timeout", message: `no response headers from ${url.host} within ${limits.headersTimeoutMs} ms` });
      const failure = connectFailure(err, url);
      return write({ type: "error", step: failure.step, message: failure.message });
    }
    const refusal = redirectRefusal(res, url);
    write({ type: "head", status: res.status, headers: headerObject(res.headers), ...(refusal ? { refused: refusal } : {}) });
    if (refusal || res.body === null) {
      await res.body?.cancel().catch(() => {});
      return write({ type: "end" });
    }
    const reader = res.body.getReader();
    call.reading(reader);
    call.deadline(limits.idleTimeoutMs, "idle");
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        call.progress();
        size += value.length;
        if (size > limits.maxMessageBytes) {
          call.cut("size");
          return write({ type: "error", step: "size", message: `the answer is over ${limits.maxMessageBytes} bytes (maxMessageBytes); the rest was not read` });
        }
        write({ type: "chunk", b64: Buffer.from(value).toString("base64") });
      }
    } catch (err) {
      if (call.why === "closed") return;
      if (call.why === "idle") return write({ type: "error", step: "timeout", message: `nothing arrived from ${url.host} for ${limits.idleTimeoutMs} ms (idleTimeoutMs)` });
      return write({ type: "error", step: "http", message: `the body broke off: ${(err as Error).message}` });
    }
    write({ type: "end" });
  } finally {
    call.dispose();
  }
}

export function httpRelayRoutes(): Route[] {
  return [
    {
      method: "POST",
      path: RELAY_HTTP_PATH,
      safe: false,
      handler: async (req): Promise<Reply> => {
        const request = parseRelayRequest(await req.json());
        return {
          status: 200,
          stream(res: ServerResponse) {
            res.writeHead(200, { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
            const closed = new AbortController();
            res.once("close", () => closed.abort());
            void relay(request, (line) => void res.write(`${JSON.stringify(line)}\n`), closed.signal).finally(() => res.end());
          },
        };
      },
    },
  ];
}
