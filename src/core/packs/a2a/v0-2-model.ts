import {
  anyOf,
  anything,
  arrayOf,
  bool,
  int,
  lit,
  looseObject,
  mapOf,
  object,
  oneOfStrings,
  refBuilder,
  str,
  strings,
  type Schema,
} from "./schema-builders.ts";

/**
 * The data model shared by A2A v0.2.x and v0.3.0: every object carries a `kind`, ids are
 * server-generated, the card is OpenAPI-flavoured. `v03` adds what v0.3.0 introduced.
 */

const ref = refBuilder("definitions");

export interface ModelOptions {
  /** v0.3.0: card signatures, skill-level security, mutual TLS, OAuth metadata URL, transport enum. */
  readonly v03: boolean;
}

const TASK_STATES = ["submitted", "working", "input-required", "completed", "canceled", "failed", "rejected", "auth-required", "unknown"];
/** `security` on a card or skill: alternatives, each naming schemes and their scopes. */
const securityRequirements = (): Schema => arrayOf(mapOf(strings()));

function messages(): Record<string, Schema> {
  return {
    TaskState: oneOfStrings(TASK_STATES),
    TextPart: object({ kind: lit("text"), text: str(), metadata: looseObject() }, ["kind", "text"]),
    FileWithBytes: object({ bytes: str(), mimeType: str(), name: str() }, ["bytes"]),
    FileWithUri: object({ uri: str(), mimeType: str(), name: str() }, ["uri"]),
    FilePart: object({ kind: lit("file"), file: anyOf(ref("FileWithBytes"), ref("FileWithUri")), metadata: looseObject() }, ["kind", "file"]),
    DataPart: object({ kind: lit("data"), data: looseObject(), metadata: looseObject() }, ["kind", "data"]),
    Part: anyOf(ref("TextPart"), ref("FilePart"), ref("DataPart")),
    Message: object(
      {
        kind: lit("message"),
        messageId: str(),
        role: oneOfStrings(["agent", "user"]),
        parts: arrayOf(ref("Part")),
        contextId: str(),
        taskId: str(),
        referenceTaskIds: strings(),
        extensions: strings(),
        metadata: looseObject(),
      },
      ["kind", "messageId", "parts", "role"],
    ),
    TaskStatus: object({ state: ref("TaskState"), message: ref("Message"), timestamp: str() }, ["state"]),
    Artifact: object(
      { artifactId: str(), name: str(), description: str(), parts: arrayOf(ref("Part")), extensions: strings(), metadata: looseObject() },
      ["artifactId", "parts"],
    ),
    Task: object(
      {
        kind: lit("task"),
        id: str(),
        contextId: str(),
        status: ref("TaskStatus"),
        artifacts: arrayOf(ref("Artifact")),
        history: arrayOf(ref("Message")),
        metadata: looseObject(),
      },
      ["contextId", "id", "kind", "status"],
    ),
    TaskStatusUpdateEvent: object(
      { kind: lit("status-update"), taskId: str(), contextId: str(), status: ref("TaskStatus"), final: bool(), metadata: looseObject() },
      ["contextId", "final", "kind", "status", "taskId"],
    ),
    TaskArtifactUpdateEvent: object(
      {
        kind: lit("artifact-update"),
        taskId: str(),
        contextId: str(),
        artifact: ref("Artifact"),
        append: bool(),
        lastChunk: bool(),
        metadata: looseObject(),
      },
      ["artifact", "contextId", "kind", "taskId"],
    ),
  };
}

function params(): Record<string, Schema> {
  return {
    PushNotificationAuthenticationInfo: object({ schemes: strings(), credentials: str() }, ["schemes"]),
    PushNotificationConfig: object({ id: str(), url: str(), token: str(), authentication: ref("PushNotificationAuthenticationInfo") }, ["url"]),
    TaskPushNotificationConfig: object({ taskId: str(), pushNotificationConfig: ref("PushNotificationConfig") }, ["pushNotificationConfig", "taskId"]),
    // v0.2.0–v0.2.5 required acceptedOutputModes; v0.2.6 and v0.3.0 do not.
    MessageSendConfiguration: object({
      acceptedOutputModes: strings(),
      blocking: bool(),
      historyLength: int(),
      pushNotificationConfig: ref("PushNotificationConfig"),
    }),
    MessageSendParams: object({ message: ref("Message"), configuration: ref("MessageSendConfiguration"), metadata: looseObject() }, ["message"]),
    TaskIdParams: object({ id: str(), metadata: looseObject() }, ["id"]),
    TaskQueryParams: object({ id: str(), historyLength: int(), metadata: looseObject() }, ["id"]),
    GetTaskPushNotificationConfigParams: object({ id: str(), pushNotificationConfigId: str(), metadata: looseObject() }, ["id"]),
    ListTaskPushNotificationConfigParams: object({ id: str(), metadata: looseObject() }, ["id"]),
    DeleteTaskPushNotificationConfigParams: object(
      { id: str(), pushNotificationConfigId: str(), metadata: looseObject() },
      ["id", "pushNotificationConfigId"],
    ),
  };
}

function security(options: ModelOptions): Record<string, Schema> {
  const described = { description: str() };
  const flows = {
    AuthorizationCodeOAuthFlow: object(
      { authorizationUrl: str(), tokenUrl: str(), refreshUrl: str(), scopes: mapOf(str()) },
      ["authorizationUrl", "scopes", "tokenUrl"],
    ),
    ClientCredentialsOAuthFlow: object({ tokenUrl: str(), refreshUrl: str(), scopes: mapOf(str()) }, ["scopes", "tokenUrl"]),
    ImplicitOAuthFlow: object({ authorizationUrl: str(), refreshUrl: str(), scopes: mapOf(str()) }, ["authorizationUrl", "scopes"]),
    PasswordOAuthFlow: object({ tokenUrl: str(), refreshUrl: str(), scopes: mapOf(str()) }, ["scopes", "tokenUrl"]),
    OAuthFlows: object({
      authorizationCode: ref("AuthorizationCodeOAuthFlow"),
      clientCredentials: ref("ClientCredentialsOAuthFlow"),
      implicit: ref("ImplicitOAuthFlow"),
      password: ref("PasswordOAuthFlow"),
    }),
  };
  const schemes: Record<string, Schema> = {
    APIKeySecurityScheme: object(
      { type: lit("apiKey"), in: oneOfStrings(["cookie", "header", "query"]), name: str(), ...described },
      ["in", "name", "type"],
    ),
    HTTPAuthSecurityScheme: object({ type: lit("http"), scheme: str(), bearerFormat: str(), ...described }, ["scheme", "type"]),
    OAuth2SecurityScheme: object(
      { type: lit("oauth2"), flows: ref("OAuthFlows"), ...(options.v03 ? { oauth2MetadataUrl: str() } : {}), ...described },
      ["flows", "type"],
    ),
    OpenIdConnectSecurityScheme: object({ type: lit("openIdConnect"), openIdConnectUrl: str(), ...described }, ["openIdConnectUrl", "type"]),
  };
  if (options.v03) schemes.MutualTLSSecurityScheme = object({ type: lit("mutualTLS"), ...described }, ["type"]);
  const members = Object.keys(schemes).map((name) => ref(name));
  return { ...flows, ...schemes, SecurityScheme: anyOf(...members) };
}

/** The card; `protocolRequired` false gives the v0.2.0–v0.2.4 card, which has no protocolVersion. */
function cardDefinition(options: ModelOptions, protocolRequired: boolean): Schema {
  const properties: Record<string, Schema> = {
    name: str(),
    description: str(),
    url: str(),
    preferredTransport: str(),
    additionalInterfaces: arrayOf(ref("AgentInterface")),
    protocolVersion: str(),
    iconUrl: str(),
    provider: ref("AgentProvider"),
    version: str(),
    documentationUrl: str(),
    capabilities: ref("AgentCapabilities"),
    securitySchemes: mapOf(ref("SecurityScheme")),
    security: securityRequirements(),
    defaultInputModes: strings(),
    defaultOutputModes: strings(),
    skills: arrayOf(ref("AgentSkill")),
    supportsAuthenticatedExtendedCard: bool(),
    ...(options.v03 ? { signatures: arrayOf(ref("AgentCardSignature")) } : {}),
  };
  const required = ["capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "skills", "url", "version"];
  if (protocolRequired) required.push("protocolVersion");
  return object(properties, required);
}

function card(options: ModelOptions): Record<string, Schema> {
  const defs: Record<string, Schema> = {
    AgentProvider: object({ organization: str(), url: str() }, ["organization", "url"]),
    AgentExtension: object({ uri: str(), description: str(), required: bool(), params: looseObject() }, ["uri"]),
    AgentCapabilities: object({
      streaming: bool(),
      pushNotifications: bool(),
      stateTransitionHistory: bool(),
      extensions: arrayOf(ref("AgentExtension")),
    }),
    AgentInterface: object({ url: str(), transport: str() }, ["transport", "url"]),
    AgentSkill: object(
      {
        id: str(),
        name: str(),
        description: str(),
        tags: strings(),
        examples: strings(),
        inputModes: strings(),
        outputModes: strings(),
        ...(options.v03 ? { security: securityRequirements() } : {}),
      },
      ["description", "id", "name", "tags"],
    ),
    AgentCard: cardDefinition(options, true),
  };
  if (options.v03) {
    defs.AgentCardSignature = object({ protected: str(), signature: str(), header: looseObject() }, ["protected", "signature"]);
    defs.TransportProtocol = oneOfStrings(["JSONRPC", "GRPC", "HTTP+JSON"]);
  } else {
    defs.AgentCardBefore025 = cardDefinition(options, false);
  }
  return defs;
}

/** Every data-model definition of the version. */
export function v02Model(options: ModelOptions): Record<string, Schema> {
  return {
    ...messages(),
    ...params(),
    ...security(options),
    ...card(options),
    JSONRPCError: object({ code: int(), message: str(), data: anything() }, ["code", "message"]),
  };
}
