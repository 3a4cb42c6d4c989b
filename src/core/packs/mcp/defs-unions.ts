import { errorObject } from "./defs-base.ts";
import { ENVELOPED, STATELESS } from "./defs-shapes.ts";
import { anyOf, between, lit, type SchemaNode, obj, ref, since, until } from "./schema-dsl.ts";

/** Which messages travel which way, and our own error-response definition. */

const onlyTasks = (node: SchemaNode): SchemaNode => between(ENVELOPED, STATELESS, node);
const taskRequests = ["GetTaskRequest", "GetTaskPayloadRequest", "CancelTaskRequest", "ListTasksRequest"].map((name) => onlyTasks(ref(name)));
const taskResults = ["GetTaskResult", "GetTaskPayloadResult", "CancelTaskResult", "ListTasksResult"].map((name) => onlyTasks(ref(name)));
const beforeStateless = (name: string): SchemaNode => until(STATELESS, ref(name));
const stateless = (name: string): SchemaNode => since(STATELESS, ref(name));

export const unionDefs: Record<string, SchemaNode> = {
  ClientRequest: anyOf(
    beforeStateless("InitializeRequest"),
    beforeStateless("PingRequest"),
    stateless("DiscoverRequest"),
    ref("ListResourcesRequest"),
    ref("ListResourceTemplatesRequest"),
    ref("ReadResourceRequest"),
    beforeStateless("SubscribeRequest"),
    beforeStateless("UnsubscribeRequest"),
    stateless("SubscriptionsListenRequest"),
    ref("ListPromptsRequest"),
    ref("GetPromptRequest"),
    ref("ListToolsRequest"),
    ref("CallToolRequest"),
    ...taskRequests,
    beforeStateless("SetLevelRequest"),
    ref("CompleteRequest"),
  ),
  // 2026-07-28 servers no longer send requests: they ask for input inside results instead.
  ServerRequest: until(
    STATELESS,
    anyOf(ref("PingRequest"), ...taskRequests, ref("CreateMessageRequest"), ref("ListRootsRequest"), since("2025-06-18", ref("ElicitRequest"))),
  ),
  ClientNotification: since(
    STATELESS,
    ref("CancelledNotification"),
    anyOf(
      ref("CancelledNotification"),
      ref("InitializedNotification"),
      ref("ProgressNotification"),
      onlyTasks(ref("TaskStatusNotification")),
      ref("RootsListChangedNotification"),
    ),
  ),
  ServerNotification: anyOf(
    ref("CancelledNotification"),
    ref("ProgressNotification"),
    ref("ResourceListChangedNotification"),
    stateless("SubscriptionsAcknowledgedNotification"),
    ref("ResourceUpdatedNotification"),
    ref("PromptListChangedNotification"),
    ref("ToolListChangedNotification"),
    onlyTasks(ref("TaskStatusNotification")),
    ref("LoggingMessageNotification"),
    onlyTasks(ref("ElicitationCompleteNotification")),
  ),
  ClientResult: since(
    STATELESS,
    ref("Result"),
    anyOf(ref("Result"), ...taskResults, ref("CreateMessageResult"), ref("ListRootsResult"), since("2025-06-18", ref("ElicitResult"))),
  ),
  ServerResult: anyOf(
    ref("Result"),
    stateless("InputRequiredResult"),
    beforeStateless("InitializeResult"),
    stateless("DiscoverResult"),
    ref("ListResourcesResult"),
    ref("ListResourceTemplatesResult"),
    ref("ReadResourceResult"),
    stateless("SubscriptionsListenResult"),
    ref("ListPromptsResult"),
    ref("GetPromptResult"),
    ref("ListToolsResult"),
    ref("CallToolResult"),
    ...taskResults,
    ref("CompleteResult"),
  ),

  /**
   * Ours: any error response. Unlike upstream it accepts `"id": null`, which JSON-RPC 2.0 requires
   * when the request's id could not be read (a parse error, an invalid request).
   */
  ErrorResponse: obj(
    { error: since(ENVELOPED, ref("Error"), errorObject()), id: { type: ["string", "integer", "null"] }, jsonrpc: lit("2.0") },
    ["error", until(ENVELOPED, "id"), "jsonrpc"],
  ),
  /** Ours: the answer to a task-augmented request (2025-11-25). */
  CreateTaskResultResponse: onlyTasks(obj({ id: ref("RequestId"), jsonrpc: lit("2.0"), result: ref("CreateTaskResult") }, ["id", "jsonrpc", "result"])),
};
