import type { ServerResponse } from "node:http";

/** Content-Security-Policy for every HTML response: same-origin code, NATS over ws from the page. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self' ws: wss: http: https:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The validation worker's own policy. A dedicated worker runs under the CSP delivered with its
 * script, so ajv may generate code there while the page keeps `script-src 'self'`. The worker
 * has no DOM, no token and no network: `connect-src 'none'`.
 */
export const VALIDATION_WORKER_CSP = ["default-src 'none'", "script-src 'self' 'unsafe-eval'", "connect-src 'none'"].join("; ");

/** Built file names of the validation worker entry (Vite adds a content hash). */
export const VALIDATION_WORKER_FILE = /^validation-worker-[\w-]+\.js$/;

/** Headers every response carries, whatever it is. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

/** Apply the always-on headers. */
export function applyBaseHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(BASE_HEADERS)) res.setHeader(name, value);
}

/** Send a complete response; HTML gets the CSP, and `noStore` forbids caching. */
export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
  headOnly = false,
): void {
  const headers: Record<string, string | number> = {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(body),
    ...extra,
  };
  if (contentType.startsWith("text/html")) headers["Content-Security-Policy"] = CSP;
  res.writeHead(status, headers);
  res.end(headOnly ? undefined : body);
}

/** Send JSON that is never cached. */
export function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body), { "Cache-Control": "no-store", ...extra });
}
