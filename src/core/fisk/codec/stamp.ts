import type { Clock } from "../../env/index.ts";
import { formatGoTime } from "./go-time.ts";
import { mintKsuid, type RandomBytes } from "./ids.ts";
import type { HeaderFields, Identity } from "./types-common.ts";
import type { FiskMessage } from "./types-messages.ts";

/**
 * Header stamping as fisk-ai does it. A request gets a new `id` always; its `request` and
 * `conversation` tags are kept when the caller set them and otherwise share one minted value, so
 * a fresh request has `request == conversation != id`. A reply echoes the request's tags.
 */

export interface IdContext {
  readonly clock: Pick<Clock, "wallNow">;
  readonly random: RandomBytes;
}

export interface StampContext extends IdContext {
  /** This console's identity. */
  readonly sender: Identity;
  /** The target agent. */
  readonly recipient?: Identity;
  /** W3C trace context; only for a peer known to be Gen 2 (a strict Gen 1 peer refuses it). */
  readonly traceparent?: string;
}

/** Header fields a caller may preset on a request; the rest are stamped. */
export interface PresetHeader {
  request?: string;
  conversation?: string;
  parent?: string;
  must_understand?: boolean;
}

type StampedKey = keyof HeaderFields;
/** A message without its stamped header fields. */
export type Unstamped<M extends FiskMessage> = Omit<M, StampedKey> & PresetHeader;

const HEADER_KEYS: ReadonlySet<string> = new Set<StampedKey>([
  "id",
  "request",
  "conversation",
  "parent",
  "sequence",
  "time",
  "sender",
  "recipient",
  "must_understand",
  "traceparent",
]);

const now = (clock: Pick<Clock, "wallNow">): string => formatGoTime({ ms: clock.wallNow() });
const copyIdentity = (who: Identity): Identity => (who.instance ? { name: who.name, instance: who.instance } : { name: who.name });

/** A standalone request with its header filled in, header fields first in wire order. */
export function stampRequest<M extends FiskMessage>(fields: Unstamped<M>, ctx: StampContext): M {
  const source = fields as unknown as Record<string, unknown>;
  const preset = fields as PresetHeader;
  const minted = mintKsuid(ctx.clock, ctx.random);
  const out: Record<string, unknown> = {
    protocol: source.protocol,
    id: mintKsuid(ctx.clock, ctx.random),
    request: preset.request || minted,
    conversation: preset.conversation || minted,
  };
  if (preset.parent) out.parent = preset.parent;
  out.sequence = 0;
  out.time = now(ctx.clock);
  out.sender = copyIdentity(ctx.sender);
  if (ctx.recipient) out.recipient = copyIdentity(ctx.recipient);
  if (preset.must_understand) out.must_understand = true;
  if (ctx.traceparent) out.traceparent = ctx.traceparent;
  for (const [key, value] of Object.entries(source)) {
    if (key !== "protocol" && !HEADER_KEYS.has(key) && value !== undefined) out[key] = value;
  }
  return out as unknown as M;
}

/**
 * The header of a reply to `request`: new id, its tags echoed, sequence 0 (a reply set numbers
 * its messages from 1), the replier as sender and the request's sender as recipient. Compose
 * with `{ protocol, ...stampReply(request, me, ctx), ...body }`.
 */
export function stampReply(
  request: { readonly request: string; readonly conversation: string; readonly sender?: Identity },
  sender: Identity,
  ctx: IdContext,
): HeaderFields {
  const header: HeaderFields = {
    id: mintKsuid(ctx.clock, ctx.random),
    request: request.request,
    conversation: request.conversation,
    sequence: 0,
    time: now(ctx.clock),
    sender: copyIdentity(sender),
  };
  const to = request.sender?.name;
  if (to) header.recipient = { name: to };
  return header;
}
