/**
 * The A2A-over-HTTP dialects and what differs between them on the wire: method names per
 * binding, REST routes, task states, and where the card lives. One table, read by the request
 * builder, the event reader and the views; facts from the A2A specification's tagged versions.
 */

/** The wire dialects in the wild, oldest first: "Google A2A" v0.1, v0.2.x, v0.3, v1.0. */
export const DIALECTS = ["0.1", "0.2", "0.3", "1.0"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** JSON-RPC over HTTP, or the HTTP+JSON (REST) binding (v0.3 and later). */
export type Binding = "jsonrpc" | "rest";

export const DIALECT_LABELS: Readonly<Record<Dialect, string>> = {
  "0.1": 'v0.1 ("Google A2A")',
  "0.2": "v0.2.x",
  "0.3": "v0.3",
  "1.0": "v1.0",
};

/** What a client can ask an agent, by its own name; each dialect spells it differently. */
export const OPERATIONS = [
  "send",
  "stream",
  "get",
  "list",
  "cancel",
  "subscribe",
  "push-set",
  "push-get",
  "push-list",
  "push-delete",
  "extended-card",
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const OPERATION_LABELS: Readonly<Record<Operation, string>> = {
  send: "Send a message",
  stream: "Send and stream",
  get: "Get a task",
  list: "List tasks",
  cancel: "Cancel a task",
  subscribe: "Resubscribe to a task",
  "push-set": "Set a push config",
  "push-get": "Get a push config",
  "push-list": "List push configs",
  "push-delete": "Delete a push config",
  "extended-card": "Get the extended card",
};

type PerDialect<T> = Readonly<Record<Dialect, T | undefined>>;

/** JSON-RPC method names; undefined where the dialect has no such method. */
const JSONRPC_METHODS: Readonly<Record<Operation, PerDialect<string>>> = {
  send: { "0.1": "tasks/send", "0.2": "message/send", "0.3": "message/send", "1.0": "SendMessage" },
  stream: { "0.1": "tasks/sendSubscribe", "0.2": "message/stream", "0.3": "message/stream", "1.0": "SendStreamingMessage" },
  get: { "0.1": "tasks/get", "0.2": "tasks/get", "0.3": "tasks/get", "1.0": "GetTask" },
  list: { "0.1": undefined, "0.2": undefined, "0.3": undefined, "1.0": "ListTasks" },
  cancel: { "0.1": "tasks/cancel", "0.2": "tasks/cancel", "0.3": "tasks/cancel", "1.0": "CancelTask" },
  subscribe: { "0.1": "tasks/resubscribe", "0.2": "tasks/resubscribe", "0.3": "tasks/resubscribe", "1.0": "SubscribeToTask" },
  "push-set": { "0.1": "tasks/pushNotification/set", "0.2": "tasks/pushNotificationConfig/set", "0.3": "tasks/pushNotificationConfig/set", "1.0": "CreateTaskPushNotificationConfig" },
  "push-get": { "0.1": "tasks/pushNotification/get", "0.2": "tasks/pushNotificationConfig/get", "0.3": "tasks/pushNotificationConfig/get", "1.0": "GetTaskPushNotificationConfig" },
  "push-list": { "0.1": undefined, "0.2": "tasks/pushNotificationConfig/list", "0.3": "tasks/pushNotificationConfig/list", "1.0": "ListTaskPushNotificationConfigs" },
  "push-delete": { "0.1": undefined, "0.2": "tasks/pushNotificationConfig/delete", "0.3": "tasks/pushNotificationConfig/delete", "1.0": "DeleteTaskPushNotificationConfig" },
  "extended-card": { "0.1": undefined, "0.2": undefined, "0.3": "agent/getAuthenticatedExtendedCard", "1.0": "GetExtendedAgentCard" },
};

export interface RestRoute {
  readonly method: "GET" | "POST" | "DELETE";
  /** Relative to the interface URL; `{id}` and `{configId}` are filled in. */
  readonly path: string;
}

/** HTTP+JSON routes: v0.3 prefixes `/v1`, v1.0 does not. v1.0 subscribe is POST in the spec, GET in the proto. */
const REST_ROUTES: Readonly<Record<Operation, Partial<Record<"0.3" | "1.0", RestRoute>>>> = {
  send: { "0.3": { method: "POST", path: "/v1/message:send" }, "1.0": { method: "POST", path: "/message:send" } },
  stream: { "0.3": { method: "POST", path: "/v1/message:stream" }, "1.0": { method: "POST", path: "/message:stream" } },
  get: { "0.3": { method: "GET", path: "/v1/tasks/{id}" }, "1.0": { method: "GET", path: "/tasks/{id}" } },
  list: { "0.3": { method: "GET", path: "/v1/tasks" }, "1.0": { method: "GET", path: "/tasks" } },
  cancel: { "0.3": { method: "POST", path: "/v1/tasks/{id}:cancel" }, "1.0": { method: "POST", path: "/tasks/{id}:cancel" } },
  subscribe: { "0.3": { method: "POST", path: "/v1/tasks/{id}:subscribe" }, "1.0": { method: "POST", path: "/tasks/{id}:subscribe" } },
  "push-set": { "0.3": { method: "POST", path: "/v1/tasks/{id}/pushNotificationConfigs" }, "1.0": { method: "POST", path: "/tasks/{id}/pushNotificationConfigs" } },
  "push-get": { "0.3": { method: "GET", path: "/v1/tasks/{id}/pushNotificationConfigs/{configId}" }, "1.0": { method: "GET", path: "/tasks/{id}/pushNotificationConfigs/{configId}" } },
  "push-list": { "0.3": { method: "GET", path: "/v1/tasks/{id}/pushNotificationConfigs" }, "1.0": { method: "GET", path: "/tasks/{id}/pushNotificationConfigs" } },
  "push-delete": { "0.3": { method: "DELETE", path: "/v1/tasks/{id}/pushNotificationConfigs/{configId}" }, "1.0": { method: "DELETE", path: "/tasks/{id}/pushNotificationConfigs/{configId}" } },
  "extended-card": { "0.3": { method: "GET", path: "/v1/card" }, "1.0": { method: "GET", path: "/extendedAgentCard" } },
};

export function jsonRpcMethod(operation: Operation, dialect: Dialect): string | undefined {
  return JSONRPC_METHODS[operation][dialect];
}

export function restRoute(operation: Operation, dialect: Dialect): RestRoute | undefined {
  return dialect === "0.3" || dialect === "1.0" ? REST_ROUTES[operation][dialect] : undefined;
}

/** The bindings a dialect has: REST arrived with v0.3. */
export function bindingsOf(dialect: Dialect): readonly Binding[] {
  return dialect === "0.3" || dialect === "1.0" ? ["jsonrpc", "rest"] : ["jsonrpc"];
}

/** The operations a dialect offers over a binding, in menu order. */
export function operationsOf(dialect: Dialect, binding: Binding): Operation[] {
  return OPERATIONS.filter((op) => (binding === "rest" ? restRoute(op, dialect) !== undefined : jsonRpcMethod(op, dialect) !== undefined));
}

/** Which operation and dialects a JSON-RPC method name belongs to, for raw bodies and captures. */
export function operationOfMethod(method: string): { readonly operation: Operation; readonly dialects: Dialect[] } | undefined {
  for (const operation of OPERATIONS) {
    const dialects = DIALECTS.filter((d) => JSONRPC_METHODS[operation][d] === method);
    if (dialects.length > 0) return { operation, dialects };
  }
  return undefined;
}

/** Operations whose answer is an event stream. */
export const STREAMING_OPERATIONS: ReadonlySet<Operation> = new Set(["stream", "subscribe"]);

/** Card locations: v0.3 moved the well-known path; v0.1 and v0.2 agents (and ADK) still serve the old one. */
export const CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json"] as const;

/** The `A2A-Version` value a dialect sends; only v1.0 clients send it, and its absence means 0.3. */
export const VERSION_HEADER = "A2A-Version";

/** Media types: REST v1.0 uses application/a2a+json; JSON-RPC and older REST use application/json. */
export function requestContentType(dialect: Dialect, binding: Binding): string {
  return binding === "rest" && dialect === "1.0" ? "application/a2a+json" : "application/json";
}
