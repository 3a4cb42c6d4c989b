import { contentBlock, describedBy } from "./defs-content.ts";
import { ENVELOPED, STATELESS, bareNotification, notification, notificationParams, objectMeta, page, params, request, result } from "./defs-shapes.ts";
import {
  anyOf,
  anything,
  arr,
  between,
  bool,
  int,
  lit,
  looseObject,
  type SchemaNode,
  type NodeObject,
  obj,
  oneOfStrings,
  record,
  ref,
  since,
  str,
  until,
} from "./schema-dsl.ts";

/** What servers offer: resources, prompts, tools, completion and logging. */

/** A params object that got its own definition in 2025-11-25 and was written inline before. */
export function named(name: string, node: SchemaNode): SchemaNode {
  return since(ENVELOPED, ref(name), node);
}

/** Paginated list requests: a cursor; 2026-07-28 requires params (for `_meta`). */
export function listRequest(method: string): NodeObject {
  return request(method, since(ENVELOPED, ref("PaginatedRequestParams"), obj({ cursor: str() })), since(STATELESS, "params"));
}

/** 2026-07-28 lets some requests be retried with the answers to a server's input requests. */
const retry = { inputResponses: since(STATELESS, ref("InputResponses")), requestState: since(STATELESS, str()) };

const { annotations, icons, title } = describedBy;

const uriParams = params({ uri: str("uri") }, ["uri"]);
const readParams = params({ uri: str("uri"), ...retry }, ["uri"]);
const getPromptParams = params({ arguments: record(str()), name: str(), ...retry }, ["name"]);
const callToolParams = params({ arguments: record({}), name: str(), task: between(ENVELOPED, STATELESS, ref("TaskMetadata")), ...retry }, ["name"]);
const setLevelParams = params({ level: ref("LoggingLevel") }, ["level"]);
const completeParams = params(
  {
    argument: obj({ name: str(), value: str() }, ["name", "value"]),
    context: since("2025-06-18", obj({ arguments: record(str()) })),
    ref: anyOf(ref("PromptReference"), since("2025-06-18", ref("ResourceTemplateReference"), ref("ResourceReference"))),
  },
  ["argument", "ref"],
);
const updatedParams = notificationParams({ uri: str("uri") }, ["uri"]);
const loggingParams = notificationParams({ data: anything(), level: ref("LoggingLevel"), logger: str() }, ["data", "level"]);

/**
 * A tool's input or output schema. Until 2026-07-28 upstream pinned its shape (an object schema
 * with `properties` and `required`); from then on any keywords pass, and only an input schema
 * must still say `"type": "object"`.
 */
function toolSchema(kind: "input" | "output"): SchemaNode {
  const pinned = obj(
    { $schema: since(ENVELOPED, str()), properties: record(looseObject()), required: arr(str()), type: lit("object") },
    ["type"],
  );
  const open =
    kind === "input"
      ? obj({ $schema: str(), type: lit("object") }, ["type"], { additionalProperties: {} })
      : obj({ $schema: str() }, [], { additionalProperties: {} });
  return since(STATELESS, open, pinned);
}

export const serverDefs: Record<string, SchemaNode> = {
  Resource: obj(
    { _meta: objectMeta, annotations, description: str(), icons, mimeType: str(), name: str(), size: int(), title, uri: str("uri") },
    ["name", "uri"],
  ),
  ResourceTemplate: obj(
    { _meta: objectMeta, annotations, description: str(), icons, mimeType: str(), name: str(), title, uriTemplate: str("uri-template") },
    ["name", "uriTemplate"],
  ),
  ListResourcesRequest: listRequest("resources/list"),
  ListResourcesResult: page("resources", "Resource", { cacheable: true }),
  ListResourceTemplatesRequest: listRequest("resources/templates/list"),
  ListResourceTemplatesResult: page("resourceTemplates", "ResourceTemplate", { cacheable: true }),
  ResourceRequestParams: since(ENVELOPED, uriParams),
  ReadResourceRequestParams: since(ENVELOPED, readParams),
  ReadResourceRequest: request("resources/read", named("ReadResourceRequestParams", readParams), "params"),
  ReadResourceResult: result({ contents: arr(anyOf(ref("TextResourceContents"), ref("BlobResourceContents"))) }, ["contents"], { cacheable: true }),
  SubscribeRequestParams: between(ENVELOPED, STATELESS, uriParams),
  SubscribeRequest: until(STATELESS, request("resources/subscribe", named("SubscribeRequestParams", uriParams), "params")),
  UnsubscribeRequestParams: between(ENVELOPED, STATELESS, uriParams),
  UnsubscribeRequest: until(STATELESS, request("resources/unsubscribe", named("UnsubscribeRequestParams", uriParams), "params")),
  ResourceListChangedNotification: bareNotification("notifications/resources/list_changed"),
  ResourceUpdatedNotificationParams: since(ENVELOPED, updatedParams),
  ResourceUpdatedNotification: notification("notifications/resources/updated", named("ResourceUpdatedNotificationParams", updatedParams), true),
  ResourceReference: until("2025-06-18", obj({ type: lit("ref/resource"), uri: str("uri-template") }, ["type", "uri"])),
  ResourceTemplateReference: since("2025-06-18", obj({ type: lit("ref/resource"), uri: str("uri-template") }, ["type", "uri"])),

  Prompt: obj({ _meta: objectMeta, arguments: arr(ref("PromptArgument")), description: str(), icons, name: str(), title }, ["name"]),
  PromptArgument: obj({ description: str(), name: str(), required: bool(), title }, ["name"]),
  PromptMessage: obj({ content: contentBlock, role: ref("Role") }, ["content", "role"]),
  PromptReference: obj({ name: str(), title, type: lit("ref/prompt") }, ["name", "type"]),
  ListPromptsRequest: listRequest("prompts/list"),
  ListPromptsResult: page("prompts", "Prompt", { cacheable: true }),
  GetPromptRequestParams: since(ENVELOPED, getPromptParams),
  GetPromptRequest: request("prompts/get", named("GetPromptRequestParams", getPromptParams), "params"),
  GetPromptResult: result({ description: str(), messages: arr(ref("PromptMessage")) }, ["messages"]),
  PromptListChangedNotification: bareNotification("notifications/prompts/list_changed"),

  Tool: obj(
    {
      _meta: objectMeta,
      annotations: since("2025-03-26", ref("ToolAnnotations")),
      description: str(),
      execution: between(ENVELOPED, STATELESS, ref("ToolExecution")),
      icons,
      inputSchema: toolSchema("input"),
      name: str(),
      outputSchema: since("2025-06-18", toolSchema("output")),
      title,
    },
    ["inputSchema", "name"],
  ),
  ToolAnnotations: since(
    "2025-03-26",
    obj({ destructiveHint: bool(), idempotentHint: bool(), openWorldHint: bool(), readOnlyHint: bool(), title: str() }),
  ),
  ToolExecution: between(ENVELOPED, STATELESS, obj({ taskSupport: oneOfStrings("forbidden", "optional", "required") })),
  ToolChoice: since(ENVELOPED, obj({ mode: oneOfStrings("auto", "none", "required") })),
  ListToolsRequest: listRequest("tools/list"),
  ListToolsResult: page("tools", "Tool", { cacheable: true }),
  CallToolRequestParams: since(ENVELOPED, callToolParams),
  CallToolRequest: request("tools/call", named("CallToolRequestParams", callToolParams), "params"),
  CallToolResult: result(
    { content: arr(contentBlock), isError: bool(), structuredContent: since("2025-06-18", since(STATELESS, {}, record({}))) },
    ["content"],
  ),
  ToolListChangedNotification: bareNotification("notifications/tools/list_changed"),

  CompleteRequestParams: since(ENVELOPED, completeParams),
  CompleteRequest: request("completion/complete", named("CompleteRequestParams", completeParams), "params"),
  CompleteResult: result(
    { completion: obj({ hasMore: bool(), total: int(), values: arr(str(), { maxItems: since(STATELESS, 100) }) }, ["values"]) },
    ["completion"],
  ),

  LoggingLevel: oneOfStrings("alert", "critical", "debug", "emergency", "error", "info", "notice", "warning"),
  SetLevelRequestParams: between(ENVELOPED, STATELESS, setLevelParams),
  SetLevelRequest: until(STATELESS, request("logging/setLevel", named("SetLevelRequestParams", setLevelParams), "params")),
  LoggingMessageNotificationParams: since(ENVELOPED, loggingParams),
  LoggingMessageNotification: notification("notifications/message", named("LoggingMessageNotificationParams", loggingParams), true),
};
