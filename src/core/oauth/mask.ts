/**
 * Secrets hidden for display: Authorization and cookie headers, and the members that carry
 * codes, verifiers, client secrets and tokens in JSON bodies, form bodies and URL queries. The
 * rest of the text stays exactly as sent, so a masked exchange still reads as the raw one.
 */
import type { Exchange, OAuthRequest, SendResult } from "./exchange.ts";

export const SECRET_MEMBERS: ReadonlySet<string> = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "registration_access_token",
  "code",
  "code_verifier",
  "assertion",
  "client_assertion",
  "subject_token",
  "password",
]);
const SECRET_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "dpop"]);

/** What stands for a secret: its length only. */
export function masked(secret: string): string {
  return `•••• (${secret.length} chars)`;
}

/** A header value with the secret part hidden; the scheme of an Authorization header stays. */
export function maskHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^([A-Za-z][A-Za-z0-9-]*) +(.+)$/.exec(value);
  return scheme && name.toLowerCase().endsWith("authorization") ? `${scheme[1]} ${masked(scheme[2]!)}` : masked(value);
}

export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, maskHeaderValue(n, v)]));
}

const JSON_MEMBER = /"([A-Za-z_]+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/** A form value decoded, for its length; left as it is when it is not valid percent-encoding. */
function formValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

function maskForm(text: string): string {
  return text
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      let name: string;
      try {
        name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, " "));
      } catch {
        return pair;
      }
      return SECRET_MEMBERS.has(name) ? `${pair.slice(0, eq)}=${masked(formValue(pair.slice(eq + 1)))}` : pair;
    })
    .join("&");
}

/** A body with its secret members hidden: JSON when it looks like an object, else a form. */
export function maskBody(body: string): string {
  if (body.trimStart().startsWith("{")) return body.replace(JSON_MEMBER, (all, name: string, colon: string, value: string) => (SECRET_MEMBERS.has(name) ? `"${name}"${colon}"${masked(value)}"` : all));
  if (/^[^\s{}[\]"]*=/.test(body)) return maskForm(body);
  return body;
}

/** A URL with secret query members hidden (an authorization code in a redirect). */
export function maskUrl(value: string): string {
  const q = value.indexOf("?");
  if (q < 0) return value;
  const hash = value.indexOf("#", q);
  const query = hash < 0 ? value.slice(q + 1) : value.slice(q + 1, hash);
  return `${value.slice(0, q + 1)}${maskForm(query)}${hash < 0 ? "" : value.slice(hash)}`;
}

export function maskRequest(request: OAuthRequest): OAuthRequest {
  return { ...request, url: maskUrl(request.url), headers: maskHeaders(request.headers), ...(request.body !== undefined ? { body: maskBody(request.body) } : {}) };
}

export function maskResult(result: SendResult): SendResult {
  if (!result.ok) return result.headers ? { ...result, headers: maskHeaders(result.headers) } : result;
  const r = result.response;
  const location = r.headers.location;
  const headers = maskHeaders(r.headers);
  if (location !== undefined) headers.location = maskUrl(location);
  return { ...result, response: { ...r, headers, body: maskBody(r.body) } };
}

/** An exchange as shown with secrets hidden. */
export function maskExchange(exchange: Exchange): Exchange {
  return { ...exchange, request: maskRequest(exchange.request), result: maskResult(exchange.result) };
}
