/**
 * The checks every outbound request the page describes goes through (the HTTP relay, the OAuth
 * route): an absolute http(s) URL without credentials, and headers with valid names and no line
 * breaks, minus those the backend's own connection sets. Anything off is a 400 naming the member.
 */
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";

/** Set by the backend's own connection, or meaningless once forwarded. */
const DROPPED = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer", "origin", "referer"]);

/** `url` as an absolute http(s) URL without user or password, or a 400 with `code`. */
export function checkedUrl(value: unknown, code: string): URL {
  const bad = (message: string) => new HttpError(400, code, message);
  if (typeof value !== "string") throw bad("url must be a string");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(`url ${JSON.stringify(value.slice(0, 200))} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw bad(`url must be http or https, not ${url.protocol.replace(":", "")}`);
  if (url.username !== "" || url.password !== "") throw bad("url must not carry credentials; send an Authorization header instead");
  return url;
}

/** The headers to forward, or a 400 with `code`; hop-by-hop and origin headers are left out. */
export function checkedHeaders(value: unknown, code: string): Record<string, string> {
  const bad = (message: string) => new HttpError(400, code, message);
  const headers: Record<string, string> = {};
  if (value === undefined) return headers;
  if (!isJsonObject(value)) throw bad("headers must be an object of strings");
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== "string") throw bad(`header ${JSON.stringify(name)} must be a string`);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw bad(`${JSON.stringify(name)} is not a header name`);
    if (/[\r\n\0]/.test(v)) throw bad(`header ${name} holds a line break or NUL`);
    if (!DROPPED.has(name.toLowerCase())) headers[name] = v;
  }
  return headers;
}
