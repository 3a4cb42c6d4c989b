import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { ClientCapabilityChoice, ClientHandlers, McpConnectionEvents } from "./connection-types.ts";

/** The capabilities object sent in initialize for the user's choice. */
export function clientCapabilities(choice: ClientCapabilityChoice = {}): ClientCapabilities {
  return {
    ...(choice.elicitation ? { elicitation: { form: {} } } : {}),
    ...(choice.sampling ? { sampling: {} } : {}),
    ...(choice.roots ? { roots: { listChanged: true } } : {}),
  };
}

function missing(what: string): never {
  throw new McpError(ErrorCode.InternalError, `The client declared ${what} but has no handler for it.`);
}

/** Installs answers for the declared capabilities; the SDK refuses requests for undeclared ones. */
export function installHandlers(client: Client, choice: ClientCapabilityChoice = {}, handlers: ClientHandlers = {}): void {
  if (choice.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => (handlers.elicitation ? handlers.elicitation(request.params) : missing("elicitation")));
  }
  if (choice.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => (handlers.sampling ? handlers.sampling(request.params) : missing("sampling")));
  }
  if (choice.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: handlers.roots ? await handlers.roots() : [] }));
  }
}

type Emit = <K extends keyof McpConnectionEvents>(type: K, detail: McpConnectionEvents[K]) => void;

/** Surfaces server notifications as connection events. */
export function installNotifications(client: Client, emit: Emit): void {
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => emit("log", n.params));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => emit("list-changed", { list: "tools" }));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => emit("list-changed", { list: "resources" }));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => emit("list-changed", { list: "prompts" }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => emit("resource-updated", { uri: n.params.uri }));
  client.fallbackNotificationHandler = async (n) => emit("notification", { method: n.method, params: n.params });
}
