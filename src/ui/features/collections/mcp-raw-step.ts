/**
 * A JSON-RPC request typed in the MCP raw editor as a collection step: its method and params on
 * the connected server. The run opens its own session and numbers its own requests, so the
 * `jsonrpc` and `id` members are not saved; a step sends a request and checks its answer, so
 * notifications, responses and batches are refused.
 */
import type { McpAction } from "../../../core/harness/index.ts";
import { isJsonObject, parseJsonText } from "../../../core/json/index.ts";
import type { CreateSessionBody } from "../../../core/mcp/index.ts";
import { mcpTarget, type SavedRequestResult } from "./step-drafts.ts";

const SAVED_MEMBERS = new Set(["jsonrpc", "id", "method", "params"]);

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A member's value for a note: short, whatever was typed. */
function shown(value: unknown): string {
  if (value !== null && typeof value === "object") return kindOf(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The request's method and params, or why the text is not one request. */
export function rawRequestAction(text: string): { readonly action: McpAction; readonly notes: string[] } | { readonly error: string } {
  if (text.trim() === "") return { error: "the raw message is empty: type a JSON-RPC request" };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { error: `the raw message is not JSON: ${parsed.message} at line ${parsed.line}, column ${parsed.column}` };
  const msg = parsed.value;
  if (Array.isArray(msg)) return { error: "a batch is not saved as a step: save its requests one at a time" };
  if (!isJsonObject(msg)) return { error: `the raw message is ${kindOf(msg)}, not a JSON-RPC request object` };
  if (!Object.hasOwn(msg, "method")) {
    if (Object.hasOwn(msg, "result") || Object.hasOwn(msg, "error")) return { error: "this is a response (it has result or error), not a request: a step sends a request and checks its answer" };
    return { error: 'the raw message has no "method": a step sends a request' };
  }
  const method = msg.method;
  if (typeof method !== "string" || method.trim() === "") return { error: `"method" must be a non-empty string; got ${typeof method === "string" ? "an empty one" : kindOf(method)}` };
  if (!Object.hasOwn(msg, "id")) return { error: `this is a notification (no "id"), which has no answer to check: give it an id to save it as a request` };
  const params = msg.params;
  if (params !== undefined && !isJsonObject(params)) return { error: `"params" must be a JSON object (MCP names its params); got ${kindOf(params)}` };
  const notes: string[] = [];
  // A raw message may be malformed on purpose; the run's own framing is always well formed.
  if (msg.jsonrpc !== "2.0") notes.push(`the step sends "jsonrpc": "2.0", not ${msg.jsonrpc === undefined ? "none" : shown(msg.jsonrpc)}`);
  if (typeof msg.id !== "string" && typeof msg.id !== "number") notes.push(`the step numbers its own request, not id ${shown(msg.id)}`);
  const others = Object.keys(msg).filter((k) => !SAVED_MEMBERS.has(k));
  if (others.length > 0) notes.push(`left out: ${others.slice(0, 5).map(shown).join(", ")}${others.length > 5 ? ` and ${others.length - 5} more` : ""}`);
  if (method === "initialize") notes.push("the run initializes its own session first, so this step sends a second initialize");
  return { action: { protocol: "mcp", method, ...(params !== undefined ? { params } : {}) }, notes };
}

/** The raw editor's request as a step to the server the workbench is connected to. */
export function mcpRawRequest(body: CreateSessionBody, serverName: string, text: string): SavedRequestResult {
  const read = rawRequestAction(text);
  if ("error" in read) return { ok: false, error: read.error };
  const { target, secrets, notes } = mcpTarget(body, serverName);
  return { ok: true, request: { draft: { name: read.action.method, target, targetHint: serverName, action: read.action }, secrets, notes: [...read.notes, ...notes] } };
}
