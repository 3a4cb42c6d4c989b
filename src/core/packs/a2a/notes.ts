import { isJsonObject } from "../../json/index.ts";
import type { Candidate } from "../../validation/types.ts";
import { GENERATION, type Generation } from "./catalog.ts";
import { A2A_V03 } from "./v0-3.ts";

/** Plain notes that are not problems: what an error code means, what a task's state says. */

interface ErrorName {
  readonly name: string;
  readonly meaning: string;
}

const STANDARD: Readonly<Record<number, ErrorName>> = {
  [-32700]: { name: "JSONParseError", meaning: "the server could not parse the request as JSON" },
  [-32600]: { name: "InvalidRequestError", meaning: "the request is not a valid JSON-RPC request" },
  [-32601]: { name: "MethodNotFoundError", meaning: "the server does not offer that method (a v1.0 server answers v0.x names so)" },
  [-32602]: { name: "InvalidParamsError", meaning: "the method's params were refused" },
  [-32603]: { name: "InternalError", meaning: "the server failed internally" },
};

const COMMON: Readonly<Record<number, ErrorName>> = {
  [-32001]: { name: "TaskNotFoundError", meaning: "no task the agent knows has that id" },
  [-32002]: { name: "TaskNotCancelableError", meaning: "the task is past the point where it can be canceled" },
  [-32003]: { name: "PushNotificationNotSupportedError", meaning: "the agent does not send push notifications" },
  [-32004]: { name: "UnsupportedOperationError", meaning: "the agent does not support this operation" },
  [-32005]: { name: "ContentTypeNotSupportedError", meaning: "a media type in the request is not accepted" },
  [-32006]: { name: "InvalidAgentResponseError", meaning: "an agent gave a response that does not fit the method" },
};

/** v0.1's specification text numbers these differently from later versions. */
const V01: Readonly<Record<number, ErrorName>> = {
  ...COMMON,
  [-32001]: { name: "TaskNotFound", meaning: "no task the agent knows has that id" },
  [-32002]: { name: "TaskNotCancelable", meaning: "the task can no longer be canceled" },
  [-32003]: { name: "PushNotificationNotSupported", meaning: "the agent does not send push notifications" },
  [-32004]: { name: "UnsupportedOperation", meaning: "the agent does not support this operation" },
  [-32005]: { name: "ContentTypeNotSupported", meaning: "a media type in the request is not accepted" },
  [-32006]: { name: "StreamingNotSupported", meaning: "the agent does not stream" },
  [-32007]: { name: "AuthenticationRequired", meaning: "the request needs credentials" },
  [-32008]: { name: "AuthorizationFailed", meaning: "the credentials do not allow this" },
  [-32009]: { name: "InvalidTaskState", meaning: "the task is not in a state that allows this" },
  [-32010]: { name: "RateLimitExceeded", meaning: "too many requests" },
  [-32011]: { name: "ResourceUnavailable", meaning: "a resource the task needs is unavailable" },
};

const V03: Readonly<Record<number, ErrorName>> = {
  ...COMMON,
  [-32007]: { name: "AuthenticatedExtendedCardNotConfiguredError", meaning: "the agent has no authenticated extended card" },
};

/** v1.0 names, with the ErrorInfo reason spec §9.5 pairs with each. */
export const V1_ERRORS: Readonly<Record<number, ErrorName & { readonly reason: string }>> = {
  [-32001]: { ...COMMON[-32001]!, reason: "TASK_NOT_FOUND" },
  [-32002]: { ...COMMON[-32002]!, reason: "TASK_NOT_CANCELABLE" },
  [-32003]: { ...COMMON[-32003]!, reason: "PUSH_NOTIFICATION_NOT_SUPPORTED" },
  [-32004]: { ...COMMON[-32004]!, reason: "UNSUPPORTED_OPERATION" },
  [-32005]: { ...COMMON[-32005]!, reason: "CONTENT_TYPE_NOT_SUPPORTED" },
  [-32006]: { ...COMMON[-32006]!, reason: "INVALID_AGENT_RESPONSE" },
  [-32007]: { name: "ExtendedAgentCardNotConfiguredError", meaning: "the agent has no extended card", reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED" },
  [-32008]: { name: "ExtensionSupportRequiredError", meaning: "the agent requires an extension the client did not declare", reason: "EXTENSION_SUPPORT_REQUIRED" },
  [-32009]: { name: "VersionNotSupportedError", meaning: "the agent does not speak the A2A-Version asked for (no header means 0.3)", reason: "VERSION_NOT_SUPPORTED" },
};

function errorTable(candidate: Candidate): Readonly<Record<number, ErrorName>> {
  const generation: Generation | undefined = GENERATION.get(candidate.pack);
  if (generation === "v0.1") return V01;
  if (generation === "v1.0") return V1_ERRORS;
  return candidate.pack === A2A_V03 ? V03 : COMMON;
}

function errorNote(error: unknown, candidate: Candidate): string | null {
  if (!isJsonObject(error) || typeof error.code !== "number") return null;
  const code = error.code;
  const known = STANDARD[code] ?? errorTable(candidate)[code];
  const where = candidate.pack.label;
  if (known) return `Error ${code} is ${known.name} in ${where}: ${known.meaning}. A valid protocol error response.`;
  if (code <= -32001 && code >= -32099) return `Error ${code} is in A2A's error range but ${where} names no error with that code.`;
  return `Error ${code} is not a code A2A names; the agent defines it.`;
}

const STATE_NOTES: ReadonlyMap<string, string> = new Map([
  ["failed", "The task failed: that is the task's outcome, delivered by a valid protocol exchange, not a protocol failure."],
  ["rejected", "The agent rejected the task: a task outcome, not a protocol failure."],
  ["canceled", "The task was canceled."],
  ["input-required", "The agent waits for more input: send another message with this task's id."],
  ["auth-required", "The agent waits for credentials before it goes on with the task."],
]);
/** v1.0 names and numbers for the same states. */
const V1_STATES: ReadonlyMap<unknown, string> = new Map<unknown, string>([
  ["TASK_STATE_FAILED", "failed"],
  ["TASK_STATE_REJECTED", "rejected"],
  ["TASK_STATE_CANCELED", "canceled"],
  ["TASK_STATE_INPUT_REQUIRED", "input-required"],
  ["TASK_STATE_AUTH_REQUIRED", "auth-required"],
  [4, "failed"],
  [5, "canceled"],
  [6, "input-required"],
  [7, "rejected"],
  [8, "auth-required"],
]);

const member = (value: unknown, key: string): unknown => (isJsonObject(value) ? value[key] : undefined);

/** The task state a message reports, wherever its dialect puts it. */
function reportedState(value: unknown, candidate: Candidate): unknown {
  const body = candidate.kind.role === "payload" || candidate.kind.role === "card" ? value : member(value, "result");
  const direct = member(member(body, "status"), "state");
  if (direct !== undefined) return direct;
  if (GENERATION.get(candidate.pack) !== "v1.0") return undefined;
  return member(member(member(body, "task"), "status"), "state") ?? member(member(member(body, "statusUpdate"), "status"), "state");
}

const NO_NOTES: readonly string[] = [];

/** Notes for a message the engine classified as `candidate`; most messages have none, and share one empty list. */
export function a2aNotes(value: unknown, candidate: Candidate): readonly string[] {
  const role = candidate.kind.role;
  if (role === "error") {
    const note = errorNote(member(value, "error"), candidate);
    return note ? [note] : NO_NOTES;
  }
  if (role === "request" || role === "card") return NO_NOTES;
  const state = reportedState(value, candidate);
  const name = V1_STATES.get(state) ?? state;
  const note = typeof name === "string" ? STATE_NOTES.get(name) : undefined;
  return note ? [note] : NO_NOTES;
}
