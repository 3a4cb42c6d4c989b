import { isJsonObject } from "../../json/index.ts";

/**
 * Guesses from shape alone, for results whose request was not seen and for values pasted on
 * their own. Each test is a few property reads; the first that matches wins.
 */
export interface Guess {
  readonly kindId: string;
  readonly base: number;
  /** A fixed phrase: it is part of a cache key. */
  readonly reason: string;
}

const guess = (kindId: string, base: number, reason: string): Guess => ({ kindId, base, reason });

/** The fallback when nothing in a result's shape says which request it answers. */
/** Below the recognition floor: a result no shape and no request explains is not recognised, however it parses. */
export const ANY_RESULT = guess("result", 0.28, "a JSON-RPC result whose request is not known");

const RESULT_BY_ARRAY: readonly (readonly [string, Guess])[] = [
  ["content", guess("tools/call:result", 0.85, "result has a content array, as a tools/call result does")],
  ["tools", guess("tools/list:result", 0.85, "result lists tools")],
  ["supportedVersions", guess("server/discover:result", 0.9, "result lists supportedVersions, as server/discover does")],
  ["resources", guess("resources/list:result", 0.85, "result lists resources")],
  ["resourceTemplates", guess("resources/templates/list:result", 0.85, "result lists resourceTemplates")],
  ["contents", guess("resources/read:result", 0.85, "result has resource contents")],
  ["prompts", guess("prompts/list:result", 0.85, "result lists prompts")],
  ["roots", guess("roots/list:result", 0.85, "result lists roots")],
  ["tasks", guess("tasks/list:result", 0.8, "result lists tasks")],
];

/** Which request a result answers, judged by its members. */
export function guessResult(result: Record<string, unknown>): readonly Guess[] {
  // A sampling result with tool use has a content array too; its model and role say which it is.
  if (typeof result.model === "string" && "role" in result) {
    return [guess("sampling/createMessage:result", 0.85, "result names a model and a role, as sampling does")];
  }
  if ("model" in result && ("role" in result || "stopReason" in result)) return [SAMPLING_NEAR];
  for (const [key, match] of RESULT_BY_ARRAY) if (Array.isArray(result[key])) return [match];
  if (typeof result.protocolVersion === "string" && isJsonObject(result.serverInfo)) {
    return [guess("initialize:result", 0.9, "result has protocolVersion and serverInfo, as initialize does")];
  }
  if (isJsonObject(result.completion)) return [guess("completion/complete:result", 0.85, "result has a completion")];
  if (Array.isArray(result.messages)) return [guess("prompts/get:result", 0.8, "result has prompt messages")];
  if (typeof result.action === "string") return [guess("elicitation/create:result", 0.8, "result has an elicitation action")];
  if (isJsonObject(result.task)) return [guess("task-created:result", 0.8, "result holds a created task")];
  if (typeof result.taskId === "string" && typeof result.status === "string") {
    return [guess("tasks/get:result", 0.75, "result is a task's state"), guess("tasks/cancel:result", 0.7, "result is a task's state")];
  }
  if (result.resultType === "input_required" || isJsonObject(result.inputRequests)) {
    return [guess("input-required:result", 0.85, "result asks for input (resultType or inputRequests), as an input_required result does")];
  }
  const meta = result._meta;
  if (isJsonObject(meta) && "io.modelcontextprotocol/subscriptionId" in meta) {
    return [guess("subscriptions/listen:result", 0.8, "result _meta names a subscription")];
  }
  const near = nearShape(result);
  if (near) return [near];
  for (const key in result) {
    if (key !== "_meta" && key !== "resultType") return [ANY_RESULT];
  }
  return [guess("ping:result", 0.5, "an empty result, as ping, subscribe, unsubscribe and setLevel return")];
}

const SAMPLING_NEAR = guess("sampling/createMessage:result", 0.6, "result has sampling's members, though not of their types");
/** A result's telling member present but of the wrong type still says which request it answers, less surely. */
const NEAR_SHAPES: readonly (readonly [string, Guess])[] = [
  ...RESULT_BY_ARRAY.map(([key, g]) => [key, guess(g.kindId, 0.6, `result has ${key}, though not as an array`)] as const),
  ["completion", guess("completion/complete:result", 0.6, "result has completion, though not as an object")],
  ["messages", guess("prompts/get:result", 0.55, "result has messages, though not as an array")],
  ["action", guess("elicitation/create:result", 0.55, "result has action, though not as a string")],
  ["task", guess("task-created:result", 0.55, "result has task, though not as an object")],
];

function nearShape(result: Record<string, unknown>): Guess | null {
  for (const [key, match] of NEAR_SHAPES) if (key in result) return match;
  if ("taskId" in result && "status" in result) return guess("tasks/get:result", 0.55, "result has a task's taskId and status, though not as strings");
  const initialize = ("protocolVersion" in result || "serverInfo" in result) && "capabilities" in result;
  return initialize ? guess("initialize:result", 0.6, "result has initialize's capabilities, with protocolVersion or serverInfo") : null;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  text: "TextContent",
  image: "ImageContent",
  audio: "AudioContent",
  resource_link: "ResourceLink",
  resource: "EmbeddedResource",
  tool_use: "ToolUseContent",
  tool_result: "ToolResultContent",
};

const PAYLOAD_BY_ARRAY: readonly (readonly [string, Guess])[] = [
  ["tools", guess("ListToolsResult", 0.7, "lists tools, like a tools/list result")],
  ["supportedVersions", guess("DiscoverResult", 0.7, "lists supportedVersions, like a server/discover result")],
  ["resources", guess("ListResourcesResult", 0.65, "lists resources, like a resources/list result")],
  ["resourceTemplates", guess("ListResourceTemplatesResult", 0.65, "lists resourceTemplates")],
  ["contents", guess("ReadResourceResult", 0.65, "holds resource contents, like a resources/read result")],
  ["prompts", guess("ListPromptsResult", 0.65, "lists prompts, like a prompts/list result")],
  ["roots", guess("ListRootsResult", 0.65, "lists roots, like a roots/list result")],
];

const ERROR_OBJECTS: Readonly<Record<number, string>> = {
  [-32700]: "ParseError",
  [-32600]: "InvalidRequestError",
  [-32601]: "MethodNotFoundError",
  [-32602]: "InvalidParamsError",
  [-32603]: "InternalError",
};

/** What a value that is not a JSON-RPC message (a bare result, params object, tool) may be. */
export function guessPayload(value: Record<string, unknown>): readonly Guess[] {
  const type = value.type;
  if (typeof type === "string") {
    const block = CONTENT_TYPES[type];
    if (block) return [guess(block, 0.6, "its type names a content block")];
  }
  if (Array.isArray(value.content)) {
    if (typeof value.model === "string") return [guess("CreateMessageResult", 0.7, "names a model, like a sampling result")];
    return [guess("CallToolResult", 0.7, "has a content array, like a tools/call result")];
  }
  for (const [key, match] of PAYLOAD_BY_ARRAY) if (Array.isArray(value[key])) return [match];
  if (typeof value.name === "string" && isJsonObject(value.inputSchema)) return [guess("Tool", 0.75, "has a name and an inputSchema, like a tool")];
  if (typeof value.protocolVersion === "string") {
    if (isJsonObject(value.serverInfo)) return [guess("InitializeResult", 0.75, "has protocolVersion and serverInfo, like an initialize result")];
    if (isJsonObject(value.clientInfo)) return [guess("InitializeRequestParams", 0.7, "has protocolVersion and clientInfo, like initialize params")];
  }
  if (value.resultType === "input_required" || isJsonObject(value.inputRequests)) {
    return [guess("InputRequiredResult", 0.75, "asks for input, like an input_required result")];
  }
  if (typeof value.model === "string" && "content" in value) return [guess("CreateMessageResult", 0.7, "names a model, like a sampling result")];
  if (isJsonObject(value.completion)) return [guess("CompleteResult", 0.65, "has a completion, like a completion/complete result")];
  if (Array.isArray(value.messages)) {
    return "maxTokens" in value
      ? [guess("CreateMessageRequestParams", 0.65, "has messages and maxTokens, like sampling params")]
      : [guess("GetPromptResult", 0.6, "has prompt messages, like a prompts/get result")];
  }
  if (typeof value.action === "string") return [guess("ElicitResult", 0.65, "has an action, like an elicitation result")];
  if (typeof value.message === "string" && "requestedSchema" in value) return [guess("ElicitRequestFormParams", 0.65, "asks for a form")];
  if (typeof value.message === "string" && typeof value.url === "string") return [guess("ElicitRequestURLParams", 0.65, "asks the user to visit a URL")];
  if (typeof value.code === "number" && typeof value.message === "string") {
    const named = ERROR_OBJECTS[value.code];
    const general = guess("Error", 0.55, "has a code and a message, like a JSON-RPC error object");
    return named ? [guess(named, 0.57, "its code is a standard JSON-RPC error code"), general] : [general];
  }
  return guessPayloadByName(value);
}

/** The weaker guesses: objects recognised by a name, uri or a pair of members. */
function guessPayloadByName(value: Record<string, unknown>): readonly Guess[] {
  if (typeof value.uriTemplate === "string") return [guess("ResourceTemplate", 0.6, "has a uriTemplate, like a resource template")];
  if (typeof value.uri === "string") {
    if (typeof value.text === "string") return [guess("TextResourceContents", 0.6, "has a uri and text, like resource contents")];
    if (typeof value.blob === "string") return [guess("BlobResourceContents", 0.6, "has a uri and a blob, like resource contents")];
    if (typeof value.name === "string") return [guess("Resource", 0.55, "has a uri and a name, like a resource")];
    return [guess("Root", 0.4, "has a uri, like a root")];
  }
  if (typeof value.name === "string" && isJsonObject(value.arguments)) {
    return [guess("CallToolRequestParams", 0.55, "has a name and arguments, like tools/call params"), guess("GetPromptRequestParams", 0.5, "has a name and arguments, like prompts/get params")];
  }
  if ("progressToken" in value && "progress" in value) return [guess("ProgressNotificationParams", 0.6, "has a progressToken and progress")];
  if ("level" in value && "data" in value) return [guess("LoggingMessageNotificationParams", 0.6, "has a level and data, like a log message")];
  if (typeof value.role === "string" && "content" in value) {
    return [guess("PromptMessage", 0.5, "has a role and content, like a prompt message"), guess("SamplingMessage", 0.49, "has a role and content, like a sampling message")];
  }
  if (typeof value.name === "string" && typeof value.version === "string") {
    return [onlyMembers(value, IMPLEMENTATION_MEMBERS) ? IMPLEMENTATION : IMPLEMENTATION_AND_MORE];
  }
  return [];
}

/** Every member an Implementation has in some version: anything else says the object is something else. */
const IMPLEMENTATION_MEMBERS: ReadonlySet<string> = new Set(["name", "version", "title", "description", "icons", "websiteUrl"]);
const IMPLEMENTATION = guess("Implementation", 0.5, "has a name and a version, like clientInfo or serverInfo");
const IMPLEMENTATION_AND_MORE = guess("Implementation", 0.2, "has a name and a version, like clientInfo, but members no Implementation has too");

function onlyMembers(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}
