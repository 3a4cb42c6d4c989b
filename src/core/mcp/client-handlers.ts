import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type ProgressNotification,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { ClientCapabilityChoice, ClientHandlers, McpConnectionEvents } from "./connection-types.ts";

/** The error code MCP gives for a user who rejects a sampling request. */
export const SAMPLING_DECLINED_CODE = -1;

/**
 * Thrown by a client handler to answer the server with exactly this JSON-RPC error: the SDK sends
 * an error's own `code`, `message` and `data` (an McpError would prefix its message).
 */
export class RequestRefusal extends Error {
  override readonly name = "RequestRefusal";
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The capabilities object sent in initialize for the user's choice. */
export function clientCapabilities(choice: ClientCapabilityChoice = {}): ClientCapabilities {
  return {
    ...(choice.elicitation ? { elicitation: { form: {} } } : {}),
    ...(choice.sampling ? { sampling: {} } : {}),
    ...(choice.roots ? { roots: { listChanged: true } } : {}),
  };
}

type SamplingParams = Parameters<NonNullable<ClientHandlers["sampling"]>>[0];

/**
 * Why `value` cannot answer a sampling request, or null when it can. Checked with the schema the
 * SDK itself applies to the answer (array content only when the request offered tools), so a
 * mistake shows before sending instead of reaching the server as an error.
 */
export function samplingResultProblem(params: SamplingParams, value: unknown): string | null {
  const schema = params.tools || params.toolChoice ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema;
  const parsed = schema.safeParse(value);
  if (parsed.success) return null;
  const problems = parsed.error.issues.slice(0, 3).map((i) => {
    const where = i.path.length > 0 ? i.path.join(".") : "the answer";
    return `${where}: ${i.message.replace(/^Invalid input: /, "")}`;
  });
  return `This is not a CreateMessageResult: ${problems.join("; ")}.`;
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

/** The SDK's own progress bookkeeping: tokens it made are request ids with a handler waiting. */
interface SdkProgress {
  readonly _progressHandlers: ReadonlyMap<number, unknown>;
  _onprogress(notification: ProgressNotification): void;
}

/**
 * Progress for a token the SDK made goes to the SDK (which calls onProgress and extends the time
 * limit); progress for any other token, such as one typed into `_meta`, becomes a `progress` event
 * instead of the SDK's "unknown token" error.
 */
function installProgress(client: Client, emit: Emit): void {
  const sdk = client as unknown as SdkProgress;
  // An SDK that keeps these differently keeps its own handler: only typed tokens lose their progress.
  if (!(sdk._progressHandlers instanceof Map) || typeof sdk._onprogress !== "function") return;
  client.setNotificationHandler(ProgressNotificationSchema, (n) => {
    const token = n.params.progressToken;
    if (typeof token === "number" && sdk._progressHandlers.has(token)) sdk._onprogress(n);
    else emit("progress", n.params);
  });
}

/** Surfaces server notifications as connection events. */
export function installNotifications(client: Client, emit: Emit): void {
  installProgress(client, emit);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => emit("log", n.params));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => emit("list-changed", { list: "tools" }));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => emit("list-changed", { list: "resources" }));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => emit("list-changed", { list: "prompts" }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => emit("resource-updated", { uri: n.params.uri }));
  client.fallbackNotificationHandler = async (n) => emit("notification", { method: n.method, params: n.params });
}
