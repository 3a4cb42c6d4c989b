import { isValidConversationToken } from "../../fisk/codec/index.ts";
import { isJsonObject } from "../../json/index.ts";
import { NatsRequestError, type NatsMessage, type NatsPort, type NatsSubscription } from "../../nats/port.ts";
import { conversationFrom, conversationWire, type Conversation, type ConversationStore } from "./conversations.ts";

/**
 * Conversations move between the instances of one identity. A follow-up, a read, a resume or an
 * answer lands on whichever instance the queue group picks; one that does not hold the token asks
 * its siblings on a Patchbay subject (no queue group: every instance hears it, only the holder
 * answers) and takes the conversation over, so exactly one instance holds it at a time. A
 * conversation with a turn running stays where it is and the asker says it is busy.
 */

export const shareSubject = (identity: string): string => `patchbay.serve.conversations.${identity}`;
/** How long an instance waits for a sibling to hand a conversation over. */
export const DEFAULT_SHARE_WAIT_MS = 750;
/** Under NATS's default 1 MiB payload limit, with room to spare. */
const MAX_HANDOVER_BYTES = 700_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type Fetched = { readonly kind: "found"; readonly conversation: Conversation } | { readonly kind: "busy" } | { readonly kind: "unknown" };

/** The handover text, with the oldest turns dropped until it fits one message. */
function handover(conv: Conversation): Uint8Array {
  for (;;) {
    const bytes = encoder.encode(JSON.stringify({ conversation: conversationWire(conv) }));
    if (bytes.byteLength <= MAX_HANDOVER_BYTES || conv.turns.length === 0) return bytes;
    conv.turns.shift();
    conv.dropped = true;
  }
}

/** Answers siblings' requests for conversations this instance holds. */
export function serveConversations(port: NatsPort, identity: string, store: ConversationStore, warn: (message: string) => void): NatsSubscription {
  return port.subscribe(shareSubject(identity), (msg: NatsMessage) => {
    if (!msg.reply) return;
    let token: unknown;
    try {
      const body: unknown = JSON.parse(decoder.decode(msg.data));
      token = isJsonObject(body) ? body.conversation_token : undefined;
    } catch {
      return;
    }
    if (typeof token !== "string" || !isValidConversationToken(token)) return;
    const taken = store.take(token);
    // Silence from an instance that does not hold it: the holder, if any, answers.
    if (taken === undefined) return;
    try {
      port.publish(msg.reply, taken === "busy" ? encoder.encode('{"busy":true}') : handover(taken));
    } catch (err) {
      // The sibling gets no answer and says the conversation is unknown; keep it here instead.
      if (taken !== "busy") store.put(taken);
      warn(`could not hand a conversation to a sibling instance: ${(err as Error).message}`);
    }
  });
}

/** Asks the siblings for a conversation this instance does not hold. */
export async function fetchConversation(port: NatsPort, identity: string, token: string, waitMs = DEFAULT_SHARE_WAIT_MS): Promise<Fetched> {
  let reply: NatsMessage;
  try {
    reply = await port.request(shareSubject(identity), encoder.encode(JSON.stringify({ conversation_token: token })), { timeoutMs: waitMs });
  } catch (err) {
    if (err instanceof NatsRequestError) return { kind: "unknown" };
    throw err;
  }
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(reply.data));
  } catch {
    return { kind: "unknown" };
  }
  if (isJsonObject(body) && body.busy === true) return { kind: "busy" };
  const conversation = isJsonObject(body) ? conversationFrom(body.conversation) : null;
  return conversation && conversation.token === token ? { kind: "found", conversation } : { kind: "unknown" };
}
