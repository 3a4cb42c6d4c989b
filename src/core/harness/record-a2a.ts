/**
 * Reading recorded A2A traffic back into steps: which operation a request was (a JSON-RPC method
 * of any dialect, or an HTTP+JSON route), its message text and task, the card its agent was read
 * from, and what the answer came to in the harness's outcome words.
 */
import { cardInterfaces, dialectOfVersion, readCardDialect } from "../a2a/card.ts";
import { CARD_PATHS, DIALECTS, OPERATIONS, operationOfMethod, restRoute, type Binding, type Dialect, type Operation } from "../a2a/dialect.ts";
import { readState } from "../a2a/task-state.ts";
import { isJsonObject } from "../json/json-object.ts";
import type { WireEntry } from "../wire/wire-entry.ts";
import type { Assertion } from "./collection-types.ts";

export interface A2aRequestReading {
  readonly operation: Operation;
  readonly binding: Binding;
  /** Dialects the request fits, newest last. */
  readonly dialects: readonly Dialect[];
  /** The interface URL the request went to (a REST route's URL without the route). */
  readonly interfaceUrl: string;
  readonly text?: string;
  readonly message?: Record<string, unknown>;
  readonly taskId?: string;
  readonly contextId?: string;
}

const str = (o: unknown, key: string): string | undefined => (isJsonObject(o) && typeof o[key] === "string" ? (o[key] as string) : undefined);
const trimSlash = (url: string): string => url.replace(/\/+$/, "");
const header = (e: WireEntry, name: string): string | undefined => e.headers?.[name]?.[0];

/** The dialect an `A2A-Version` request header names (only v1.0 clients send it). */
export function headerDialect(e: WireEntry): Dialect | undefined {
  const v = header(e, "a2a-version");
  return v !== undefined ? dialectOfVersion(v) : undefined;
}

function messageFields(message: unknown): Pick<A2aRequestReading, "text" | "message" | "taskId" | "contextId"> {
  if (!isJsonObject(message)) return {};
  const taskId = str(message, "taskId");
  const contextId = str(message, "contextId");
  const ids = { ...(taskId !== undefined ? { taskId } : {}), ...(contextId !== undefined ? { contextId } : {}) };
  // v0.3 HTTP+JSON spells the parts `content`, in proto JSON.
  const parts = Array.isArray(message.parts) ? message.parts : Array.isArray(message.content) ? message.content : [];
  const only = parts.length === 1 ? parts[0] : undefined;
  const kind = str(only, "kind") ?? str(only, "type");
  const text = str(only, "text");
  const plain = isJsonObject(only) && text !== undefined && (kind === undefined || kind === "text") && Object.keys(only).every((k) => k === "text" || k === "kind" || k === "type");
  const others = Object.keys(message).filter((k) => !["messageId", "taskId", "contextId", "parts", "content", "role", "kind"].includes(k));
  if (plain && others.length === 0) return { text: text!, ...ids };
  // Anything richer is kept whole, less the id every send makes anew.
  const { messageId: _id, taskId: _t, contextId: _c, ...rest } = message;
  return { message: rest, ...ids };
}

/** v1.0 may name a task as `tasks/{id}`. */
const taskIdIn = (params: unknown): string | undefined => {
  const id = str(params, "id") ?? str(params, "taskId");
  if (id !== undefined) return id;
  const name = str(params, "name");
  return name?.startsWith("tasks/") ? name.slice(6).split("/")[0] : undefined;
};

function fromParams(operation: Operation, params: unknown): Pick<A2aRequestReading, "text" | "message" | "taskId" | "contextId"> {
  if (operation === "send" || operation === "stream") return messageFields(isJsonObject(params) ? params.message : undefined);
  const taskId = taskIdIn(params);
  return taskId !== undefined ? { taskId } : {};
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** An HTTP+JSON request: the route its path ends with, newest dialect first unless the header says otherwise. */
function readRest(e: WireEntry): A2aRequestReading | undefined {
  let url: URL;
  try {
    url = new URL(e.target);
  } catch {
    return undefined;
  }
  const verb = header(e, ":method") ?? "POST";
  const declared = headerDialect(e);
  const order: readonly ("0.3" | "1.0")[] = declared === "1.0" ? ["1.0", "0.3"] : ["0.3", "1.0"];
  for (const dialect of order) {
    for (const operation of OPERATIONS) {
      const route = restRoute(operation, dialect);
      if (!route || route.method !== verb) continue;
      const pattern = escapeRe(route.path).replace("\\{id\\}", "(?<id>[^/]+)").replace("\\{configId\\}", "[^/]+");
      const m = new RegExp(`^(?<base>.*)${pattern}$`).exec(url.pathname);
      if (!m) continue;
      const interfaceUrl = trimSlash(`${url.origin}${m.groups?.base ?? ""}`);
      const body = e.decoded.json;
      const fields = operation === "send" || operation === "stream" ? messageFields(isJsonObject(body) ? body.message : undefined) : {};
      const id = m.groups?.id !== undefined ? decodeURIComponent(m.groups.id) : undefined;
      return { operation, binding: "rest", dialects: [dialect], interfaceUrl, ...fields, ...(id !== undefined ? { taskId: id } : {}) };
    }
  }
  return undefined;
}

/** What an outgoing A2A frame asked, or undefined when it is no A2A operation. */
export function readA2aRequest(e: WireEntry): A2aRequestReading | undefined {
  const json = e.decoded.json;
  if (isJsonObject(json) && typeof json.method === "string") {
    const found = operationOfMethod(json.method);
    if (!found) return undefined;
    const declared = headerDialect(e);
    const dialects = declared !== undefined && found.dialects.includes(declared) ? [declared] : found.dialects;
    return { operation: found.operation, binding: "jsonrpc", dialects, interfaceUrl: trimSlash(e.target), ...fromParams(found.operation, json.params) };
  }
  return readRest(e);
}

/** A card fetch: a GET of a well-known card path (or a .json URL). */
export function cardFetchBase(e: WireEntry): string | undefined {
  if (e.channel !== "a2a-http" || e.direction !== "out" || (header(e, ":method") ?? "GET") !== "GET") return undefined;
  let url: URL;
  try {
    url = new URL(e.target);
  } catch {
    return undefined;
  }
  const path = CARD_PATHS.find((p) => url.pathname.endsWith(p));
  if (path) return trimSlash(`${url.origin}${url.pathname.slice(0, -path.length)}`);
  return /\.json$/i.test(url.pathname) ? e.target : undefined;
}

/** Interface URL → card location, and the dialect each card reads as, from the card fetches of a capture. */
export function cardsFromFetches(pairs: readonly { request: WireEntry; responses: readonly WireEntry[] }[]): { byInterface: Map<string, string>; dialectOf: Map<string, Dialect> } {
  const byInterface = new Map<string, string>();
  const dialectOf = new Map<string, Dialect>();
  for (const { request, responses } of pairs) {
    const base = cardFetchBase(request);
    const card = responses.find((r) => isJsonObject(r.decoded.json))?.decoded.json;
    if (base === undefined || card === undefined) continue;
    const dialect = readCardDialect(card).dialect;
    if (dialect) dialectOf.set(base, dialect);
    for (const i of cardInterfaces(card)) if (!byInterface.has(trimSlash(i.url))) byInterface.set(trimSlash(i.url), base);
  }
  return { byInterface, dialectOf };
}

/** The newest dialect all readings of one target fit, else the newest the last one fits. */
export function commonDialect(readings: readonly (readonly Dialect[])[]): Dialect | undefined {
  const common = DIALECTS.filter((d) => readings.every((r) => r.includes(d)));
  return common[common.length - 1] ?? readings[readings.length - 1]?.[readings[readings.length - 1]!.length - 1];
}

/** The body the harness reads pointers in: JSON-RPC the last result, REST the last body. */
export function a2aRecordedBody(responses: readonly WireEntry[], binding: Binding): unknown {
  for (let i = responses.length - 1; i >= 0; i--) {
    const value = responses[i]!.decoded.json;
    if (value === undefined) continue;
    if (binding === "jsonrpc" && isJsonObject(value) && "result" in value && !("error" in value)) return value.result;
    return value;
  }
  return undefined;
}

/** The task state or message an answer's value carries, any dialect (v1.0 wraps it in `task`, `message`, `statusUpdate`). */
function answerOf(value: unknown): { state?: string; message?: boolean } {
  if (!isJsonObject(value)) return {};
  if (isJsonObject(value.message)) return { message: true };
  const inner = isJsonObject(value.task) ? value.task : isJsonObject(value.statusUpdate) ? value.statusUpdate : value;
  if (inner.kind === "message" || ("parts" in inner && "role" in inner)) return { message: true };
  const reading = readState(isJsonObject(inner.status) ? inner.status.state : undefined);
  return reading ? { state: reading.state } : {};
}

/** The outcome assertion the recorded answer supports, or undefined when it supports none for sure. */
export function a2aOutcomeAssertion(responses: readonly WireEntry[], binding: Binding): Assertion | undefined {
  let state: string | undefined;
  let message = false;
  for (const r of responses) {
    const json = r.decoded.json;
    if (binding === "jsonrpc" && isJsonObject(json) && isJsonObject(json.error)) {
      const code = json.error.code;
      return Number.isSafeInteger(code) ? { kind: "outcome", is: "json-rpc-error", code: code as number } : { kind: "outcome", is: "json-rpc-error" };
    }
    if (binding === "rest" && (r.status ?? 200) >= 400) return undefined;
    const seen = answerOf(binding === "jsonrpc" && isJsonObject(json) ? json.result : json);
    if (seen.state !== undefined) state = seen.state;
    if (seen.message) message = true;
  }
  if (state !== undefined) return state === "completed" ? { kind: "outcome", is: "result" } : { kind: "outcome", is: "task-state", state };
  return message ? { kind: "outcome", is: "result" } : undefined;
}
