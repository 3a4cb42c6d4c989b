import { FISK_PROTOCOLS, type FiskMessage } from "../../fisk/codec/index.ts";
import { EVENT_PREFIX } from "../../packs/fisk-ai/protocol.ts";
import type { Conversation, ConversationStore } from "./conversations.ts";
import type { ReplyStream } from "./reply-stream.ts";

/**
 * Replays: `request.read` takes no turn and is answered at once (ack with the token, the newest
 * blocks between `replay_start` and `replay_end`, then a `result` with the conversation's usage);
 * a prompt that asks for a replay gets the same blocks before its own turn.
 */

/** Sends the replay blocks; returns how many went out. */
export function replayInto(stream: ReplyStream, store: ConversationStore, conv: Conversation, limit: number): { count: number; toolCalls: number } {
  const replay = store.replay(conv, limit);
  stream.status({ phase: "replay_start" });
  let count = 0;
  for (const b of replay.blocks) if (stream.message(`${EVENT_PREFIX}${b.event}` as FiskMessage["protocol"], { block: b.block })) count++;
  const usage = replay.toolCalls > 0 ? { usage: { tool_calls: replay.toolCalls } } : {};
  // Go's omitempty: a zero count and an untruncated replay leave their fields out.
  stream.status({ phase: "replay_end", ...usage, ...(count > 0 ? { count } : {}), ...(replay.truncated ? { truncated: true } : {}) });
  return { count, toolCalls: replay.toolCalls };
}

const UNKNOWN = "no conversation is kept under that token";
const BUSY = "another instance is running a turn of this conversation; read it once that turn ends";

/** Answers one `request.read`; `conv` is the conversation found (here or handed over), "busy" or nothing. */
export function answerRead(stream: ReplyStream, token: string, conv: Conversation | "busy" | undefined, store: ConversationStore, limit: number): void {
  stream.ack(true, undefined, { conversation_token: token, ...(conv && conv !== "busy" && conv.maxTokens ? { max_tokens: conv.maxTokens } : {}) });
  if (conv === "busy") {
    stream.finish(FISK_PROTOCOLS.error, { stop_reason: "error", error: BUSY, code: "conversation_busy" });
    return;
  }
  if (!conv) {
    stream.finish(FISK_PROTOCOLS.error, { stop_reason: "error", error: UNKNOWN, code: "unknown_conversation" });
    return;
  }
  const { toolCalls } = replayInto(stream, store, conv, limit);
  stream.finish(FISK_PROTOCOLS.result, { stop_reason: "end_turn", ...(toolCalls > 0 ? { usage: { tool_calls: toolCalls } } : {}) });
}
