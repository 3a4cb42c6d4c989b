import { anything, arrayOf, bool, looseObject, mapOf, object, refBuilder, str, strings, timestamp, type Schema } from "./schema-builders.ts";

/**
 * The A2A v1.0 data model as ProtoJSON writes it, from `specification/a2a.proto` at v1.0.0:
 * camelCase members, enums by name (integers accepted), `required` from the proto's
 * field_behavior = REQUIRED, unknown members refused.
 */

const ref = refBuilder("$defs");

/**
 * REQUIRED repeated, map and integer members that ProtoJSON writers leave out when empty or
 * zero. The schema does not require them; the family warns when one is missing (or empty).
 */
export const OMITTABLE_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  AgentCard: ["defaultInputModes", "defaultOutputModes", "skills"],
  AgentSkill: ["tags"],
  Message: ["parts"],
  Artifact: ["parts"],
  ListTasksResponse: ["tasks", "nextPageToken", "pageSize", "totalSize"],
  AuthorizationCodeOAuthFlow: ["scopes"],
  ClientCredentialsOAuthFlow: ["scopes"],
  DeviceCodeOAuthFlow: ["scopes"],
};

/** Members of a proto `oneof`: exactly one must be set, which JSON Schema here does not enforce. */
export const ONEOF_GROUPS: Readonly<Record<string, { readonly name: string; readonly members: readonly string[] }>> = {
  Part: { name: "content", members: ["text", "raw", "url", "data"] },
  SendMessageResponse: { name: "payload", members: ["task", "message"] },
  StreamResponse: { name: "payload", members: ["task", "message", "statusUpdate", "artifactUpdate"] },
  SecurityScheme: {
    name: "scheme",
    members: ["apiKeySecurityScheme", "httpAuthSecurityScheme", "oauth2SecurityScheme", "openIdConnectSecurityScheme", "mtlsSecurityScheme"],
  },
  OAuthFlows: { name: "flow", members: ["authorizationCode", "clientCredentials", "implicit", "password", "deviceCode"] },
};

export const TASK_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;
export const ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] as const;

/** A proto enum: its names, or (as ProtoJSON parsers accept) the numbers of its values. */
const protoEnum = (names: readonly string[]): Schema => ({
  anyOf: [
    { type: "string", enum: names },
    { type: "integer", minimum: 0, maximum: names.length - 1 },
  ],
});
/** int32: a number, or the decimal string ProtoJSON parsers also accept. */
const int32 = (): Schema => ({
  anyOf: [
    { type: "integer", minimum: -2147483648, maximum: 2147483647 },
    { type: "string", pattern: "^-?[0-9]+$" },
  ],
});
/** bytes: base64. */
const bytes = (): Schema => ({ type: "string", pattern: "^[A-Za-z0-9+/]*={0,2}$" });

/** A proto message: closed, with its REQUIRED members (less the omittable ones) required. */
function message(name: string, properties: Readonly<Record<string, Schema>>, required: readonly string[] = []): [string, Schema] {
  const omittable = OMITTABLE_REQUIRED[name] ?? [];
  return [name, object(properties, required.filter((m) => !omittable.includes(m)), { closed: true })];
}

const taskMessages = [
  message("TaskStatus", { state: protoEnum(TASK_STATES), message: ref("Message"), timestamp: ref("Timestamp") }, ["state"]),
  message("Part", {
    text: str(),
    raw: bytes(),
    url: str(),
    data: ref("Value"),
    metadata: ref("Struct"),
    filename: str(),
    mediaType: str(),
  }),
  message(
    "Message",
    {
      messageId: str(),
      contextId: str(),
      taskId: str(),
      role: protoEnum(ROLES),
      parts: arrayOf(ref("Part")),
      metadata: ref("Struct"),
      extensions: strings(),
      referenceTaskIds: strings(),
    },
    ["messageId", "role", "parts"],
  ),
  message(
    "Artifact",
    { artifactId: str(), name: str(), description: str(), parts: arrayOf(ref("Part")), metadata: ref("Struct"), extensions: strings() },
    ["artifactId", "parts"],
  ),
  message(
    "Task",
    {
      id: str(),
      contextId: str(),
      status: ref("TaskStatus"),
      artifacts: arrayOf(ref("Artifact")),
      history: arrayOf(ref("Message")),
      metadata: ref("Struct"),
    },
    ["id", "status"],
  ),
  message("TaskStatusUpdateEvent", { taskId: str(), contextId: str(), status: ref("TaskStatus"), metadata: ref("Struct") }, [
    "taskId",
    "contextId",
    "status",
  ]),
  message(
    "TaskArtifactUpdateEvent",
    { taskId: str(), contextId: str(), artifact: ref("Artifact"), append: bool(), lastChunk: bool(), metadata: ref("Struct") },
    ["taskId", "contextId", "artifact"],
  ),
  message("AuthenticationInfo", { scheme: str(), credentials: str() }, ["scheme"]),
  message(
    "TaskPushNotificationConfig",
    { tenant: str(), id: str(), taskId: str(), url: str(), token: str(), authentication: ref("AuthenticationInfo") },
    ["url"],
  ),
];

const scopes = (): Schema => mapOf(str());
const securityMessages = [
  message("StringList", { list: strings() }),
  message("SecurityRequirement", { schemes: mapOf(ref("StringList")) }),
  message("SecurityScheme", {
    apiKeySecurityScheme: ref("APIKeySecurityScheme"),
    httpAuthSecurityScheme: ref("HTTPAuthSecurityScheme"),
    oauth2SecurityScheme: ref("OAuth2SecurityScheme"),
    openIdConnectSecurityScheme: ref("OpenIdConnectSecurityScheme"),
    mtlsSecurityScheme: ref("MutualTlsSecurityScheme"),
  }),
  message("APIKeySecurityScheme", { description: str(), location: str(), name: str() }, ["location", "name"]),
  message("HTTPAuthSecurityScheme", { description: str(), scheme: str(), bearerFormat: str() }, ["scheme"]),
  message("OAuth2SecurityScheme", { description: str(), flows: ref("OAuthFlows"), oauth2MetadataUrl: str() }, ["flows"]),
  message("OpenIdConnectSecurityScheme", { description: str(), openIdConnectUrl: str() }, ["openIdConnectUrl"]),
  message("MutualTlsSecurityScheme", { description: str() }),
  message("OAuthFlows", {
    authorizationCode: ref("AuthorizationCodeOAuthFlow"),
    clientCredentials: ref("ClientCredentialsOAuthFlow"),
    implicit: ref("ImplicitOAuthFlow"),
    password: ref("PasswordOAuthFlow"),
    deviceCode: ref("DeviceCodeOAuthFlow"),
  }),
  message(
    "AuthorizationCodeOAuthFlow",
    { authorizationUrl: str(), tokenUrl: str(), refreshUrl: str(), scopes: scopes(), pkceRequired: bool() },
    ["authorizationUrl", "tokenUrl", "scopes"],
  ),
  message("ClientCredentialsOAuthFlow", { tokenUrl: str(), refreshUrl: str(), scopes: scopes() }, ["tokenUrl", "scopes"]),
  message("ImplicitOAuthFlow", { authorizationUrl: str(), refreshUrl: str(), scopes: scopes() }),
  message("PasswordOAuthFlow", { tokenUrl: str(), refreshUrl: str(), scopes: scopes() }),
  message("DeviceCodeOAuthFlow", { deviceAuthorizationUrl: str(), tokenUrl: str(), refreshUrl: str(), scopes: scopes() }, [
    "deviceAuthorizationUrl",
    "tokenUrl",
    "scopes",
  ]),
];

const cardMessages = [
  message("AgentInterface", { url: str(), protocolBinding: str(), tenant: str(), protocolVersion: str() }, ["url", "protocolBinding", "protocolVersion"]),
  message("AgentProvider", { url: str(), organization: str() }, ["url", "organization"]),
  message("AgentExtension", { uri: str(), description: str(), required: bool(), params: ref("Struct") }),
  message("AgentCapabilities", {
    streaming: bool(),
    pushNotifications: bool(),
    extensions: arrayOf(ref("AgentExtension")),
    extendedAgentCard: bool(),
  }),
  message(
    "AgentSkill",
    {
      id: str(),
      name: str(),
      description: str(),
      tags: strings(),
      examples: strings(),
      inputModes: strings(),
      outputModes: strings(),
      securityRequirements: arrayOf(ref("SecurityRequirement")),
    },
    ["id", "name", "description", "tags"],
  ),
  message("AgentCardSignature", { protected: str(), signature: str(), header: ref("Struct") }, ["protected", "signature"]),
  message(
    "AgentCard",
    {
      name: str(),
      description: str(),
      supportedInterfaces: arrayOf(ref("AgentInterface")),
      provider: ref("AgentProvider"),
      version: str(),
      documentationUrl: str(),
      capabilities: ref("AgentCapabilities"),
      securitySchemes: mapOf(ref("SecurityScheme")),
      securityRequirements: arrayOf(ref("SecurityRequirement")),
      defaultInputModes: strings(),
      defaultOutputModes: strings(),
      skills: arrayOf(ref("AgentSkill")),
      signatures: arrayOf(ref("AgentCardSignature")),
      iconUrl: str(),
    },
    ["name", "description", "supportedInterfaces", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"],
  ),
];

const tenant = { tenant: str() };
const requestMessages = [
  message(
    "SendMessageConfiguration",
    { acceptedOutputModes: strings(), taskPushNotificationConfig: ref("TaskPushNotificationConfig"), historyLength: int32(), returnImmediately: bool() },
  ),
  message("SendMessageRequest", { ...tenant, message: ref("Message"), configuration: ref("SendMessageConfiguration"), metadata: ref("Struct") }, [
    "message",
  ]),
  message("SendMessageResponse", { task: ref("Task"), message: ref("Message") }),
  message("StreamResponse", {
    task: ref("Task"),
    message: ref("Message"),
    statusUpdate: ref("TaskStatusUpdateEvent"),
    artifactUpdate: ref("TaskArtifactUpdateEvent"),
  }),
  message("GetTaskRequest", { ...tenant, id: str(), historyLength: int32() }, ["id"]),
  message("ListTasksRequest", {
    ...tenant,
    contextId: str(),
    status: protoEnum(TASK_STATES),
    pageSize: int32(),
    pageToken: str(),
    historyLength: int32(),
    statusTimestampAfter: ref("Timestamp"),
    includeArtifacts: bool(),
  }),
  message("ListTasksResponse", { tasks: arrayOf(ref("Task")), nextPageToken: str(), pageSize: int32(), totalSize: int32() }, [
    "tasks",
    "nextPageToken",
    "pageSize",
    "totalSize",
  ]),
  message("CancelTaskRequest", { ...tenant, id: str(), metadata: ref("Struct") }, ["id"]),
  message("SubscribeToTaskRequest", { ...tenant, id: str() }, ["id"]),
  message("GetTaskPushNotificationConfigRequest", { ...tenant, taskId: str(), id: str() }, ["taskId", "id"]),
  message("DeleteTaskPushNotificationConfigRequest", { ...tenant, taskId: str(), id: str() }, ["taskId", "id"]),
  message("ListTaskPushNotificationConfigsRequest", { ...tenant, taskId: str(), pageSize: int32(), pageToken: str() }, ["taskId"]),
  message("ListTaskPushNotificationConfigsResponse", { configs: arrayOf(ref("TaskPushNotificationConfig")), nextPageToken: str() }),
  message("GetExtendedAgentCardRequest", { ...tenant }),
];

/** Every data-model definition of v1.0, with the well-known types it uses. */
export function v1Model(): Record<string, Schema> {
  return {
    ...Object.fromEntries([...taskMessages, ...securityMessages, ...cardMessages, ...requestMessages]),
    Struct: looseObject(),
    Value: anything(),
    Timestamp: timestamp(),
    // google.protobuf.Empty: `{}` in ProtoJSON; some writers send null.
    Empty: { anyOf: [{ type: "null" }, { type: "object", maxProperties: 0 }] },
  };
}
