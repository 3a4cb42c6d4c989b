import { type Client, type ClientCapabilities, ProtocolError, ProtocolErrorCode, specTypeSchemas } from "@modelcontextprotocol/client";
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
  const schema = params.tools || params.toolChoice ? specTypeSchemas.CreateMessageResultWithTools : specTypeSchemas.CreateMessageResult;
  const issues = schema["~standard"].validate(value).issues;
  if (!issues) return null;
  const problems = issues.slice(0, 3).map((i) => {
    const path = (i.path ?? []).map((p) => (typeof p === "object" ? String(p.key) : String(p)));
    const where = path.length > 0 ? path.join(".") : "the answer";
    return `${where}: ${i.message.replace(/^Invalid input: /, "")}`;
  });
  return `This is not a CreateMessageResult: ${problems.join("; ")}.`;
}

function missing(what: string): never {
  throw new ProtocolError(ProtocolErrorCode.InternalError, `The client declared ${what} but has no handler for it.`);
}

/** Installs answers for the declared capabilities; the SDK refuses requests for undeclared ones. */
export function installHandlers(client: Client, choice: ClientCapabilityChoice = {}, handlers: ClientHandlers = {}): void {
  if (choice.elicitation) {
    client.setRequestHandler("elicitation/create", (request) => (handlers.elicitation ? handlers.elicitation(request.params as never) : missing("elicitation")));
  }
  if (choice.sampling) {
    client.setRequestHandler("sampling/createMessage", (request) => (handlers.sampling ? handlers.sampling(request.params as never) : missing("sampling")) as never);
  }
  if (choice.roots) {
    client.setRequestHandler("roots/list", async () => ({ roots: handlers.roots ? await handlers.roots() : [] }));
  }
}

type Emit = <K extends keyof McpConnectionEvents>(type: K, detail: McpConnectionEvents[K]) => void;

/** Surfaces server notifications as connection events (progress for the console's own requests never gets here). */
export function installNotifications(client: Client, emit: Emit): void {
  client.setNotificationHandler("notifications/progress", (n) => emit("progress", n.params));
  client.setNotificationHandler("notifications/message", (n) => emit("log", n.params));
  client.setNotificationHandler("notifications/tools/list_changed", () => emit("list-changed", { list: "tools" }));
  client.setNotificationHandler("notifications/resources/list_changed", () => emit("list-changed", { list: "resources" }));
  client.setNotificationHandler("notifications/prompts/list_changed", () => emit("list-changed", { list: "prompts" }));
  client.setNotificationHandler("notifications/resources/updated", (n) => emit("resource-updated", { uri: n.params.uri }));
  client.fallbackNotificationHandler = async (n) => emit("notification", { method: n.method, params: n.params });
}
