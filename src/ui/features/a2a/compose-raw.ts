import { operationOfMethod, type Binding, type Dialect, type HttpRequestSpec, type Operation, type RequestTarget } from "../../../core/a2a/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import { requestSchema } from "./editor-schema.ts";
import type { HeaderRow } from "./request-headers.ts";

/** A request as raw mode edits it: sent exactly so, nothing added. */
export interface RawDraft {
  method: "GET" | "POST" | "DELETE";
  url: string;
  headers: HeaderRow[];
  body: string;
}

export function editorSchemaFor(target: RequestTarget, operation: Operation): object | undefined {
  return requestSchema(target.dialect, target.binding, operation);
}

/** How to read the answer of a raw request: a JSON-RPC body is read as JSON-RPC, in the dialect its method names. */
function readingOf(body: string, target: RequestTarget | undefined): { dialect: Dialect | undefined; binding: Binding } {
  let method: string | undefined;
  try {
    const value: unknown = JSON.parse(body);
    if (isJsonObject(value) && value.jsonrpc === "2.0" && typeof value.method === "string") method = value.method;
  } catch {
    // Not JSON: read the answer as a REST body.
  }
  if (method === undefined) return { dialect: target?.binding === "rest" ? target.dialect : undefined, binding: "rest" };
  const dialects = operationOfMethod(method)?.dialects ?? [];
  const dialect = target && dialects.includes(target.dialect) ? target.dialect : dialects.length === 1 ? dialects[0] : target?.dialect;
  return { dialect, binding: "jsonrpc" };
}

export function rawSpec(draft: RawDraft, headers: Readonly<Record<string, string>>, target: RequestTarget | undefined): { spec: HttpRequestSpec; dialect: Dialect | undefined; binding: Binding; target: RequestTarget | undefined } | string {
  const url = draft.url.trim();
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "the URL must be http:// or https://";
  } catch {
    return "give an absolute URL (http://host:port/path)";
  }
  if (draft.method === "GET" && draft.body.trim() !== "") return "a GET carries no body: clear it, or choose POST";
  const reading = readingOf(draft.body, target);
  const streaming = Object.entries(headers).some(([k, v]) => k.toLowerCase() === "accept" && v.includes("text/event-stream"));
  const spec: HttpRequestSpec = { method: draft.method, url, headers: { ...headers }, ...(draft.method !== "GET" ? { body: draft.body } : {}), streaming };
  // A raw request to the chosen interface may act on its tasks; anywhere else it stays unthreaded.
  const sameInterface = target !== undefined && url.startsWith(target.url.replace(/\/+$/, ""));
  return { spec, ...reading, target: sameInterface ? target : undefined };
}
