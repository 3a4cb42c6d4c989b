/**
 * The HTTP headers a 2026-07-28 request carries over Streamable HTTP: `Mcp-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` mirrored from the body, and one `Mcp-Param-{Name}` per tool argument
 * its inputSchema marks with `x-mcp-header`. Values that are not plain visible ASCII travel as
 * `=?base64?…?=` (UTF-8, padded base64).
 */
import { isJsonObject } from "../json/index.ts";
import { envelopeVersion } from "./envelope.ts";

export const PARAM_HEADER_PREFIX = "Mcp-Param-";
export const X_MCP_HEADER = "x-mcp-header";

/** RFC 9110 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEADER_TYPES = new Set(["string", "integer", "number", "boolean"]);
/** Schema keywords whose subschemas are not reachable through `properties` alone. */
const UNREACHABLE = [
  "items", "prefixItems", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames",
  "patternProperties", "dependentSchemas", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$defs", "definitions",
];
const MAPS = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"]);

function plainFieldValue(value: string): boolean {
  if (value === "" || value !== value.trim()) return false;
  if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)) return false;
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return false;
  }
  return true;
}

function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A header value for `text`: as it is when it is safe plain ASCII, else the base64 sentinel form. */
export function encodeHeaderValue(text: string): string {
  return plainFieldValue(text) ? text : `${SENTINEL_START}${base64(text)}${SENTINEL_END}`;
}

/** The text a header value stands for; undefined for a sentinel whose payload is not canonical base64 of UTF-8. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END) && value.length >= SENTINEL_START.length + SENTINEL_END.length)) return value;
  const payload = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    const binary = atob(payload);
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The body member `Mcp-Name` mirrors, by method: the tool or prompt name, the resource URI, and
 * (the tasks extension's HTTP binding) the task id, so a router can send a task's requests to the
 * instance that holds it.
 */
const NAME_FIELD: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** `Mcp-Protocol-Version`, `Mcp-Method` and `Mcp-Name` for a request whose envelope names a version; none otherwise. */
export function standardHeaders(message: unknown): Record<string, string> {
  const version = envelopeVersion(message);
  if (version === undefined || !isJsonObject(message) || typeof message.method !== "string" || !("id" in message)) return {};
  const headers: Record<string, string> = { "Mcp-Protocol-Version": version, "Mcp-Method": message.method };
  const params = isJsonObject(message.params) ? message.params : {};
  const field = NAME_FIELD[message.method];
  const name = field === undefined ? undefined : params[field];
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}

/** One argument a tool wants mirrored into a header. */
export interface HeaderParam {
  readonly path: readonly string[];
  readonly header: string;
  readonly type: string;
}

export type HeaderParamScan = { readonly ok: true; readonly params: readonly HeaderParam[] } | { readonly ok: false; readonly reason: string };

const where = (path: readonly string[]) => (path.length === 0 ? "the schema root" : path.join("."));

/**
 * The `x-mcp-header` declarations of an inputSchema, or why they make the tool invalid: a
 * declaration must sit on a primitive property reached only through `properties`, be a
 * non-empty token, and be unique ignoring case.
 */
export function scanHeaderParams(inputSchema: unknown): HeaderParamScan {
  const params: HeaderParam[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (!isJsonObject(node)) return undefined;
    if (X_MCP_HEADER in node) {
      const header = node[X_MCP_HEADER];
      if (!reachable || path.length === 0) return `${where(path)}: x-mcp-header may only sit on a property reached through "properties" alone`;
      if (typeof header !== "string" || !TOKEN.test(header)) return `${where(path)}: x-mcp-header must be a non-empty HTTP token, got ${JSON.stringify(header)}`;
      const type = typeof node.type === "string" ? node.type : undefined;
      if (type === undefined || !HEADER_TYPES.has(type)) return `${where(path)}: x-mcp-header needs a string, integer, number or boolean property, got type ${JSON.stringify(node.type ?? null)}`;
      const prior = seen.get(header.toLowerCase());
      if (prior !== undefined) return `x-mcp-header ${JSON.stringify(header)} repeats ${JSON.stringify(prior)} (header names ignore case)`;
      seen.set(header.toLowerCase(), header);
      params.push({ path, header, type });
    }
    if (isJsonObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : MAPS.has(keyword) && isJsonObject(sub) ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, `(${keyword})`], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { ok: true, params } : { ok: false, reason: fault };
}

function primitiveText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/** The `Mcp-Param-*` headers for one call: absent, null and non-primitive values send none. */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) value = isJsonObject(value) ? value[key] : undefined;
    const text = primitiveText(value);
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${param.header}`] = encodeHeaderValue(text);
  }
  return headers;
}

/** Header names a page may ask the relay to send upstream with one message. */
const FORWARDABLE = /^mcp-(?:protocol-version|method|name|param-[!#$%&'*+\-.^_`|~0-9a-z]+)$/i;

export function isForwardableHeader(name: string): boolean {
  return FORWARDABLE.test(name);
}
