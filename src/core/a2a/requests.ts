/**
 * Requests for every operation of every dialect and binding, as the HTTP request a client sends:
 * method, URL, headers, body text. The workbench shows the body in its editor and may send any
 * edit of it; the command line sends it as built.
 */
import { jsonRpcMethod, requestContentType, restRoute, STREAMING_OPERATIONS, VERSION_HEADER, type Binding, type Dialect, type Operation } from "./dialect.ts";
import { wireMessage, type MessageDraft } from "./message-parts.ts";

/** Where a request goes: one interface of a card. */
export interface RequestTarget {
  readonly url: string;
  readonly dialect: Dialect;
  readonly binding: Binding;
  readonly tenant?: string;
}

/** What an operation needs; each takes the members it uses. */
export interface OperationInput {
  readonly message?: MessageDraft;
  /** The task for get, cancel, subscribe and push configs; v0.1 send also takes the client's chosen id. */
  readonly taskId?: string;
  /** v0.1's grouping of tasks. */
  readonly sessionId?: string;
  readonly configId?: string;
  readonly pushUrl?: string;
  readonly pushToken?: string;
  readonly historyLength?: number;
  readonly contextId?: string;
  readonly acceptedOutputModes?: readonly string[];
}

export interface HeaderOptions {
  /** "auto": v1.0 sends A2A-Version, older dialects do not; "send"/"omit" force it either way. */
  readonly versionHeader?: "auto" | "send" | "omit";
  /** Extra headers (auth, extensions), sent as given. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface HttpRequestSpec {
  readonly method: "GET" | "POST" | "DELETE";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The answer is an event stream. */
  readonly streaming: boolean;
  readonly operation?: Operation;
  readonly dialect?: Dialect;
  readonly binding?: Binding;
}

export class UnsupportedOperationError extends Error {}

/** The params (JSON-RPC) or body (REST) of an operation, before the envelope. */
export function operationParams(operation: Operation, dialect: Dialect, input: OperationInput, binding: Binding = "jsonrpc"): Record<string, unknown> {
  const id = input.taskId ?? "";
  const history = input.historyLength !== undefined ? { historyLength: input.historyLength } : {};
  switch (operation) {
    case "send":
    case "stream": {
      const message = wireMessage(dialect, input.message ?? { parts: [], messageId: "" }, binding);
      const modes = input.acceptedOutputModes ? { acceptedOutputModes: [...input.acceptedOutputModes] } : {};
      if (dialect === "0.1") return { id, ...(input.sessionId ? { sessionId: input.sessionId } : {}), message, ...modes, ...history };
      const configuration = { ...modes, ...history };
      return { message, ...(Object.keys(configuration).length > 0 ? { configuration } : {}) };
    }
    case "get":
      return { id, ...history };
    case "list":
      return { ...(input.contextId ? { contextId: input.contextId } : {}), ...history };
    case "cancel":
    case "subscribe":
      return { id };
    case "push-set": {
      const config = { url: input.pushUrl ?? "", ...(input.pushToken ? { token: input.pushToken } : {}) };
      if (dialect === "1.0") return { taskId: id, ...config };
      return dialect === "0.1" ? { id, pushNotificationConfig: config } : { taskId: id, pushNotificationConfig: config };
    }
    case "push-get":
      if (dialect === "1.0") return { taskId: id, id: input.configId ?? "" };
      return dialect === "0.1" || input.configId === undefined ? { id } : { id, pushNotificationConfigId: input.configId };
    case "push-list":
      return dialect === "1.0" ? { taskId: id } : { id };
    case "push-delete":
      return dialect === "1.0" ? { taskId: id, id: input.configId ?? "" } : { id, pushNotificationConfigId: input.configId ?? "" };
    case "extended-card":
      return {};
  }
}

function headersFor(target: RequestTarget, options: HeaderOptions, hasBody: boolean, streaming: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (hasBody) headers["Content-Type"] = requestContentType(target.dialect, target.binding);
  headers.Accept = streaming ? "text/event-stream" : target.binding === "rest" && target.dialect === "1.0" ? "application/a2a+json, application/json" : "application/json";
  const mode = options.versionHeader ?? "auto";
  if (mode === "send" || (mode === "auto" && target.dialect === "1.0")) headers[VERSION_HEADER] = target.dialect === "1.0" ? "1.0" : target.dialect;
  return { ...headers, ...options.headers };
}

const join = (base: string, path: string): string => `${base.replace(/\/+$/, "")}${path}`;

/** The HTTP request for `operation`; `rpcId` is the JSON-RPC id. Throws UnsupportedOperationError where the dialect has none. */
export function buildRequest(target: RequestTarget, operation: Operation, input: OperationInput, options: HeaderOptions = {}, rpcId: string | number = 1): HttpRequestSpec {
  const streaming = STREAMING_OPERATIONS.has(operation);
  const params = operationParams(operation, target.dialect, input, target.binding);
  const common = { streaming, operation, dialect: target.dialect, binding: target.binding };
  if (target.binding === "jsonrpc") {
    const method = jsonRpcMethod(operation, target.dialect);
    if (method === undefined) throw new UnsupportedOperationError(`${operation} is not a JSON-RPC method in A2A ${target.dialect}`);
    const tenant = target.tenant ? { tenant: target.tenant } : {};
    const body = JSON.stringify({ jsonrpc: "2.0", id: rpcId, method, params: target.dialect === "1.0" ? { ...tenant, ...params } : params }, null, 2);
    return { method: "POST", url: target.url, headers: headersFor(target, options, true, streaming), body, ...common };
  }
  const route = restRoute(operation, target.dialect);
  if (route === undefined) throw new UnsupportedOperationError(`${operation} has no HTTP+JSON route in A2A ${target.dialect}`);
  const prefix = target.tenant ? `/${encodeURIComponent(target.tenant)}` : "";
  let path = prefix + route.path.replace("{id}", encodeURIComponent(input.taskId ?? "")).replace("{configId}", encodeURIComponent(input.configId ?? ""));
  if (route.method === "GET" && operation === "list") {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) query.set(k, String(v));
    if ([...query.keys()].length > 0) path += `?${query.toString()}`;
  } else if (route.method === "GET" && input.historyLength !== undefined) {
    path += `?historyLength=${input.historyLength}`;
  }
  const hasBody = route.method === "POST";
  const restBody = operation === "cancel" || operation === "subscribe" ? {} : params;
  const body = hasBody ? JSON.stringify(restBody, null, 2) : undefined;
  return { method: route.method, url: join(target.url, path), headers: headersFor(target, options, hasBody, streaming), ...(body !== undefined ? { body } : {}), ...common };
}
