/**
 * POST /api/oauth/fetch: one request of the OAuth flow, made for the page, since the
 * authorization servers of real MCP servers mostly send no CORS headers. Guarded like every API
 * route (launch token, Host, Origin); the answer (status, headers, body verbatim) or the failed
 * step comes back as JSON. The request and answer carry secrets and are never logged.
 */
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";
import type { Route } from "../http/router.ts";
import { checkedHeaders, checkedUrl } from "../relay/forward-request.ts";
import { OUTBOUND_DEFAULTS, oauthOutbound, type OutboundRequest } from "./outbound.ts";

export const OAUTH_FETCH_PATH = "/api/oauth/fetch";
const CODE = "invalid_oauth_request";
const MAX_REQUEST_BODY = 256 * 1024;
const RANGES = { timeoutMs: [100, 120_000], maxBytes: [1024, 4 * 1024 * 1024] } as const;

const bad = (message: string) => new HttpError(400, CODE, message);

function bounded(value: unknown, name: keyof typeof RANGES): number {
  if (value === undefined) return OUTBOUND_DEFAULTS[name];
  const [min, max] = RANGES[name];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw bad(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

/** The page's description of the request, checked; anything off is a 400 naming the member. */
export function parseOAuthFetch(value: unknown): OutboundRequest {
  if (!isJsonObject(value)) throw bad('the body must be a JSON object such as {"url":"https://auth.example.com/.well-known/oauth-authorization-server","method":"GET"}');
  const known = new Set(["url", "method", "headers", "body", "timeoutMs", "maxBytes"]);
  const extra = Object.keys(value).find((k) => !known.has(k));
  if (extra !== undefined) throw bad(`unexpected member ${JSON.stringify(extra)}; allowed: ${[...known].join(", ")}`);
  const url = checkedUrl(value.url, CODE);
  const method = value.method ?? "GET";
  if (method !== "GET" && method !== "POST" && method !== "DELETE") throw bad("method must be GET, POST or DELETE");
  const headers = checkedHeaders(value.headers, CODE);
  if (value.body !== undefined && typeof value.body !== "string") throw bad("body must be a string (the exact text to send)");
  if (typeof value.body === "string" && Buffer.byteLength(value.body) > MAX_REQUEST_BODY) throw new HttpError(413, "body_too_large", `body is over ${MAX_REQUEST_BODY} bytes`);
  if (value.body !== undefined && method === "GET") throw bad("a GET carries no body");
  return {
    url,
    method,
    headers,
    ...(typeof value.body === "string" ? { body: value.body } : {}),
    timeoutMs: bounded(value.timeoutMs, "timeoutMs"),
    maxBytes: bounded(value.maxBytes, "maxBytes"),
  };
}

export function oauthRoutes(): Route[] {
  return [
    {
      method: "POST",
      path: OAUTH_FETCH_PATH,
      safe: false,
      handler: async (req) => {
        const request = parseOAuthFetch(await req.json());
        return { status: 200, body: await oauthOutbound(request, new AbortController().signal) };
      },
    },
  ];
}
