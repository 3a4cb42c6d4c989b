/**
 * The `Mcp-*` headers a page sends with one relayed message (2026-07-28: Mcp-Protocol-Version,
 * Mcp-Method, Mcp-Name, Mcp-Param-*), checked before the relay sends them upstream. Nothing else
 * the page sends is forwarded; the session's own headers and credentials stay the relay's.
 */
import { isForwardableHeader } from "../../src/core/mcp/modern-headers.ts";
import { HttpError } from "../http/errors.ts";

export const MAX_FORWARDED_HEADERS = 64;
export const MAX_FORWARDED_VALUE = 8_192;
/** Visible ASCII and tab: what an HTTP field value may carry without encoding. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

export function forwardedHeaders(headers: Readonly<Record<string, string | string[] | undefined>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!/^mcp-/i.test(name) || name.toLowerCase() === "mcp-session-id") continue;
    if (!isForwardableHeader(name)) throw new HttpError(400, "bad_header", `${name} is not a header the relay forwards (Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-{token})`);
    if (typeof value !== "string") throw new HttpError(400, "bad_header", `${name} came more than once; send each Mcp-* header once`);
    if (value.length > MAX_FORWARDED_VALUE) throw new HttpError(400, "bad_header", `${name} is ${value.length} characters long; the relay forwards at most ${MAX_FORWARDED_VALUE} (encode long values in the body instead)`);
    if (!FIELD_VALUE.test(value)) throw new HttpError(400, "bad_header", `${name} holds characters outside visible ASCII; send such a value as =?base64?…?=`);
    out[name] = value;
  }
  if (Object.keys(out).length > MAX_FORWARDED_HEADERS) throw new HttpError(400, "bad_header", `${Object.keys(out).length} Mcp-* headers on one message; the relay forwards at most ${MAX_FORWARDED_HEADERS}`);
  return out;
}
