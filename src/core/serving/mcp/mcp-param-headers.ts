/**
 * The `Mcp-Param-*` headers of a 2026-07-28 tools/call (SEP-2243): a tool argument whose schema
 * property carries `x-mcp-header: "Name"` travels in the `Mcp-Param-Name` header as well, so
 * intermediaries can route on it. The server checks the two agree: a header that is missing,
 * not decodable or different from the argument is refused (400, -32020 HeaderMismatch).
 */
import { isJsonObject } from "../../json/index.ts";
import { decodeBase64 } from "../../wire/base64.ts";

export const HEADER_MISMATCH = -32020;

const BASE64_WRAPPED = /^=\?base64\?(.*)\?=$/s;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The header names a tool's input schema declares, by argument name. */
export function headerDeclarations(inputSchema: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const properties = isJsonObject(inputSchema) && isJsonObject(inputSchema.properties) ? inputSchema.properties : {};
  for (const [argument, schema] of Object.entries(properties)) {
    const name = isJsonObject(schema) ? schema["x-mcp-header"] : undefined;
    if (typeof name === "string" && name !== "") out.set(argument, name);
  }
  return out;
}

/** A header value as the argument it mirrors: trimmed, `=?base64?…?=` decoded; undefined when it does not decode. */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  const wrapped = BASE64_WRAPPED.exec(value);
  if (!wrapped) return value;
  try {
    return utf8.decode(decodeBase64(wrapped[1]!));
  } catch {
    return undefined;
  }
}

/** How an argument reads in a header; objects and arrays are not mirrored. */
function asHeaderText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function sameValue(header: string, body: unknown, expected: string): boolean {
  if (header === expected) return true;
  // Numbers may be written differently (1.0 and 1); equal values agree.
  return typeof body === "number" && header.trim() !== "" && Number(header) === body;
}

/** What is wrong with the call's `Mcp-Param-*` headers, or undefined when they agree with its arguments. */
export function mcpParamProblem(inputSchema: unknown, args: unknown, headers: Headers): string | undefined {
  const values = isJsonObject(args) ? args : {};
  for (const [argument, name] of headerDeclarations(inputSchema)) {
    const header = `Mcp-Param-${name}`;
    const raw = headers.get(header);
    const body = values[argument];
    const expected = asHeaderText(body);
    if (raw === null) {
      if (expected !== undefined) return `the ${header} header is missing; it must carry the "${argument}" argument (${JSON.stringify(expected).slice(0, 100)})`;
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `the ${header} header is not valid: its =?base64?…?= value is not Base64 of UTF-8 text`;
    if (body === undefined || body === null) return `the ${header} header is sent, but the call has no "${argument}" argument`;
    if (expected !== undefined && !sameValue(decoded, body, expected)) {
      return `the ${header} header says ${JSON.stringify(decoded.slice(0, 100))}, but the "${argument}" argument is ${JSON.stringify(expected.slice(0, 100))}`;
    }
  }
  return undefined;
}
