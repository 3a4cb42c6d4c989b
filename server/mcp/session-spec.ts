/**
 * The body of POST /api/mcp/sessions, checked strictly: every failure is a 400 naming the field.
 * Messages name keys, never values (env and header values carry secrets).
 */
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";
import { parseLimits, type RelayLimits } from "../relay/relay-limits.ts";

export type StdioSpec = {
  readonly transport: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
};

export type HttpSpec = {
  readonly transport: "streamable-http" | "sse";
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly limits: RelayLimits;
};

export type SessionSpec = StdioSpec | HttpSpec;

export const TRANSPORTS = ["stdio", "streamable-http", "sse"] as const;
const MAX_ITEMS = 1024;
const MAX_HEADERS = 64;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the relay sets itself, per the transport's rules. */
const RELAY_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "content-type",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
]);

const invalid = (message: string) => new HttpError(400, "invalid_session", message);

function onlyKeys(body: Record<string, unknown>, allowed: readonly string[], transport: string): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw invalid(`unexpected property ${JSON.stringify(key)} for transport ${transport}; allowed: ${allowed.join(", ")}`);
    }
  }
}

function plainString(value: unknown, field: string, { empty = false } = {}): string {
  if (typeof value !== "string") throw invalid(`${field} must be a string`);
  if (!empty && value === "") throw invalid(`${field} must not be empty`);
  if (value.includes("\0")) throw invalid(`${field} must not contain NUL characters`);
  return value;
}

function stringRecord(value: unknown, field: string, max: number, checkKey: (key: string) => void): Record<string, string> {
  if (!isJsonObject(value)) throw invalid(`${field} must be an object of string values`);
  const entries = Object.entries(value);
  if (entries.length > max) throw invalid(`${field} has ${entries.length} entries; at most ${max} are allowed`);
  const out: Record<string, string> = {};
  for (const [key, v] of entries) {
    checkKey(key);
    if (typeof v !== "string") throw invalid(`${field}.${key} must be a string`);
    out[key] = v;
  }
  return out;
}

function parseStdio(body: Record<string, unknown>): StdioSpec {
  onlyKeys(body, ["transport", "command", "args", "env", "cwd"], "stdio");
  if (!("command" in body)) throw invalid("command is required for transport stdio");
  const command = plainString(body.command, "command");
  let args: string[] = [];
  if (body.args !== undefined) {
    if (!Array.isArray(body.args)) throw invalid("args must be an array of strings");
    if (body.args.length > MAX_ITEMS) throw invalid(`args has ${body.args.length} items; at most ${MAX_ITEMS} are allowed`);
    args = body.args.map((a: unknown, i) => plainString(a, `args[${i}]`, { empty: true }));
  }
  const env =
    body.env === undefined
      ? {}
      : stringRecord(body.env, "env", MAX_ITEMS, (key) => {
          if (key === "" || key.includes("=") || key.includes("\0")) throw invalid(`env name ${JSON.stringify(key)} is not a valid variable name`);
        });
  for (const [key, v] of Object.entries(env)) if (v.includes("\0")) throw invalid(`env.${key} must not contain NUL characters`);
  const spec: StdioSpec = { transport: "stdio", command, args, env };
  return body.cwd === undefined ? spec : { ...spec, cwd: plainString(body.cwd, "cwd") };
}

function parseHttp(body: Record<string, unknown>, transport: HttpSpec["transport"]): HttpSpec {
  onlyKeys(body, ["transport", "url", "headers", "limits"], transport);
  if (!("url" in body)) throw invalid(`url is required for transport ${transport}`);
  const text = plainString(body.url, "url");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("url is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`url must use http: or https:, got ${JSON.stringify(url.protocol)}`);
  }
  // fetch refuses such URLs and quotes them, password and all, in its error.
  if (url.username !== "" || url.password !== "") {
    throw invalid("url must not carry credentials (user:password@); send them in a header such as Authorization");
  }
  const headers =
    body.headers === undefined
      ? {}
      : stringRecord(body.headers, "headers", MAX_HEADERS, (key) => {
          if (!HEADER_NAME.test(key)) throw invalid(`header name ${JSON.stringify(key)} is not a valid HTTP header name`);
          if (RELAY_HEADERS.has(key.toLowerCase())) throw invalid(`header ${JSON.stringify(key)} is set by the relay and cannot be overridden`);
        });
  for (const [key, v] of Object.entries(headers)) {
    if (/[\r\n\0]/.test(v)) throw invalid(`headers.${key} must not contain CR, LF or NUL characters`);
    // fetch would refuse these and quote the value in its error.
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(v)) throw invalid(`headers.${key} must contain only printable Latin-1 characters`);
  }
  return { transport, url, headers, limits: parseLimits(body.limits) };
}

/** Check a create-session body; throws a 400 HttpError naming the first problem. */
export function parseSessionSpec(body: unknown): SessionSpec {
  if (!isJsonObject(body)) throw invalid('expected a JSON object such as {"transport":"stdio","command":"…"}');
  if (!("transport" in body)) throw invalid(`transport is required; expected one of ${TRANSPORTS.join(", ")}`);
  switch (body.transport) {
    case "stdio":
      return parseStdio(body);
    case "streamable-http":
    case "sse":
      return parseHttp(body, body.transport);
    default:
      throw invalid(`unknown transport ${JSON.stringify(body.transport)}; expected one of ${TRANSPORTS.join(", ")}`);
  }
}

/** What listings and logs show: the command line, or the URL without credentials. */
export function specTarget(spec: SessionSpec): string {
  if (spec.transport === "stdio") return [spec.command, ...spec.args].join(" ");
  const shown = new URL(spec.url);
  shown.username = "";
  shown.password = "";
  return shown.href;
}
