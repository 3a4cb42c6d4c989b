/**
 * What each frame of an exchange is judged as: the request body by the method it names, a
 * JSON-RPC answer by the method it answers (a streaming method's answers by the dialect's
 * stream kinds), a REST body by the kind its route returns. The pack is the dialect actually
 * spoken, pinned by an Override; where the packs have no schema for a frame, it says so.
 */
import { jsonRpcMethod, operationOfMethod, operationsOf, restRoute, STREAMING_OPERATIONS, type Binding, type Dialect, type HttpRequestSpec, type Operation } from "../../../core/a2a/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import type { Override } from "../../../core/validation/types.ts";
import { PACK_OF } from "./card-state.svelte.ts";

/** How an exchange's frames are read: the dialect and binding used, and what the request asked. */
export interface Reading {
  readonly dialect: Dialect | undefined;
  readonly binding: Binding;
  readonly operation: Operation | undefined;
  /** The JSON-RPC method the request body names, as sent. */
  readonly method: string | undefined;
}

/** Ask the engine (with this override; none lets it classify), or say why the frame is not checked. */
export type Plan = { readonly check: true; readonly override?: Override } | { readonly check: false; readonly reason: string };

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The REST operation a method and URL name in `dialect`, by its route (a tenant prefix allowed). */
export function restOperationOf(method: string, url: string, dialect: Dialect): Operation | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const routes = operationsOf(dialect, "rest").flatMap((op) => {
    const route = restRoute(op, dialect);
    return route ? [{ op, route }] : [];
  });
  // v1.0 subscribe is POST in the spec and GET in the proto: either method names it.
  const fits = (op: Operation, routeMethod: string) => routeMethod === method || (op === "subscribe" && (method === "GET" || method === "POST"));
  for (const { op, route } of routes) {
    // An id stops at ":" so `/tasks/t1:cancel` is no GET of task "t1:cancel".
    const pattern = new RegExp(`${escape(route.path).replace(/\\\{id\\\}|\\\{configId\\\}/g, "[^/:]+")}$`);
    if (fits(op, route.method) && pattern.test(path)) return op;
  }
  return undefined;
}

/** The reading of a request: a JSON-RPC body's own method decides over the template it came from. */
export function readingOf(spec: HttpRequestSpec, dialect: Dialect | undefined, binding: Binding): Reading {
  if (binding === "jsonrpc") {
    const body = parsed(spec.body);
    const method = isJsonObject(body) && typeof body.method === "string" ? body.method : undefined;
    if (method === undefined) return { dialect, binding, operation: spec.operation, method: dialect && spec.operation ? jsonRpcMethod(spec.operation, dialect) : undefined };
    const known = operationOfMethod(method);
    const operation = known && (dialect === undefined || known.dialects.includes(dialect)) ? known.operation : undefined;
    return { dialect, binding, operation, method };
  }
  const operation = spec.operation ?? (dialect ? restOperationOf(spec.method, spec.url, dialect) : undefined);
  return { dialect, binding, operation, method: undefined };
}

const REST_REQUEST: Partial<Record<Operation, string>> = {
  send: "SendMessageRequest",
  stream: "SendMessageRequest",
  cancel: "CancelTaskRequest",
  subscribe: "SubscribeToTaskRequest",
  "push-set": "TaskPushNotificationConfig",
};

/** What a v1.0 REST route returns, by its proto message, and the pack's kind for it where there is one. */
const REST_ANSWER: Readonly<Record<Operation, { readonly message: string; readonly kindId?: string }>> = {
  send: { message: "SendMessageResponse" },
  stream: { message: "StreamResponse", kindId: "payload:StreamResponse" },
  subscribe: { message: "StreamResponse", kindId: "payload:StreamResponse" },
  get: { message: "Task", kindId: "payload:Task" },
  cancel: { message: "Task", kindId: "payload:Task" },
  list: { message: "ListTasksResponse" },
  "push-set": { message: "TaskPushNotificationConfig" },
  "push-get": { message: "TaskPushNotificationConfig" },
  "push-list": { message: "ListTaskPushNotificationConfigsResponse" },
  "push-delete": { message: "Empty" },
  "extended-card": { message: "AgentCard", kindId: "card" },
};

const V03_REST = "no schema for A2A v0.3 HTTP+JSON bodies (proto JSON); the v0.3 pack has the JSON-RPC shapes only";
const noDialect = (what: string): Plan => ({ check: false, reason: `the dialect of this ${what} is not known, so there is no schema to pick` });

/** The plan for the request body sent; undefined when the request has no body. */
export function requestPlan(reading: Reading, body: string | undefined): Plan | undefined {
  if (body === undefined || body === "") return undefined;
  const { dialect } = reading;
  if (reading.binding === "jsonrpc") {
    if (dialect === undefined) return { check: true };
    const packId = PACK_OF[dialect];
    // A method the dialect does not have is left to the engine, within the dialect's pack.
    const own = reading.operation !== undefined && reading.method !== undefined && jsonRpcMethod(reading.operation, dialect) === reading.method;
    return { check: true, override: own ? { packId, kindId: `${reading.method}:request` } : { packId } };
  }
  if (dialect === undefined) return noDialect("request");
  if (dialect === "0.3") return { check: false, reason: V03_REST };
  const message = reading.operation ? REST_REQUEST[reading.operation] : undefined;
  return { check: false, reason: message ? `no schema kind for the A2A v1.0 HTTP+JSON ${message} body` : "no schema for this A2A v1.0 HTTP+JSON request body" };
}

/** A v0.x stream event's kind, by its `kind` (v0.2+) or its members (v0.1). */
function streamKind(dialect: Dialect, result: unknown): string {
  if (dialect === "1.0") return "stream:event";
  const r = isJsonObject(result) ? result : {};
  if (dialect === "0.1") return "artifact" in r ? "stream:artifact-update" : "stream:status-update";
  if (r.kind === "status-update") return "stream:status-update";
  if (r.kind === "artifact-update") return "stream:artifact-update";
  return "stream:event";
}

/** The plan for one answer frame's text; `status` is the HTTP status it came with. */
export function answerPlan(reading: Reading, text: string, status: number): Plan {
  const { dialect } = reading;
  const value = parsed(text);
  if (reading.binding === "jsonrpc") {
    if (dialect === undefined) return { check: true };
    const packId = PACK_OF[dialect];
    // Not JSON: the engine says so, whatever the kind.
    if (!isJsonObject(value)) return { check: true, override: { packId } };
    if ("error" in value && !("result" in value)) return { check: true, override: { packId, kindId: "error" } };
    const op = reading.operation;
    if (op === undefined) return { check: true, override: { packId } };
    if (STREAMING_OPERATIONS.has(op)) return { check: true, override: { packId, kindId: streamKind(dialect, value.result) } };
    const method = jsonRpcMethod(op, dialect);
    return { check: true, override: method ? { packId, kindId: `${method}:result` } : { packId } };
  }
  if (dialect === undefined) return noDialect("answer");
  if (value === undefined) return { check: true, override: { packId: PACK_OF[dialect] } };
  if (dialect === "0.3") return { check: false, reason: V03_REST };
  if (status >= 400) return { check: false, reason: "no schema kind for A2A v1.0 HTTP+JSON error bodies (google.rpc.Status)" };
  const answer = reading.operation ? REST_ANSWER[reading.operation] : undefined;
  if (!answer) return { check: false, reason: "no schema for this answer: the route names no A2A v1.0 operation" };
  return answer.kindId ? { check: true, override: { packId: PACK_OF[dialect], kindId: answer.kindId } } : { check: false, reason: `no schema kind for the A2A v1.0 HTTP+JSON ${answer.message} body` };
}
