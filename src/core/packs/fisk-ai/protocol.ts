import type { Direction, MessageRole } from "../../validation/types.ts";

/**
 * fisk-ai wire facts shared by the schema builder, recognition and the rules: protocol ids, the
 * message kinds of each generation, and the limits the Go code enforces outside its schemas.
 */

export const NAMESPACE = "io.choria.fisk-ai.v1";
/** Ids under this prefix with a single-segment kind are events, named or not. */
export const EVENT_PREFIX = `${NAMESPACE}.event.`;

/** Body cap enforced before decoding (`MaxMessageSize`, 768 KiB). */
export const MAX_BODY_BYTES = 786_432;
/** `MaxRequestIDBytes`: the request tag becomes part of NATS subjects. */
export const MAX_REQUEST_ID_BYTES = 64;
/** Identity names, ids, request tags, conversations, question ids and tokens. */
export const NAME_PATTERN = "^[a-zA-Z0-9_-]+$";
export const NAME_RE = /^[a-zA-Z0-9_-]+$/;

/** Gen 2 accepts any stop reason of this shape; only the named ones are `StopReason.Valid()`. */
export const STOP_REASON_PATTERN = "^[a-z][a-z0-9_]*$";
export const STOP_REASONS_V002 = ["end_turn", "max_tokens", "refusal", "canceled", "error", "budget_exhausted"] as const;
export const STOP_REASONS_NAMED = [...STOP_REASONS_V002, "suspended", "max_iterations"] as const;

/** `internal/a2a/codes.go` at main 4515e16. */
export const ERROR_CODES: ReadonlySet<string> = new Set([
  "rejected",
  "capacity",
  "duplicate_request",
  "draining",
  "failed",
  "crashed",
  "not_started",
  "deferred",
  "suspended",
  "canceled",
  "unknown_conversation",
  "conversation_busy",
  "turn_not_taken",
  "budget_exhausted",
  "unknown_call",
  "already_answered",
  "answer_too_large",
]);

export const GEN2_EVENT_KINDS = ["thinking", "text", "tool_call", "tool_result", "agent_call", "status", "warning", "prompt"] as const;
export type Gen2EventKind = (typeof GEN2_EVENT_KINDS)[number];
export const GEN1_BLOCK_TYPES = ["thinking", "text", "tool_call", "tool_result", "agent_call", "status"] as const;
export const QUESTION_KINDS = ["approve", "confirm", "select", "input"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const REPLY_KINDS = [...QUESTION_KINDS, "no_operator"] as const;
export const REQUEST_KINDS = ["prompt", "answer", "resume", "read"] as const;

/** One message kind as the family knows it: its protocol id (null for the unknown-event fallback). */
export interface KindSpec {
  readonly id: string;
  readonly label: string;
  readonly definition: string;
  readonly role: MessageRole;
  readonly direction: Direction;
  readonly protocol: string | null;
}

const toAgent: Direction = "client-to-server";
const toCaller: Direction = "server-to-client";

function kind(suffix: string, definition: string, role: MessageRole, direction: Direction): KindSpec {
  return { id: suffix, label: suffix, definition, role, direction, protocol: `${NAMESPACE}.${suffix}` };
}

const pascal = (s: string): string =>
  s
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

/** Kinds whose id exists in both generations (same id, different content). */
const SHARED_KINDS: readonly KindSpec[] = [
  kind("discovery.request", "DiscoveryRequest", "request", toAgent),
  kind("discovery.reply", "DiscoveryReply", "card", toCaller),
  kind("tool.request", "ToolRequest", "request", toAgent),
  kind("tool.reply", "ToolReply", "result", toCaller),
  kind("ack", "Ack", "result", toCaller),
  kind("result", "Result", "result", toCaller),
  kind("error", "Error", "error", toCaller),
  kind("cancel", "Cancel", "request", toAgent),
];

export const UNKNOWN_EVENT_KIND: KindSpec = {
  id: "event.*",
  label: "event (unknown kind)",
  definition: "EventUnknownKind",
  role: "event",
  direction: toCaller,
  protocol: null,
};

export const GEN1_KINDS: readonly KindSpec[] = [
  ...SHARED_KINDS,
  kind("request", "Request", "request", toAgent),
  kind("event", "Event", "event", toCaller),
];

export const GEN2_KINDS: readonly KindSpec[] = [
  ...SHARED_KINDS,
  ...REQUEST_KINDS.map((k) => kind(`request.${k}`, pascal(`request.${k}`), "request", toAgent)),
  ...GEN2_EVENT_KINDS.map((k) => kind(`event.${k}`, pascal(`event.${k}`), "event", toCaller)),
  UNKNOWN_EVENT_KIND,
  ...QUESTION_KINDS.map((k) => kind(`elicit.request.${k}`, pascal(`elicit.request.${k}`), "request", toCaller)),
  ...REPLY_KINDS.map((k) => kind(`elicit.reply.${k}`, pascal(`elicit.reply.${k}`), "result", toAgent)),
  kind("elicit.waiting", "ElicitWaiting", "notification", toAgent),
];

/** The ids only Gen 1 uses: in Gen 2 they are family prefixes, not ids. */
export const GEN1_ONLY_IDS: ReadonlySet<string> = new Set([`${NAMESPACE}.request`, `${NAMESPACE}.event`]);

/**
 * The kind segment of an event id, or null: `…event.<kind>` with a non-empty kind and no further
 * dot, exactly what Gen 2's fallback accepts.
 */
export function eventKindOf(protocol: string): string | null {
  if (!protocol.startsWith(EVENT_PREFIX)) return null;
  const kind = protocol.slice(EVENT_PREFIX.length);
  return kind.length > 0 && !kind.includes(".") ? kind : null;
}
