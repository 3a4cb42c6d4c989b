import { isJsonObject } from "../../json/index.ts";
import type { NatsHeaders, NatsMessage } from "../../nats/port.ts";
import { EVENT_PREFIX, MAX_BODY_BYTES, NAMESPACE } from "../../packs/fisk-ai/protocol.ts";
import { FISK_PROTOCOLS } from "../codec/index.ts";
import { freshInbox, microRefusal, textOf, type FiskClientDeps } from "./deps.ts";
import { FINAL_HEADER, headerValue, type EntryDisposition, type ReplySetEntry } from "./reply-set.ts";

export interface RawInput {
  readonly subject: string;
  readonly body: Uint8Array;
  readonly headers?: NatsHeaders;
  /** Silence that ends the read. */
  readonly idleMs: number;
  readonly signal?: AbortSignal;
  readonly onEntry?: (e: ReplySetEntry) => void;
}

export interface RawExchange {
  readonly entries: readonly ReplySetEntry[];
  readonly end: "silence" | "final" | "no-responders" | "refused" | "cancelled" | "send-failed";
  readonly elapsedMs: number;
  /** The reply subject the request carried. */
  readonly inbox: string;
  /** Why sending failed, for `send-failed`. */
  readonly error?: string;
}

const TERMINALS: ReadonlySet<string> = new Set([FISK_PROTOCOLS.toolReply, FISK_PROTOCOLS.result, FISK_PROTOCOLS.error, FISK_PROTOCOLS.discoveryReply]);

/** The request tag of what was sent, when it is a fisk-ai message: replies of another are marked. */
function requestTag(body: Uint8Array): string | undefined {
  try {
    const value: unknown = JSON.parse(textOf(body));
    return isJsonObject(value) && typeof value.request === "string" ? value.request : undefined;
  } catch {
    return undefined;
  }
}

/** What a reply looks like, without judging it: raw mode shows everything and ends on nothing but silence. */
function classify(message: NatsMessage, tag: string | undefined): { disposition: EntryDisposition; value?: Record<string, unknown>; protocol?: string; sequence?: number; note?: string } {
  if (message.status?.code === 503) return { disposition: "no-responders", note: "no responders: nothing serves this subject" };
  const refused = microRefusal(message);
  if (refused) return { disposition: "refusal", note: `${refused.code}: ${refused.description}` };
  if (message.data.length > MAX_BODY_BYTES) return { disposition: "invalid", note: `the message is ${message.data.length} bytes, over the ${MAX_BODY_BYTES}-byte cap` };
  let value: unknown;
  try {
    value = JSON.parse(textOf(message.data));
  } catch {
    return { disposition: "invalid", note: "not JSON" };
  }
  if (!isJsonObject(value) || typeof value.protocol !== "string") return { disposition: "invalid", note: "not a fisk-ai message: no protocol id", ...(isJsonObject(value) ? { value } : {}) };
  const protocol = value.protocol;
  const sequence = typeof value.sequence === "number" ? value.sequence : undefined;
  const base = { value, protocol, ...(sequence !== undefined ? { sequence } : {}) };
  if (tag !== undefined && value.request !== tag) return { ...base, disposition: "foreign", note: `belongs to request ${JSON.stringify(value.request)}, not this one` };
  if (protocol === `${NAMESPACE}.ack`) return { ...base, disposition: "ack" };
  if (TERMINALS.has(protocol)) return { ...base, disposition: "terminal" };
  if (protocol.startsWith(EVENT_PREFIX) || protocol.startsWith(`${NAMESPACE}.elicit.`)) return { ...base, disposition: "event" };
  return { ...base, disposition: "invalid", note: `${protocol} is not a reply` };
}

/**
 * Any bytes with any headers to any subject, even an invalid message; every reply to a fresh inbox
 * is kept until `idleMs` of silence, a final header, a refusal or no responders.
 */
export function sendRaw(deps: FiskClientDeps, input: RawInput): Promise<RawExchange> {
  const { port, clock, scheduler } = deps;
  const started = clock.now();
  const inbox = freshInbox(deps.random);
  const tag = requestTag(input.body);
  const entries: ReplySetEntry[] = [];
  return new Promise((resolve) => {
    let done = false;
    let cancelTimer: () => void = () => undefined;
    const finish = (end: RawExchange["end"], error?: string): void => {
      if (done) return;
      done = true;
      cancelTimer();
      sub.unsubscribe();
      input.signal?.removeEventListener("abort", onAbort);
      resolve({ entries, end, elapsedMs: clock.now() - started, inbox, ...(error !== undefined ? { error } : {}) });
    };
    const arm = (): void => {
      cancelTimer();
      cancelTimer = scheduler.after(input.idleMs, () => finish("silence"));
    };
    const onAbort = (): void => finish("cancelled");
    const sub = port.subscribe(inbox, (message) => {
      if (done) return;
      const final = (headerValue(message, FINAL_HEADER) ?? "") !== "";
      const entry: ReplySetEntry = { at: clock.now() - started, message, final, ...classify(message, tag) };
      entries.push(entry);
      input.onEntry?.(entry);
      if (entry.disposition === "no-responders") return finish("no-responders");
      if (entry.disposition === "refusal") return finish("refused");
      if (final) return finish("final");
      arm();
    });
    if (input.signal?.aborted) return finish("cancelled");
    input.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      port.publish(input.subject, input.body, { reply: inbox, ...(input.headers ? { headers: input.headers } : {}) });
    } catch (err) {
      return finish("send-failed", (err as Error).message);
    }
    arm();
    port.flush().catch((err: unknown) => finish("send-failed", (err as Error).message));
  });
}
