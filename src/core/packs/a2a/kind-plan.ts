import type { MessageKind, MessageRole, SchemaPack } from "../../validation/types.ts";
import { GENERATION, methodEntryOfKind, type Generation, type MethodEntry } from "./catalog.ts";
import { A2A_V01 } from "./v0-1.ts";
import { A2A_V10 } from "./v1-0.ts";

/**
 * What the rules and the session's learning read of a kind, worked out once per kind instead of
 * by several table lookups on every message.
 */

const JSON_RPC_ROLES: ReadonlySet<MessageRole> = new Set(["request", "result", "error", "event"]);
/** Methods that only one version has pin that version for the rest of the batch. */
const PINNING_METHODS: ReadonlySet<string> = new Set(["agent/getAuthenticatedExtendedCard"]);
/** Methods v0.1 and v0.2+ share: they say nothing about the dialect. */
const SHARED_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/cancel", "tasks/resubscribe"]);

/** What a valid request of the kind pins: nothing, its pack, or its dialect. */
export type RequestPin = "none" | "pack" | "generation";

export interface KindPlan {
  readonly pack: SchemaPack;
  /** The method a request or result kind belongs to. */
  readonly entry: MethodEntry | undefined;
  /** Whether the message is a JSON-RPC envelope, whose rules apply. */
  readonly jsonRpc: boolean;
  readonly generation: Generation | null;
  readonly requestPin: RequestPin;
  /** v0.1 requests need an id their schema does not require; v1.0 messages have rules of their own. */
  readonly v01Request: boolean;
  readonly v10: boolean;
}

function planOf(pack: SchemaPack, kind: MessageKind): KindPlan {
  const entry = methodEntryOfKind(pack, kind.id);
  const method = entry?.spec.method;
  const requestPin: RequestPin = method === undefined || SHARED_METHODS.has(method) ? "none" : PINNING_METHODS.has(method) ? "pack" : "generation";
  return {
    pack,
    entry,
    jsonRpc: JSON_RPC_ROLES.has(kind.role),
    generation: GENERATION.get(pack) ?? null,
    requestPin,
    v01Request: pack === A2A_V01 && kind.role === "request",
    v10: pack === A2A_V10,
  };
}

const PLANS = new WeakMap<MessageKind, KindPlan>();

/** The kind's plan in `pack`; a kind object another pack shares is planned afresh there (and not remembered). */
export function kindPlan(pack: SchemaPack, kind: MessageKind): KindPlan {
  const found = PLANS.get(kind);
  if (found && found.pack === pack) return found;
  const made = planOf(pack, kind);
  if (!found) PLANS.set(kind, made);
  return made;
}
