import { named } from "./defs-server.ts";
import {
  ENVELOPED,
  STATELESS,
  bareNotification,
  legacyRequestParams,
  meta,
  notification,
  notificationParams,
  page,
  params,
  request,
  result,
} from "./defs-shapes.ts";
import {
  allOf,
  anyOf,
  arr,
  between,
  bool,
  int,
  lit,
  looseObject,
  type SchemaNode,
  type NodeObject,
  num,
  obj,
  oneOfStrings,
  record,
  ref,
  since,
  str,
  until,
} from "./schema-dsl.ts";

/**
 * Session lifecycle and its 2026-07-28 replacement: capabilities, initialize, ping, cancellation,
 * progress, discovery, subscriptions, the 2025-11-25 tasks, and multi-round-trip input.
 */

/** A capability flag object: free-form, and from 2026-07-28 a JSON object. */
const flag = since(STATELESS, ref("JSONObject"), looseObject());
const listChanged = (): NodeObject => obj({ listChanged: bool() });
const taskCapabilities = (requests: NodeObject): SchemaNode =>
  between(ENVELOPED, STATELESS, obj({ cancel: looseObject(), list: looseObject(), requests }));

const initializeParams = params(
  { capabilities: ref("ClientCapabilities"), clientInfo: ref("Implementation"), protocolVersion: str() },
  ["capabilities", "clientInfo", "protocolVersion"],
);
const cancelledParams = notificationParams(
  { reason: str(), requestId: ref("RequestId") },
  // 2025-11-25 let a cancellation name a task instead of a request; 2026-07-28 dropped tasks again.
  [until(ENVELOPED, "requestId", since(STATELESS, "requestId"))],
);
const progressParams = notificationParams(
  { message: since("2025-03-26", str()), progress: num(), progressToken: ref("ProgressToken"), total: num() },
  ["progress", "progressToken"],
);
const taskIdParams = (): NodeObject => obj({ taskId: str() }, ["taskId"]);
const onlyTasks = (node: SchemaNode): SchemaNode => between(ENVELOPED, STATELESS, node);

export const lifecycleDefs: Record<string, SchemaNode> = {
  ClientCapabilities: obj({
    elicitation: since("2025-06-18", since(ENVELOPED, obj({ form: flag, url: flag }), looseObject())),
    experimental: record(flag),
    extensions: since(STATELESS, record(flag)),
    roots: obj({ listChanged: until(STATELESS, bool()) }),
    sampling: since(ENVELOPED, obj({ context: flag, tools: flag }), looseObject()),
    tasks: taskCapabilities(
      obj({ elicitation: obj({ create: looseObject() }), sampling: obj({ createMessage: looseObject() }) }),
    ),
  }),
  ServerCapabilities: obj({
    completions: since("2025-03-26", flag),
    experimental: record(flag),
    extensions: since(STATELESS, record(flag)),
    logging: flag,
    prompts: listChanged(),
    resources: obj({ listChanged: bool(), subscribe: bool() }),
    tasks: taskCapabilities(obj({ tools: obj({ call: looseObject() }) })),
    tools: listChanged(),
  }),

  InitializeRequestParams: between(ENVELOPED, STATELESS, initializeParams),
  InitializeRequest: until(STATELESS, request("initialize", named("InitializeRequestParams", initializeParams), "params")),
  InitializeResult: until(
    STATELESS,
    result(
      { capabilities: ref("ServerCapabilities"), instructions: str(), protocolVersion: str(), serverInfo: ref("Implementation") },
      ["capabilities", "protocolVersion", "serverInfo"],
    ),
  ),
  InitializedNotification: until(STATELESS, bareNotification("notifications/initialized")),
  PingRequest: until(STATELESS, request("ping", since(ENVELOPED, ref("RequestParams"), legacyRequestParams()), null)),
  CancelledNotificationParams: since(ENVELOPED, cancelledParams),
  CancelledNotification: notification("notifications/cancelled", named("CancelledNotificationParams", cancelledParams), true),
  ProgressNotificationParams: since(ENVELOPED, progressParams),
  ProgressNotification: notification("notifications/progress", named("ProgressNotificationParams", progressParams), true),

  DiscoverRequest: since(STATELESS, request("server/discover", ref("RequestParams"), "params")),
  DiscoverResult: since(
    STATELESS,
    result(
      { capabilities: ref("ServerCapabilities"), instructions: str(), supportedVersions: arr(str()) },
      ["capabilities", "supportedVersions"],
      { cacheable: true },
    ),
  ),
  SubscriptionFilter: since(
    STATELESS,
    obj({ promptsListChanged: bool(), resourceSubscriptions: arr(str()), resourcesListChanged: bool(), toolsListChanged: bool() }),
  ),
  SubscriptionsListenRequestParams: since(STATELESS, params({ notifications: ref("SubscriptionFilter") }, ["notifications"])),
  SubscriptionsListenRequest: since(STATELESS, request("subscriptions/listen", ref("SubscriptionsListenRequestParams"), "params")),
  SubscriptionsListenResultMetaObject: since(
    STATELESS,
    obj(
      { "io.modelcontextprotocol/serverInfo": ref("Implementation"), "io.modelcontextprotocol/subscriptionId": ref("RequestId") },
      ["io.modelcontextprotocol/subscriptionId"],
    ),
  ),
  SubscriptionsListenResult: since(STATELESS, obj({ _meta: ref("SubscriptionsListenResultMetaObject"), resultType: str() }, ["_meta", "resultType"])),
  SubscriptionsAcknowledgedNotificationParams: since(
    STATELESS,
    obj({ _meta: ref("NotificationMetaObject"), notifications: ref("SubscriptionFilter") }, ["notifications"]),
  ),
  SubscriptionsAcknowledgedNotification: since(
    STATELESS,
    notification("notifications/subscriptions/acknowledged", ref("SubscriptionsAcknowledgedNotificationParams"), true),
  ),

  InputRequest: since(STATELESS, anyOf(ref("CreateMessageRequest"), ref("ListRootsRequest"), ref("ElicitRequest"))),
  InputRequests: since(STATELESS, record(ref("InputRequest"))),
  InputResponse: since(STATELESS, anyOf(ref("CreateMessageResult"), ref("ListRootsResult"), ref("ElicitResult"))),
  InputResponses: since(STATELESS, record(ref("InputResponse"))),
  // Ours says resultType is "input_required", as the spec's ResultType does; upstream leaves it
  // any string, which lets every result with a resultType pass as an InputRequiredResult.
  InputRequiredResult: since(STATELESS, result({ inputRequests: ref("InputRequests"), requestState: str(), resultType: lit("input_required") }, [])),
  InputResponseRequestParams: since(STATELESS, params({ inputResponses: ref("InputResponses"), requestState: str() })),

  TaskMetadata: onlyTasks(obj({ ttl: int() })),
  RelatedTaskMetadata: onlyTasks(obj({ taskId: str() }, ["taskId"])),
  TaskStatus: onlyTasks(oneOfStrings("cancelled", "completed", "failed", "input_required", "working")),
  Task: onlyTasks(
    obj(
      {
        createdAt: str(),
        lastUpdatedAt: str(),
        pollInterval: int(),
        status: ref("TaskStatus"),
        statusMessage: str(),
        taskId: str(),
        ttl: { type: ["integer", "null"] },
      },
      ["createdAt", "lastUpdatedAt", "status", "taskId", "ttl"],
    ),
  ),
  TaskAugmentedRequestParams: onlyTasks(params({ task: ref("TaskMetadata") })),
  CreateTaskResult: onlyTasks(result({ task: ref("Task") }, ["task"])),
  GetTaskRequest: onlyTasks(request("tasks/get", taskIdParams(), "params")),
  GetTaskResult: onlyTasks(allOf(ref("Result"), ref("Task"))),
  GetTaskPayloadRequest: onlyTasks(request("tasks/result", taskIdParams(), "params")),
  GetTaskPayloadResult: onlyTasks(obj({ _meta: meta.result }, [], { additionalProperties: {} })),
  CancelTaskRequest: onlyTasks(request("tasks/cancel", taskIdParams(), "params")),
  CancelTaskResult: onlyTasks(allOf(ref("Result"), ref("Task"))),
  ListTasksRequest: onlyTasks(request("tasks/list", ref("PaginatedRequestParams"), null)),
  ListTasksResult: onlyTasks(page("tasks", "Task")),
  TaskStatusNotificationParams: onlyTasks(allOf(ref("NotificationParams"), ref("Task"))),
  TaskStatusNotification: onlyTasks(notification("notifications/tasks/status", ref("TaskStatusNotificationParams"), true)),
};
