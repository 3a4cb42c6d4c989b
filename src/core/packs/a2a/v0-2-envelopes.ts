import type { MessageKind } from "../../validation/types.ts";
import { KIND, kind, methodKinds, type MethodSpec } from "./pack-kit.ts";
import { v02Model, type ModelOptions } from "./v0-2-model.ts";
import { anyOf, arrayOf, refBuilder, rpcError, rpcRequest, rpcSuccess, type EnvelopeStyle, type Schema } from "./schema-builders.ts";

/** JSON-RPC methods, envelopes and kinds shared by A2A v0.2.x and v0.3.0. */

const ref = refBuilder("definitions");

// From v0.2.1 on: requests need an id; responses carry one, null allowed (v0.2.2+).
const style: EnvelopeStyle = { requestId: { type: ["string", "integer"] }, responseId: { type: ["string", "integer", "null"] }, strict: true };

const V02_METHODS: readonly MethodSpec[] = [
  { method: "message/send", request: "SendMessageRequest", result: "SendMessageSuccessResponse", streaming: false },
  { method: "message/stream", request: "SendStreamingMessageRequest", result: null, streaming: true },
  { method: "tasks/get", request: "GetTaskRequest", result: "GetTaskSuccessResponse", streaming: false },
  { method: "tasks/cancel", request: "CancelTaskRequest", result: "CancelTaskSuccessResponse", streaming: false },
  {
    method: "tasks/pushNotificationConfig/set",
    request: "SetTaskPushNotificationConfigRequest",
    result: "SetTaskPushNotificationConfigSuccessResponse",
    streaming: false,
  },
  {
    method: "tasks/pushNotificationConfig/get",
    request: "GetTaskPushNotificationConfigRequest",
    result: "GetTaskPushNotificationConfigSuccessResponse",
    streaming: false,
  },
  {
    method: "tasks/pushNotificationConfig/list",
    request: "ListTaskPushNotificationConfigRequest",
    result: "ListTaskPushNotificationConfigSuccessResponse",
    streaming: false,
  },
  {
    method: "tasks/pushNotificationConfig/delete",
    request: "DeleteTaskPushNotificationConfigRequest",
    result: "DeleteTaskPushNotificationConfigSuccessResponse",
    streaming: false,
  },
  { method: "tasks/resubscribe", request: "TaskResubscriptionRequest", result: null, streaming: true },
];

const V03_EXTRA: readonly MethodSpec[] = [
  {
    method: "agent/getAuthenticatedExtendedCard",
    request: "GetAuthenticatedExtendedCardRequest",
    result: "GetAuthenticatedExtendedCardSuccessResponse",
    streaming: false,
  },
];

export function v02Methods(options: ModelOptions): readonly MethodSpec[] {
  return options.v03 ? [...V02_METHODS, ...V03_EXTRA] : V02_METHODS;
}

function envelopes(options: ModelOptions): Record<string, Schema> {
  const streamResult = anyOf(ref("Task"), ref("Message"), ref("TaskStatusUpdateEvent"), ref("TaskArtifactUpdateEvent"));
  const defs: Record<string, Schema> = {
    SendMessageRequest: rpcRequest(style, "message/send", ref("MessageSendParams")),
    SendStreamingMessageRequest: rpcRequest(style, "message/stream", ref("MessageSendParams")),
    GetTaskRequest: rpcRequest(style, "tasks/get", ref("TaskQueryParams")),
    CancelTaskRequest: rpcRequest(style, "tasks/cancel", ref("TaskIdParams")),
    SetTaskPushNotificationConfigRequest: rpcRequest(style, "tasks/pushNotificationConfig/set", ref("TaskPushNotificationConfig")),
    GetTaskPushNotificationConfigRequest: rpcRequest(
      style,
      "tasks/pushNotificationConfig/get",
      anyOf(ref("TaskIdParams"), ref("GetTaskPushNotificationConfigParams")),
    ),
    ListTaskPushNotificationConfigRequest: rpcRequest(style, "tasks/pushNotificationConfig/list", ref("ListTaskPushNotificationConfigParams")),
    DeleteTaskPushNotificationConfigRequest: rpcRequest(style, "tasks/pushNotificationConfig/delete", ref("DeleteTaskPushNotificationConfigParams")),
    TaskResubscriptionRequest: rpcRequest(style, "tasks/resubscribe", ref("TaskIdParams")),
    SendMessageSuccessResponse: rpcSuccess(style, anyOf(ref("Task"), ref("Message"))),
    SendStreamingMessageSuccessResponse: rpcSuccess(style, streamResult),
    // One definition per frame type names the event; each accepts a subset of the one above.
    StatusUpdateStreamResponse: rpcSuccess(style, ref("TaskStatusUpdateEvent")),
    ArtifactUpdateStreamResponse: rpcSuccess(style, ref("TaskArtifactUpdateEvent")),
    GetTaskSuccessResponse: rpcSuccess(style, ref("Task")),
    CancelTaskSuccessResponse: rpcSuccess(style, ref("Task")),
    SetTaskPushNotificationConfigSuccessResponse: rpcSuccess(style, ref("TaskPushNotificationConfig")),
    GetTaskPushNotificationConfigSuccessResponse: rpcSuccess(style, ref("TaskPushNotificationConfig")),
    ListTaskPushNotificationConfigSuccessResponse: rpcSuccess(style, arrayOf(ref("TaskPushNotificationConfig"))),
    DeleteTaskPushNotificationConfigSuccessResponse: rpcSuccess(style, { type: "null" }),
    JSONRPCErrorResponse: rpcError(style, ref("JSONRPCError")),
  };
  if (options.v03) {
    defs.GetAuthenticatedExtendedCardRequest = rpcRequest(style, "agent/getAuthenticatedExtendedCard", null);
    defs.GetAuthenticatedExtendedCardSuccessResponse = rpcSuccess(style, ref("AgentCard"));
  }
  return defs;
}

/** The full definitions container of the version. */
export function v02Definitions(options: ModelOptions): Record<string, Schema> {
  return { ...v02Model(options), ...envelopes(options) };
}

/** What a v0.3 card may carry of v1.0 on purpose: an agent serving both lists its v1.0 interfaces too (as @a2a-js/sdk does). */
const DUAL_CARD = {
  supportedInterfaces: "A card that serves v0.3 and v1.0 alike may list its v1.0 interfaces there for v1.0 clients; v0.3 clients read url.",
};

/** Every kind of the version, requests first. */
export function v02Kinds(options: ModelOptions): MessageKind[] {
  const methods = "message/stream, tasks/resubscribe";
  const cards = options.v03
    ? [{ ...kind(KIND.card, "Agent Card (v0.3, /.well-known/agent-card.json)", "AgentCard", "card"), eraBridges: DUAL_CARD }]
    : [
        kind(KIND.card, "Agent Card (v0.2.5+, with protocolVersion)", "AgentCard", "card"),
        kind(KIND.cardBefore025, "Agent Card (v0.2.0–v0.2.4, no protocolVersion)", "AgentCardBefore025", "card"),
      ];
  return [
    ...methodKinds(v02Methods(options)),
    kind(KIND.streamEvent, `stream event: Task or Message (${methods})`, "SendStreamingMessageSuccessResponse", "event"),
    kind(KIND.streamStatus, `stream status-update (${methods})`, "StatusUpdateStreamResponse", "event"),
    kind(KIND.streamArtifact, `stream artifact-update (${methods})`, "ArtifactUpdateStreamResponse", "event"),
    kind(KIND.error, "error response", "JSONRPCErrorResponse", "error"),
    ...cards,
    kind(KIND.task, "Task", "Task", "payload"),
    kind(KIND.message, "Message", "Message", "payload"),
    kind(KIND.statusEvent, "TaskStatusUpdateEvent (bare, outside JSON-RPC)", "TaskStatusUpdateEvent", "payload"),
    kind(KIND.artifactEvent, "TaskArtifactUpdateEvent (bare, outside JSON-RPC)", "TaskArtifactUpdateEvent", "payload"),
  ];
}
