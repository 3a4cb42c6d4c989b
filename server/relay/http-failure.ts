/** Names the step at which an outbound HTTP exchange failed, and reads response headers. */
import type { RelayStep } from "../../src/core/mcp/relay-api.ts";

export const BODY_PREVIEW_BYTES = 4096;

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

function errorCode(err: unknown): string | undefined {
  // fetch wraps the socket error as `cause`; a dual-stack connect may wrap several in an AggregateError.
  for (let e: unknown = err, depth = 0; e !== null && typeof e === "object" && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const c = errorCode(inner[0]);
      if (c !== undefined) return c;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function innermostMessage(err: unknown): string {
  let e: unknown = err;
  while (e !== null && typeof e === "object" && (e as { cause?: unknown }).cause !== undefined) e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}

/** The failed step and a message naming host and code, for a fetch that threw before any response. */
export function connectFailure(err: unknown, url: URL): { step: RelayStep; message: string } {
  const code = errorCode(err);
  const where = url.host;
  if (code !== undefined && DNS_CODES.has(code)) {
    return { step: "dns", message: `dns: cannot resolve host ${JSON.stringify(url.hostname)} (${code})` };
  }
  if (code !== undefined && TLS_CODE.test(code)) {
    return { step: "tls", message: `tls: handshake with ${where} failed (${code}: ${innermostMessage(err)})` };
  }
  if (code === "ECONNREFUSED") return { step: "tcp", message: `tcp: connection to ${where} was refused (ECONNREFUSED)` };
  if (code !== undefined) return { step: "tcp", message: `tcp: connection to ${where} failed (${code}: ${innermostMessage(err)})` };
  return { step: "tcp", message: `tcp: request to ${where} failed (${innermostMessage(err)})` };
}

/** The media type of a Content-Type header, lower-cased without parameters. */
export function mediaType(header: string | null): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Response headers as a plain object (lower-case names). */
export function headerObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
