/**
 * The peer's session store and the `request.read` answer. A finished prompt turn is kept under the
 * token its ack carried: the prompt as an `event.prompt` block, then the events the turn sent. A
 * read is answered at once, with no admission: ack, `replay_start`, the newest blocks rounded
 * outwards to whole turns, `replay_end`, then a `result` with the conversation's usage.
 */
import type { Msg } from "@nats-io/transport-node";
import { ackBody, endBody } from "./bodies.ts";
import { ReplySet, type PeerRuntime } from "./runtime.ts";
import type { Usage } from "./types.ts";
import { id, omitEmpty, replyContextOf } from "./wire.ts";

/** The most blocks a worker replays, whatever the read asked for. */
export const MAX_REPLAY = 200;
const USAGE_FIELDS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_create_tokens", "thinking_tokens", "llm_calls", "tool_calls"] as const;

/** One replayable block: the event kind (`prompt`, `text`, an unknown kind…) and its block. */
export interface StoredBlock {
  readonly event: string;
  readonly block: Record<string, unknown>;
}

/** A turn as it runs: filled while events go out, kept when the turn finishes. */
export interface TurnLog {
  readonly token: string;
  readonly maxTokens: number | undefined;
  readonly blocks: StoredBlock[];
}

interface Conversation {
  readonly turns: { readonly blocks: readonly StoredBlock[]; readonly usage: Usage | undefined }[];
  maxTokens: number | undefined;
}

export interface Replay {
  readonly blocks: readonly StoredBlock[];
  readonly truncated: boolean;
  /** The whole conversation's consumption, not just the replayed turns'. */
  readonly usage: Record<string, number>;
  readonly maxTokens: number | undefined;
}

export class ConversationStore {
  readonly #byToken = new Map<string, Conversation>();

  record(turn: TurnLog, usage: Usage | undefined): void {
    let conv = this.#byToken.get(turn.token);
    if (!conv) this.#byToken.set(turn.token, (conv = { turns: [], maxTokens: undefined }));
    conv.turns.push({ blocks: [...turn.blocks], usage });
    if (turn.maxTokens !== undefined) conv.maxTokens = turn.maxTokens;
  }

  /** The newest `limit` blocks (capped at 200) widened to whole turns; undefined for an unknown token. */
  replay(token: string, limit: number): Replay | undefined {
    const conv = this.#byToken.get(token);
    if (!conv) return undefined;
    const cap = Math.min(limit, MAX_REPLAY);
    const taken: StoredBlock[][] = [];
    let count = 0;
    let first = conv.turns.length;
    // Counted back from the end; a turn that the limit cuts into is sent whole.
    while (first > 0 && count < cap) {
      const blocks = conv.turns[--first]!.blocks;
      taken.unshift([...blocks]);
      count += blocks.length;
    }
    const total: Record<string, number> = {};
    for (const field of USAGE_FIELDS) total[field] = conv.turns.reduce((sum, t) => sum + (t.usage?.[field] ?? 0), 0);
    return { blocks: taken.flat(), truncated: first > 0, usage: omitEmpty({}, Object.entries(total)) as Record<string, number>, maxTokens: conv.maxTokens };
  }
}

const NO_STORE = "this worker keeps no sessions, so it has no conversation to read";
const UNKNOWN = "no conversation is stored under that token";

/** Answers one `request.read` (already checked against its schema) on the request's inbox. */
export function answerRead(rt: PeerRuntime, msg: Msg, req: Record<string, unknown>, store: ConversationStore | undefined): void {
  const set = new ReplySet(rt, msg, replyContextOf(req, rt.me));
  if (!store) {
    set.ack(ackBody(false, NO_STORE));
    return set.end(id("error"), endBody({ kind: "error", error: NO_STORE, code: "rejected" }));
  }
  const token = String(req.conversation_token);
  const replay = store.replay(token, Number(req.replay));
  set.ack(ackBody(true, undefined, token, replay?.maxTokens));
  if (!replay) return set.end(id("error"), endBody({ kind: "error", error: UNKNOWN, code: "unknown_conversation" }));
  set.publish(id("event.status"), { block: { phase: "replay_start" } });
  let count = 0;
  for (const b of replay.blocks) if (set.publish(id(`event.${b.event}`), { block: b.block })) count++;
  // Go's omitempty: a zero count and an untruncated replay leave their fields out.
  set.publish(id("event.status"), { block: omitEmpty({ phase: "replay_end" }, [["usage", replay.usage], ["count", count], ["truncated", replay.truncated]]) });
  set.end(id("result"), endBody({ kind: "result", stop_reason: "end_turn", usage: replay.usage }));
}
