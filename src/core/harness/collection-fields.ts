/**
 * The fields of every shape in a collection, in the order a saved file writes them. One table
 * read by the checker (anything else is an unknown field) and by the canonical form (this is the
 * key order), so the two can never disagree.
 */
import type { AssertionKind, HarnessProtocol, OutcomeKind } from "./collection-types.ts";

export const COLLECTION_FIELDS = ["name", "description", "timeoutMs", "targets", "environments", "secrets", "steps"] as const;
export const STEP_FIELDS = ["name", "target", "timeoutMs", "action", "assert", "capture"] as const;
export const SECRET_FIELDS = ["env", "description"] as const;
export const COUNT_FIELDS = ["min", "max"] as const;

export const PROTOCOLS: readonly HarnessProtocol[] = ["mcp", "a2a", "nats"];

export const TARGET_FIELDS: Readonly<Record<HarnessProtocol, readonly string[]>> = {
  mcp: ["protocol", "url", "command", "headers", "era"],
  a2a: ["protocol", "card", "dialect", "binding", "headers"],
  nats: ["protocol", "server", "token"],
};

export const MCP_ACTION_FIELDS = ["protocol", "method", "params"] as const;
export const A2A_ACTION_FIELDS = ["protocol", "operation", "text", "message", "taskId", "contextId"] as const;

export const NATS_KINDS = ["request", "tool", "task"] as const;
export type NatsKind = (typeof NATS_KINDS)[number];

export const NATS_ACTION_FIELDS: Readonly<Record<NatsKind, readonly string[]>> = {
  request: ["protocol", "kind", "subject", "payload", "headers"],
  tool: ["protocol", "kind", "identity", "tool", "input"],
  task: ["protocol", "kind", "identity", "text"],
};

export const ASSERTION_FIELDS: Readonly<Record<AssertionKind, readonly string[]>> = {
  valid: ["kind", "version"],
  equals: ["kind", "pointer", "value"],
  matches: ["kind", "pointer", "pattern"],
  exists: ["kind", "pointer"],
  absent: ["kind", "pointer"],
  outcome: ["kind", "is", "code", "state"],
  latency: ["kind", "belowMs"],
  stream: ["kind", "count", "order", "final"],
};

export const ASSERTION_KINDS = Object.keys(ASSERTION_FIELDS) as AssertionKind[];

/** Every outcome kind; a Record so a kind added to the type without a line here fails the type-check. */
const OUTCOMES: Readonly<Record<OutcomeKind, true>> = {
  "result": true,
  "is-error": true,
  "exit-code": true,
  "json-rpc-error": true,
  "task-state": true,
  "capacity-refusal": true,
  "not-available": true,
  "refused": true,
  "no-responders": true,
  "timeout": true,
  "cancelled": true,
  "transport-error": true,
  "invalid-answer": true,
};
export const OUTCOME_KINDS = Object.keys(OUTCOMES) as OutcomeKind[];

/** Outcomes an `outcome` assertion may name a `code` for, and the one it may name a `state` for. */
export const CODED_OUTCOMES: ReadonlySet<OutcomeKind> = new Set(["exit-code", "json-rpc-error", "refused"]);
export const STATE_OUTCOME: OutcomeKind = "task-state";
