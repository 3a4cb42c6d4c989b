import type { NatsMessage, NatsSubscription } from "../../nats/port.ts";
import type { Verdict } from "../../validation/types.ts";
import { decodeFiskMessage, type DecodeResult } from "../codec/index.ts";
import type { FiskClientDeps } from "./deps.ts";

/** fisk-ai's subjects, and the inboxes their replies go to (the latter needs subscribe permission on `_INBOX.>`). */
export const DEFAULT_TAP_SUBJECTS: readonly string[] = ["choria.fisk-ai.>", "_INBOX.>"];

export interface TapFrame {
  /** Monotonic milliseconds (the injected clock). */
  readonly at: number;
  /** Raw as it arrived: other peers' acks and requests may carry a conversation_token (see redact.ts). */
  readonly message: NatsMessage;
  /** The reply inbox that ties a request to its replies and reply sets. */
  readonly correlation?: string;
  /** Absent for an empty body (micro errors, status messages). */
  readonly decoded?: DecodeResult;
  readonly verdict?: Verdict;
}

export interface Tap {
  stop(): void;
  /** Subjects that could not be tapped, and errors the connection reported while tapping. */
  readonly failures: readonly string[];
}

/** A request carries its inbox as `reply`; a reply arrives on that inbox. */
export function correlationOf(message: NatsMessage): string | undefined {
  if (message.reply) return message.reply;
  return message.subject.startsWith("_INBOX.") ? message.subject : undefined;
}

/**
 * Watches other peers' traffic: subscribes each subject, decodes and validates every message and
 * pairs requests with their replies by the reply inbox. The subscriptions go through the injected
 * (logged) port, so everything also lands in the Traffic log.
 */
export function startTap(deps: FiskClientDeps, subjects: readonly string[], onFrame: (f: TapFrame) => void): Tap {
  const failures: string[] = [];
  const subs: NatsSubscription[] = [];
  let stopped = false;
  const receive = (message: NatsMessage): void => {
    if (stopped) return;
    const at = deps.clock.now();
    const decoded = message.data.length > 0 ? decodeFiskMessage(message.data) : undefined;
    const verdict = decoded?.ok && deps.validate ? deps.validate(decoded.text) : undefined;
    const correlation = correlationOf(message);
    onFrame({ at, message, ...(correlation ? { correlation } : {}), ...(decoded ? { decoded } : {}), ...(verdict ? { verdict } : {}) });
  };
  const offStatus = deps.port.onStatus((event) => {
    if (!stopped && event.type === "error") failures.push(event.message);
  });
  for (const subject of subjects.length > 0 ? subjects : DEFAULT_TAP_SUBJECTS) {
    try {
      subs.push(deps.port.subscribe(subject, receive));
    } catch (err) {
      failures.push(`${subject}: ${(err as Error).message}`);
    }
  }
  return {
    failures,
    stop() {
      if (stopped) return;
      stopped = true;
      offStatus();
      for (const sub of subs) sub.unsubscribe();
    },
  };
}
