import type { SchemaPack } from "../../validation/types.ts";
import { KIND, kind, methodKinds, specSource, type MethodSpec } from "./pack-kit.ts";
import { anything, int, object, refBuilder, rpcError, rpcRequest, rpcSuccess, str, type EnvelopeStyle, type Schema } from "./schema-builders.ts";
import { v1Model } from "./v1-0-model.ts";

/**
 * A2A v1.0: the proto is normative; JSON-RPC method names are the gRPC ones (`SendMessage`),
 * params and results are the proto messages in ProtoJSON, streams carry StreamResponse.
 */

const ref = refBuilder("$defs");
const TAG = "v1.0.0";
const COMMIT = "173695755607e884aa9acf8ce4feed90e32727a1";

const style: EnvelopeStyle = { requestId: { type: ["string", "integer"] }, responseId: { type: ["string", "integer", "null"] }, strict: true };

interface V1Method extends MethodSpec {
  /** The proto request message (the JSON-RPC params). */
  readonly params: string;
  /** The proto response message (the JSON-RPC result); for streams, each event's. */
  readonly returns: string;
  /** Whether params may be left out: the request message has no REQUIRED member. */
  readonly paramsOptional?: boolean;
}

function method(name: string, params: string, returns: string, extra: { streaming?: boolean; paramsOptional?: boolean } = {}): V1Method {
  const streaming = extra.streaming ?? false;
  return {
    method: name,
    request: `${name}JsonRpcRequest`,
    result: streaming ? null : `${name}JsonRpcResponse`,
    streaming,
    params,
    returns,
    ...(extra.paramsOptional ? { paramsOptional: true } : {}),
  };
}

export const V1_METHODS: readonly V1Method[] = [
  method("SendMessage", "SendMessageRequest", "SendMessageResponse"),
  method("SendStreamingMessage", "SendMessageRequest", "StreamResponse", { streaming: true }),
  method("GetTask", "GetTaskRequest", "Task"),
  method("ListTasks", "ListTasksRequest", "ListTasksResponse", { paramsOptional: true }),
  method("CancelTask", "CancelTaskRequest", "Task"),
  method("SubscribeToTask", "SubscribeToTaskRequest", "StreamResponse", { streaming: true }),
  method("CreateTaskPushNotificationConfig", "TaskPushNotificationConfig", "TaskPushNotificationConfig"),
  method("GetTaskPushNotificationConfig", "GetTaskPushNotificationConfigRequest", "TaskPushNotificationConfig"),
  method("ListTaskPushNotificationConfigs", "ListTaskPushNotificationConfigsRequest", "ListTaskPushNotificationConfigsResponse"),
  method("DeleteTaskPushNotificationConfig", "DeleteTaskPushNotificationConfigRequest", "Empty"),
  method("GetExtendedAgentCard", "GetExtendedAgentCardRequest", "AgentCard", { paramsOptional: true }),
];

function envelopes(): Record<string, Schema> {
  const defs: Record<string, Schema> = {};
  for (const m of V1_METHODS) {
    defs[m.request] = rpcRequest(style, m.method, ref(m.params), !m.paramsOptional);
    if (m.result) defs[m.result] = rpcSuccess(style, ref(m.returns));
  }
  defs.StreamResponseJsonRpcResponse = rpcSuccess(style, ref("StreamResponse"));
  // error.data is free-form in JSON-RPC; v1.0 puts an array of google.protobuf.Any there (a rule checks it).
  defs.JsonRpcError = object({ code: int(), message: str(), data: anything() }, ["code", "message"]);
  defs.JsonRpcErrorResponse = rpcError(style, ref("JsonRpcError"));
  return defs;
}

export const A2A_V10: SchemaPack = {
  id: "a2a/v1.0",
  family: "a2a",
  version: "1.0",
  label: "A2A v1.0",
  order: 4,
  draft: "2020-12",
  assertFormats: false,
  document: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://patchbay.dev/schemas/a2a/v1.0.json",
    title: "Patchbay schema for A2A v1.0",
    $defs: { ...v1Model(), ...envelopes() },
  },
  sources: [
    specSource(TAG, COMMIT, "specification/a2a.proto", "A2A v1.0.0 protocol buffers (normative)"),
    specSource(TAG, COMMIT, "docs/specification.md", "A2A v1.0.0 specification (§5.5 JSON naming, §5.7 field presence, §9 JSON-RPC binding)"),
  ],
  notes: [
    "Authored from the v1.0.0 proto; upstream commits no JSON schema for v1.0. Compared with the schema protoc-gen-jsonschema derives from the same proto (definitions keyed by message name, `required` from field_behavior).",
    "snake_case member names (context_id) are refused: spec §5.5 requires camelCase in JSON, though ProtoJSON parsers and the generated schema accept the proto names. The family adds a hint naming the camelCase member.",
    "Enum members accept the value names and the numbers of the defined values only (TaskState 0–8, Role 0–2); the generated schema accepts any int32. Numbers and *_UNSPECIFIED get warnings (a2a.v1.integer-enum, a2a.v1.unspecified-enum).",
    "REQUIRED repeated, map and integer members that ProtoJSON writers omit when empty or zero (AgentCard defaultInputModes/defaultOutputModes/skills, AgentSkill.tags, Message.parts, Artifact.parts, ListTasksResponse members, OAuth flow scopes) are not required by the schema; their absence, or an empty list, is a warning (a2a.v1.omitted-default). supportedInterfaces stays required: a card without one cannot be called.",
    "`oneof` groups (Part content, SendMessageResponse and StreamResponse payload, SecurityScheme, OAuthFlows) are checked as rules (a2a.v1.oneof), as JSON Schema generated from the proto does not enforce them.",
    "JSON-RPC envelopes (<Method>JsonRpcRequest, <Method>JsonRpcResponse, StreamResponseJsonRpcResponse, JsonRpcErrorResponse) are authored from spec §9; the derived schema covers only their params and results.",
    "DeleteTaskPushNotificationConfig answers google.protobuf.Empty: `{}`, or null as some writers send.",
    "Formats are annotations (assertFormats false): timestamps are not checked as date-time.",
  ],
  kinds: [
    ...methodKinds(V1_METHODS),
    kind(KIND.streamEvent, "StreamResponse event (SendStreamingMessage, SubscribeToTask)", "StreamResponseJsonRpcResponse", "event"),
    kind(KIND.error, "error response", "JsonRpcErrorResponse", "error"),
    kind(KIND.card, "Agent Card (v1.0, supportedInterfaces)", "AgentCard", "card"),
    kind(KIND.task, "Task", "Task", "payload"),
    kind(KIND.message, "Message", "Message", "payload"),
    kind(KIND.streamResponse, "StreamResponse (REST stream or push notification body)", "StreamResponse", "payload"),
  ],
};
