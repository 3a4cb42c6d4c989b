import type { SchemaPack } from "../../validation/types.ts";
import { KIND, kind, methodKinds, specSource, type MethodSpec } from "./pack-kit.ts";
import {
  anyOf,
  arrayOf,
  bool,
  int,
  lit,
  looseObject,
  object,
  oneOfStrings,
  refBuilder,
  rpcRequest,
  str,
  strings,
  timestamp,
  type EnvelopeStyle,
  type Schema,
} from "./schema-builders.ts";

/**
 * A2A v0.1.0, the "Google A2A" dialect: `tasks/send`, client-chosen task ids, `sessionId`, parts
 * discriminated by `type`, card at /.well-known/agent.json with `authentication`.
 */

const ref = refBuilder("definitions");
const TAG = "v0.1.0";
const COMMIT = "ce95d60c49c44511b73a391c798e8e8c814bce66";

// Upstream's v0.1 schema types every id as integer or string and requires neither id nor jsonrpc.
const style: EnvelopeStyle = { requestId: { type: ["integer", "string"] }, responseId: { type: ["integer", "string"] }, strict: false };

/** v0.1 responses declare both result and error and require neither, as upstream does. */
function response(result: Schema): Schema {
  return object({ jsonrpc: lit("2.0"), id: style.responseId, result, error: ref("JSONRPCError") });
}

const model: Record<string, Schema> = {
  TaskState: oneOfStrings(["submitted", "working", "input-required", "completed", "canceled", "failed", "unknown"]),
  TextPart: object({ type: lit("text"), text: str(), metadata: looseObject() }, ["type", "text"]),
  FileContent: object({ name: str(), mimeType: str(), bytes: str(), uri: str() }),
  FilePart: object({ type: lit("file"), file: ref("FileContent"), metadata: looseObject() }, ["type", "file"]),
  DataPart: object({ type: lit("data"), data: looseObject(), metadata: looseObject() }, ["type", "data"]),
  Part: anyOf(ref("TextPart"), ref("FilePart"), ref("DataPart")),
  Message: object({ role: oneOfStrings(["user", "agent"]), parts: arrayOf(ref("Part")), metadata: looseObject() }, ["role", "parts"]),
  TaskStatus: object({ state: ref("TaskState"), message: ref("Message"), timestamp: timestamp() }, ["state"]),
  Artifact: object(
    {
      name: str(),
      description: str(),
      parts: arrayOf(ref("Part")),
      index: int(),
      append: bool(),
      lastChunk: bool(),
      metadata: looseObject(),
    },
    ["parts"],
  ),
  Task: object(
    {
      id: str(),
      sessionId: str(),
      status: ref("TaskStatus"),
      artifacts: arrayOf(ref("Artifact")),
      history: arrayOf(ref("Message")),
      metadata: looseObject(),
    },
    ["id", "status"],
  ),
  TaskStatusUpdateEvent: object({ id: str(), status: ref("TaskStatus"), final: bool(), metadata: looseObject() }, ["id", "status"]),
  TaskArtifactUpdateEvent: object({ id: str(), artifact: ref("Artifact"), metadata: looseObject() }, ["id", "artifact"]),
  AuthenticationInfo: object({ schemes: strings(), credentials: str() }, ["schemes"]),
  PushNotificationConfig: object({ url: str(), token: str(), authentication: ref("AuthenticationInfo") }, ["url"]),
  TaskPushNotificationConfig: object({ id: str(), pushNotificationConfig: ref("PushNotificationConfig") }, ["id", "pushNotificationConfig"]),
  TaskIdParams: object({ id: str(), metadata: looseObject() }, ["id"]),
  TaskQueryParams: object({ id: str(), historyLength: int(), metadata: looseObject() }, ["id"]),
  TaskSendParams: object(
    {
      id: str(),
      sessionId: str(),
      message: ref("Message"),
      pushNotification: ref("PushNotificationConfig"),
      historyLength: int(),
      metadata: looseObject(),
    },
    ["id", "message"],
  ),
  AgentProvider: object({ organization: str(), url: str() }, ["organization"]),
  AgentCapabilities: object({ streaming: bool(), pushNotifications: bool(), stateTransitionHistory: bool() }),
  AgentAuthentication: object({ schemes: strings(), credentials: str() }, ["schemes"]),
  AgentSkill: object(
    {
      id: str(),
      name: str(),
      description: str(),
      tags: strings(),
      examples: strings(),
      inputModes: strings(),
      outputModes: strings(),
    },
    ["id", "name"],
  ),
  AgentCard: object(
    {
      name: str(),
      description: str(),
      url: str(),
      provider: ref("AgentProvider"),
      version: str(),
      documentationUrl: str(),
      capabilities: ref("AgentCapabilities"),
      authentication: ref("AgentAuthentication"),
      defaultInputModes: strings(),
      defaultOutputModes: strings(),
      skills: arrayOf(ref("AgentSkill")),
    },
    ["name", "url", "version", "capabilities", "skills"],
  ),
  // v0.1 types error data as an object, where later versions allow any value.
  JSONRPCError: object({ code: int(), message: str(), data: looseObject() }, ["code", "message"]),
};

export const V01_METHODS: readonly MethodSpec[] = [
  { method: "tasks/send", request: "SendTaskRequest", result: "SendTaskResponse", streaming: false },
  { method: "tasks/sendSubscribe", request: "SendTaskStreamingRequest", result: null, streaming: true },
  { method: "tasks/get", request: "GetTaskRequest", result: "GetTaskResponse", streaming: false },
  { method: "tasks/cancel", request: "CancelTaskRequest", result: "CancelTaskResponse", streaming: false },
  { method: "tasks/pushNotification/set", request: "SetTaskPushNotificationRequest", result: "SetTaskPushNotificationResponse", streaming: false },
  { method: "tasks/pushNotification/get", request: "GetTaskPushNotificationRequest", result: "GetTaskPushNotificationResponse", streaming: false },
  { method: "tasks/resubscribe", request: "TaskResubscriptionRequest", result: null, streaming: true },
];

const envelopes: Record<string, Schema> = {
  SendTaskRequest: rpcRequest(style, "tasks/send", ref("TaskSendParams")),
  SendTaskStreamingRequest: rpcRequest(style, "tasks/sendSubscribe", ref("TaskSendParams")),
  GetTaskRequest: rpcRequest(style, "tasks/get", ref("TaskQueryParams")),
  CancelTaskRequest: rpcRequest(style, "tasks/cancel", ref("TaskIdParams")),
  SetTaskPushNotificationRequest: rpcRequest(style, "tasks/pushNotification/set", ref("TaskPushNotificationConfig")),
  GetTaskPushNotificationRequest: rpcRequest(style, "tasks/pushNotification/get", ref("TaskIdParams")),
  TaskResubscriptionRequest: rpcRequest(style, "tasks/resubscribe", ref("TaskQueryParams")),
  SendTaskResponse: response(ref("Task")),
  GetTaskResponse: response(ref("Task")),
  CancelTaskResponse: response(ref("Task")),
  SetTaskPushNotificationResponse: response(ref("TaskPushNotificationConfig")),
  GetTaskPushNotificationResponse: response(ref("TaskPushNotificationConfig")),
  // Upstream has one streaming response (either event); one definition per event names the frame.
  SendTaskStatusUpdateResponse: response(ref("TaskStatusUpdateEvent")),
  SendTaskArtifactUpdateResponse: response(ref("TaskArtifactUpdateEvent")),
  // Upstream v0.1 has no error-response definition; this one requires `error` and allows a null id.
  JSONRPCErrorResponse: object({ jsonrpc: lit("2.0"), id: { type: ["integer", "string", "null"] }, error: ref("JSONRPCError") }, ["error"]),
};

export const A2A_V01: SchemaPack = {
  id: "a2a/v0.1.0",
  family: "a2a",
  version: "0.1.0",
  label: "A2A v0.1 (Google A2A)",
  order: 1,
  draft: "draft-07",
  assertFormats: false,
  document: {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://patchbay.dev/schemas/a2a/v0.1.0.json",
    title: "Patchbay schema for A2A v0.1.0",
    definitions: { ...model, ...envelopes },
  },
  sources: [
    specSource(TAG, COMMIT, "specification/json/a2a.json", "A2A v0.1.0 JSON schema (facts only)"),
    specSource(TAG, COMMIT, "docs/specification.md", "A2A v0.1.0 specification"),
  ],
  notes: [
    "Streaming frames have one definition per event (SendTaskStatusUpdateResponse, SendTaskArtifactUpdateResponse) where upstream has one response accepting either; a frame valid here is valid upstream.",
    "Error responses have their own definition (JSONRPCErrorResponse): `error` required and the id may be null, as JSON-RPC 2.0 allows for an unreadable request. Upstream v0.1 types ids as integer or string only (null is allowed upstream from v0.2.2).",
    "As upstream, neither `jsonrpc` nor `id` is a required member; the JSON-RPC rules (jsonrpc.version, a2a.request-id) report their absence instead.",
    "Formats are annotations (assertFormats false): upstream only marks TaskStatus.timestamp as date-time, and v0.1 peers write ISO 8601 loosely.",
    "The specific error definitions (TaskNotFoundError, ...) are not repeated: every one is a JSONRPCError with a fixed code, so they accept the same messages; the family's notes name the code instead.",
  ],
  kinds: [
    ...methodKinds(V01_METHODS),
    kind(KIND.streamStatus, "stream status update (tasks/sendSubscribe, tasks/resubscribe)", "SendTaskStatusUpdateResponse", "event"),
    kind(KIND.streamArtifact, "stream artifact update (tasks/sendSubscribe, tasks/resubscribe)", "SendTaskArtifactUpdateResponse", "event"),
    kind(KIND.error, "error response", "JSONRPCErrorResponse", "error"),
    kind(KIND.card, "Agent Card (v0.1, /.well-known/agent.json)", "AgentCard", "card"),
    kind(KIND.task, "Task", "Task", "payload"),
    kind(KIND.message, "Message", "Message", "payload"),
  ],
};
