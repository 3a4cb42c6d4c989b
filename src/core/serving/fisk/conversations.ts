import { isJsonObject } from "../../json/index.ts";
import { isValidConversationToken } from "../../fisk/codec/index.ts";

/**
 * The served agent's conversations, by token: each turn's replayable blocks (the prompt as an
 * `event.prompt` block, then the events the turn sent), the usage so far, and a tool call left
 * waiting for approval when a turn ended suspended. Bounded: every conversation with a turn
 * running is kept, plus the last `limit` (1,000 by default) others, oldest use dropped first; and
 * each keeps only its newest blocks, a little more than one read replays.
 */

export const DEFAULT_CONVERSATION_LIMIT = 1000;
/** The most blocks a read replays, whatever it asked for. */
export const MAX_REPLAY = 200;
/** Blocks kept per conversation: whole turns, at least one read's worth. */
const BLOCKS_KEPT = 2 * MAX_REPLAY;

/** One replayable block: the event kind and its block. */
export interface StoredBlock {
  readonly event: string;
  readonly block: Readonly<Record<string, unknown>>;
}

/** A scripted step: a tool and its input. */
export interface ScriptStep {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** A tool call that waits for approval: the steps of its turn from that call on. */
export interface PendingApproval {
  readonly toolUseId: string;
  readonly steps: readonly ScriptStep[];
  /** What earlier steps of the turn answered, for the turn's final text. */
  readonly outputs: readonly string[];
}

export interface Conversation {
  readonly token: string;
  turns: StoredBlock[][];
  /** Turns dropped to stay within the bound: a replay of what is left says it is truncated. */
  dropped: boolean;
  toolCalls: number;
  maxTokens?: number;
  pending?: PendingApproval;
  /** Tool use ids already answered (for `already_answered`), newest last. */
  answered: string[];
  /** Tools approved with "always" in this conversation. */
  alwaysApproved: string[];
}

export interface Replay {
  readonly blocks: readonly StoredBlock[];
  readonly truncated: boolean;
  readonly toolCalls: number;
}

export class ConversationStore {
  readonly #limit: number;
  /** Insertion order is use order: a use moves a conversation to the end. */
  readonly #byToken = new Map<string, Conversation>();
  readonly #busy = new Set<string>();

  constructor(limit = DEFAULT_CONVERSATION_LIMIT) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#byToken.size;
  }

  get(token: string): Conversation | undefined {
    const conv = this.#byToken.get(token);
    if (conv) {
      this.#byToken.delete(token);
      this.#byToken.set(token, conv);
    }
    return conv;
  }

  /** A new conversation, or the one adopted from a sibling instance. */
  put(conv: Conversation): Conversation {
    this.#byToken.delete(conv.token);
    this.#byToken.set(conv.token, conv);
    this.#trim();
    return conv;
  }

  /** Forgets a conversation (handed to a sibling); refused while one of its turns runs here. */
  take(token: string): Conversation | "busy" | undefined {
    if (this.#busy.has(token)) return "busy";
    const conv = this.#byToken.get(token);
    this.#byToken.delete(token);
    return conv;
  }

  isBusy(token: string): boolean {
    return this.#busy.has(token);
  }

  /** Marks a turn running on the conversation; the release frees it (safe twice). */
  hold(token: string): () => void {
    this.#busy.add(token);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#busy.delete(token);
      this.#trim();
    };
  }

  /** Keeps a finished turn's blocks, dropping the oldest turns past the bound. */
  record(conv: Conversation, blocks: readonly StoredBlock[], toolCalls: number): void {
    conv.turns.push([...blocks]);
    conv.toolCalls += toolCalls;
    let total = conv.turns.reduce((n, t) => n + t.length, 0);
    while (conv.turns.length > 1 && total - conv.turns[0]!.length >= BLOCKS_KEPT) {
      total -= conv.turns.shift()!.length;
      conv.dropped = true;
    }
  }

  /** The newest `limit` blocks (at most 200), widened to whole turns. */
  replay(conv: Conversation, limit: number): Replay {
    const cap = Math.min(limit, MAX_REPLAY);
    const taken: StoredBlock[][] = [];
    let count = 0;
    let first = conv.turns.length;
    while (first > 0 && count < cap) {
      const turn = conv.turns[--first]!;
      taken.unshift(turn);
      count += turn.length;
    }
    return { blocks: taken.flat(), truncated: first > 0 || conv.dropped, toolCalls: conv.toolCalls };
  }

  #trim(): void {
    for (const token of this.#byToken.keys()) {
      if (this.#byToken.size - this.#busy.size <= this.#limit) return;
      if (!this.#busy.has(token)) this.#byToken.delete(token);
    }
  }
}

export function newConversation(token: string): Conversation {
  return { token, turns: [], dropped: false, toolCalls: 0, answered: [], alwaysApproved: [] };
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isSteps = (v: unknown): v is ScriptStep[] => Array.isArray(v) && v.every((s) => isJsonObject(s) && typeof s.tool === "string" && isJsonObject(s.input));
const isBlocks = (v: unknown): v is StoredBlock[] => Array.isArray(v) && v.every((b) => isJsonObject(b) && typeof b.event === "string" && isJsonObject(b.block));

/** The wire form handed to a sibling: the token under the name every redaction knows. */
export function conversationWire(conv: Conversation): Record<string, unknown> {
  const { token, ...rest } = conv;
  return { conversation_token: token, ...rest };
}

/** A conversation as a sibling instance sent it, checked field by field; null when it is not one. */
export function conversationFrom(value: unknown): Conversation | null {
  if (!isJsonObject(value) || typeof value.conversation_token !== "string" || !isValidConversationToken(value.conversation_token)) return null;
  const { turns, toolCalls, maxTokens, pending, answered, alwaysApproved } = value;
  if (!Array.isArray(turns) || !turns.every(isBlocks) || typeof toolCalls !== "number" || !strings(answered) || !strings(alwaysApproved)) return null;
  if (maxTokens !== undefined && typeof maxTokens !== "number") return null;
  let kept: PendingApproval | undefined;
  if (pending !== undefined) {
    if (!isJsonObject(pending) || typeof pending.toolUseId !== "string" || !isSteps(pending.steps) || !strings(pending.outputs)) return null;
    kept = { toolUseId: pending.toolUseId, steps: pending.steps, outputs: pending.outputs };
  }
  return {
    token: value.conversation_token,
    turns: turns as StoredBlock[][],
    dropped: value.dropped === true,
    toolCalls,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(kept ? { pending: kept } : {}),
    answered,
    alwaysApproved,
  };
}
