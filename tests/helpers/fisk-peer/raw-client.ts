/**
 * Raw NATS on the caller's side, for tests that check the peer's wire behaviour without any
 * Patchbay client: crafting a request as a console would, and reading a fresh inbox message by
 * message.
 */
import { createInbox, type Msg, type NatsConnection, type Payload } from "@nats-io/transport-node";
import { headerRecord } from "./runtime.ts";
import { goJson, id, ksuid } from "./wire.ts";

// Spelled out here, not imported from the peer: a typo in the peer must not hide from its own tests.
const FINAL_HEADER = "Fisk-AI-Stream-Final";

/** One message read from an inbox, with what a reply-set reader looks at. */
export interface Received {
  readonly text: string;
  /** The parsed body; undefined for an empty body (micro errors, status messages). */
  readonly json: Record<string, unknown> | undefined;
  readonly headers: Record<string, string[]>;
  readonly final: boolean;
  /** A server status (503 no responders) delivered to the inbox. */
  readonly status?: number;
  readonly microError?: { readonly code: string; readonly description: string };
}

export function received(msg: Msg): Received {
  const text = msg.string();
  const h = msg.headers;
  const microCode = h?.get("Nats-Service-Error-Code");
  return {
    text,
    json: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
    headers: headerRecord(h),
    final: (h?.get(FINAL_HEADER) ?? "") !== "",
    ...(h?.hasError ? { status: h.code } : {}),
    ...(microCode ? { microError: { code: microCode, description: h?.get("Nats-Service-Error") ?? "" } } : {}),
  };
}

export interface ClientRequestOptions {
  readonly request?: string;
  readonly conversation?: string;
  readonly sender?: string;
}

/**
 * A request as a console stamps it: a fresh id, `request == conversation` unless given, sequence 0,
 * `sender` the console, `recipient` the target. `fields` follow the header in the order given.
 */
export function clientRequest(suffix: string, target: string, fields: Record<string, unknown> = {}, opts: ClientRequestOptions = {}): string {
  const request = opts.request ?? ksuid();
  return goJson({
    protocol: id(suffix),
    id: ksuid(),
    request,
    conversation: opts.conversation ?? request,
    sequence: 0,
    time: new Date().toISOString(),
    sender: { name: opts.sender ?? "console-1" },
    recipient: { name: target },
    ...fields,
  });
}

export interface InboxReader {
  readonly inbox: string;
  /** Every message so far, in arrival order. */
  readonly all: readonly Received[];
  /** The next unread message; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<Received>;
  /** Reads until `stop` holds for a message (by default: final header, a terminal id, an error or a status). */
  until(stop?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  /** Whatever arrives within `ms`. */
  quietFor(ms: number): Promise<Received[]>;
  close(): void;
}

const TERMINALS: ReadonlySet<string> = new Set(["tool.reply", "result", "error", "discovery.reply"].map(id));

/** The default end of a read: what a reply-set reader would stop on. */
export const endsRead = (r: Received): boolean =>
  r.final || r.status !== undefined || r.microError !== undefined || TERMINALS.has(String(r.json?.protocol));

/** Subscribes a fresh `_INBOX.<nuid>`; flush before publishing with it as the reply subject. */
export function openInbox(nc: NatsConnection): InboxReader {
  const inbox = createInbox();
  const all: Received[] = [];
  let read = 0;
  let wake: (() => void) | undefined;
  const sub = nc.subscribe(inbox, {
    callback: (err, msg) => {
      if (err) return;
      all.push(received(msg));
      wake?.();
    },
  });
  const next = async (timeoutMs = 5000): Promise<Received> => {
    const deadline = performance.now() + timeoutMs;
    while (read >= all.length) {
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`nothing arrived on ${inbox} within ${timeoutMs} ms (had ${all.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    return all[read++]!;
  };
  return {
    inbox,
    all,
    next,
    async until(stop = endsRead, timeoutMs = 5000) {
      const out: Received[] = [];
      for (;;) {
        const r = await next(timeoutMs);
        out.push(r);
        if (stop(r)) return out;
      }
    },
    async quietFor(ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const out = all.slice(read);
      read = all.length;
      return out;
    },
    close: () => sub.unsubscribe(),
  };
}

/** Publishes `body` to `subject` with a fresh inbox as the reply and reads the default read. */
export async function call(nc: NatsConnection, subject: string, body: Payload, stop?: (r: Received) => boolean): Promise<Received[]> {
  const reader = openInbox(nc);
  try {
    await nc.flush();
    nc.publish(subject, body, { reply: reader.inbox });
    return await reader.until(stop);
  } finally {
    reader.close();
  }
}
