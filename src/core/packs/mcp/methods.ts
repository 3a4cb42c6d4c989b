/**
 * Every MCP request method with the definitions of its request and of the result that answers
 * it. A method belongs to a version when its request definition exists there and sits in that
 * version's ClientRequest or ServerRequest union.
 */
export interface McpMethod {
  readonly method: string;
  readonly request: string;
  readonly result: string;
  /** 2026-07-28 lets the server answer with an InputRequiredResult instead. */
  readonly inputRequired?: boolean;
}

export const REQUEST_METHODS: readonly McpMethod[] = [
  { method: "initialize", request: "InitializeRequest", result: "InitializeResult" },
  { method: "ping", request: "PingRequest", result: "EmptyResult" },
  { method: "server/discover", request: "DiscoverRequest", result: "DiscoverResult" },
  { method: "resources/list", request: "ListResourcesRequest", result: "ListResourcesResult" },
  { method: "resources/templates/list", request: "ListResourceTemplatesRequest", result: "ListResourceTemplatesResult" },
  { method: "resources/read", request: "ReadResourceRequest", result: "ReadResourceResult", inputRequired: true },
  { method: "resources/subscribe", request: "SubscribeRequest", result: "EmptyResult" },
  { method: "resources/unsubscribe", request: "UnsubscribeRequest", result: "EmptyResult" },
  { method: "subscriptions/listen", request: "SubscriptionsListenRequest", result: "SubscriptionsListenResult" },
  { method: "prompts/list", request: "ListPromptsRequest", result: "ListPromptsResult" },
  { method: "prompts/get", request: "GetPromptRequest", result: "GetPromptResult", inputRequired: true },
  { method: "tools/list", request: "ListToolsRequest", result: "ListToolsResult" },
  { method: "tools/call", request: "CallToolRequest", result: "CallToolResult", inputRequired: true },
  { method: "logging/setLevel", request: "SetLevelRequest", result: "EmptyResult" },
  { method: "completion/complete", request: "CompleteRequest", result: "CompleteResult" },
  { method: "tasks/get", request: "GetTaskRequest", result: "GetTaskResult" },
  { method: "tasks/result", request: "GetTaskPayloadRequest", result: "GetTaskPayloadResult" },
  { method: "tasks/cancel", request: "CancelTaskRequest", result: "CancelTaskResult" },
  { method: "tasks/list", request: "ListTasksRequest", result: "ListTasksResult" },
  { method: "sampling/createMessage", request: "CreateMessageRequest", result: "CreateMessageResult" },
  { method: "roots/list", request: "ListRootsRequest", result: "ListRootsResult" },
  { method: "elicitation/create", request: "ElicitRequest", result: "ElicitResult" },
];

/** Our name for the JSON-RPC response carrying a result definition. */
export function responseDefinition(resultDefinition: string): string {
  return `${resultDefinition}Response`;
}

/** Our name for a whole JSON-RPC message built from a pre-2025-11-25 request or notification definition. */
export function messageDefinition(definition: string): string {
  return `${definition}Message`;
}
