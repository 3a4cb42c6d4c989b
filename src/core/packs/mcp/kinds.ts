import type { Direction, MessageKind } from "../../validation/types.ts";
import { unionMembers } from "./document.ts";
import { ENVELOPED, STATELESS } from "./defs-shapes.ts";
import { REQUEST_METHODS, messageDefinition, responseDefinition } from "./methods.ts";
import { atLeast, type McpVersion } from "./versions.ts";

/**
 * The message kinds of one version, read off its document: requests and notifications from the
 * Client/Server unions (which also give their direction), a result kind per request method, the
 * error responses, and definitions people paste on their own (role "payload").
 */

/** Definitions worth offering on their own, besides every result; those a version lacks are skipped. */
const PAYLOADS = [
  "InputRequiredResult",
  "CreateMessageResult",
  "ListRootsResult",
  "ElicitResult",
  "CreateTaskResult",
  "Tool",
  "Resource",
  "ResourceTemplate",
  "Prompt",
  "PromptMessage",
  "Root",
  "TextContent",
  "ImageContent",
  "AudioContent",
  "ResourceLink",
  "EmbeddedResource",
  "ToolUseContent",
  "ToolResultContent",
  "TextResourceContents",
  "BlobResourceContents",
  "SamplingMessage",
  "ModelPreferences",
  "ClientCapabilities",
  "ServerCapabilities",
  "Implementation",
  "InitializeRequestParams",
  "CallToolRequestParams",
  "GetPromptRequestParams",
  "ReadResourceRequestParams",
  "CompleteRequestParams",
  "PaginatedRequestParams",
  "CreateMessageRequestParams",
  "ElicitRequestFormParams",
  "ElicitRequestURLParams",
  "CancelledNotificationParams",
  "ProgressNotificationParams",
  "LoggingMessageNotificationParams",
  "ResourceUpdatedNotificationParams",
  "InputRequests",
  "InputResponses",
  "StringSchema",
  "NumberSchema",
  "BooleanSchema",
  "UntitledSingleSelectEnumSchema",
  "TitledSingleSelectEnumSchema",
  "UntitledMultiSelectEnumSchema",
  "TitledMultiSelectEnumSchema",
  "Error",
  "ParseError",
  "InvalidRequestError",
  "MethodNotFoundError",
  "InvalidParamsError",
  "InternalError",
];

/** Shapes so plain (a name and a version; a code and a message) that many other objects have them too. */
const GENERIC_PAYLOADS: ReadonlySet<string> = new Set(["Implementation", "Error"]);

/** 2026-07-28 carries these requests inside results, not as messages. */
const EMBEDDED_REQUESTS = ["CreateMessageRequest", "ListRootsRequest", "ElicitRequest"];

const ERROR_KINDS: readonly { id: string; label: string; definition: string }[] = [
  { id: "error:url-elicitation-required", label: "URL elicitation required error (-32042)", definition: "URLElicitationRequiredError" },
  { id: "error:header-mismatch", label: "header mismatch error (-32020)", definition: "HeaderMismatchError" },
  { id: "error:missing-client-capability", label: "missing client capability error (-32021)", definition: "MissingRequiredClientCapabilityError" },
  { id: "error:unsupported-protocol-version", label: "unsupported protocol version error (-32022)", definition: "UnsupportedProtocolVersionError" },
];

function directionOf(name: string, fromClient: ReadonlySet<string>, fromServer: ReadonlySet<string>): Direction {
  if (fromClient.has(name) && fromServer.has(name)) return "either";
  return fromClient.has(name) ? "client-to-server" : "server-to-client";
}

function reverse(direction: Direction): Direction {
  if (direction === "client-to-server") return "server-to-client";
  return direction === "server-to-client" ? "client-to-server" : "either";
}

function methodOf(schema: unknown): string | undefined {
  const method = (schema as { properties?: { method?: { const?: unknown } } } | undefined)?.properties?.method?.const;
  return typeof method === "string" ? method : undefined;
}

export function kindsFor(version: McpVersion, defs: Readonly<Record<string, unknown>>): MessageKind[] {
  const kinds: MessageKind[] = [];
  const whole = (name: string): string => (atLeast(version, ENVELOPED) ? name : messageDefinition(name));
  const add = (kind: MessageKind): void => {
    if (kind.definition in defs) kinds.push(kind);
  };

  const clientRequests = new Set(unionMembers(defs.ClientRequest));
  const serverRequests = new Set(unionMembers(defs.ServerRequest));
  for (const name of new Set([...clientRequests, ...serverRequests])) {
    const method = methodOf(defs[name]);
    if (!method) continue;
    const direction = directionOf(name, clientRequests, serverRequests);
    add({ id: `${method}:request`, label: `${method} request`, definition: whole(name), role: "request", direction });
  }
  const clientNotes = new Set(unionMembers(defs.ClientNotification));
  const serverNotes = new Set(unionMembers(defs.ServerNotification));
  for (const name of new Set([...clientNotes, ...serverNotes])) {
    const method = methodOf(defs[name]);
    if (!method) continue;
    const direction = directionOf(name, clientNotes, serverNotes);
    add({ id: `${method}:notification`, label: `${method} notification`, definition: whole(name), role: "notification", direction });
  }

  const resultDirections = new Map<string, Direction>();
  for (const method of REQUEST_METHODS) {
    if (!clientRequests.has(method.request) && !serverRequests.has(method.request)) continue;
    const direction = reverse(directionOf(method.request, clientRequests, serverRequests));
    const known = resultDirections.get(method.result);
    resultDirections.set(method.result, known && known !== direction ? "either" : direction);
    add({ id: `${method.method}:result`, label: `${method.method} result`, definition: responseDefinition(method.result), role: "result", direction });
  }
  add({ id: "input-required:result", label: "input_required result (answered request not known)", definition: responseDefinition("InputRequiredResult"), role: "result", direction: "server-to-client" });
  add({ id: "task-created:result", label: "task created (task-augmented request) result", definition: "CreateTaskResultResponse", role: "result", direction: "either" });

  add({ id: "request", label: "JSON-RPC request (method not defined by MCP)", definition: "JSONRPCRequest", role: "request", direction: "either", generic: true });
  add({ id: "notification", label: "JSON-RPC notification (method not defined by MCP)", definition: "JSONRPCNotification", role: "notification", direction: "either", generic: true });
  const anyResult = atLeast(version, ENVELOPED) ? "JSONRPCResultResponse" : "JSONRPCResponse";
  add({ id: "result", label: "result (answered request not known)", definition: anyResult, role: "result", direction: "either", generic: true });
  add({ id: "error", label: "error response", definition: "ErrorResponse", role: "error", direction: "either" });
  for (const kind of ERROR_KINDS) add({ ...kind, role: "error", direction: "either" });

  const payloads = [...resultDirections.keys(), ...PAYLOADS, ...(atLeast(version, STATELESS) ? EMBEDDED_REQUESTS : [])];
  for (const name of new Set(payloads)) {
    const direction = resultDirections.get(name) ?? "either";
    add({ id: name, label: `${name} (on its own)`, definition: name, role: "payload", direction, ...(GENERIC_PAYLOADS.has(name) ? { generic: true } : {}) });
  }
  return kinds;
}
