import { NatsRequestError, type NatsHeaders, type NatsMessage, type NatsPort, type NatsStatusEvent } from "../../../nats/port.ts";

/**
 * An in-memory NATS for unit tests: exact subjects, queue groups (one member of a group gets each
 * message, round robin), delivery in publish order on the microtask queue, and a record of every
 * publish. Enough to drive the fisk-ai server without a nats-server.
 */

interface Sub {
  readonly subject: string;
  readonly queue?: string;
  readonly deliver: (m: NatsMessage) => void;
}

export interface Published {
  readonly subject: string;
  readonly data: Uint8Array;
  readonly text: string;
  readonly reply?: string;
  readonly headers?: NatsHeaders;
}

const decoder = new TextDecoder();

export class MemoryBus {
  readonly published: Published[] = [];
  readonly #subs = new Set<Sub>();
  #turn = 0;
  #inboxes = 0;

  get subscriptions(): number {
    return this.#subs.size;
  }

  publish(subject: string, data: Uint8Array, options?: { headers?: NatsHeaders; reply?: string }): void {
    const message: NatsMessage = { subject, data, ...(options?.reply ? { reply: options.reply } : {}), ...(options?.headers ? { headers: options.headers } : {}) };
    this.published.push({ subject, data, text: decoder.decode(data), ...(options?.reply ? { reply: options.reply } : {}), ...(options?.headers ? { headers: options.headers } : {}) });
    const matching = [...this.#subs].filter((s) => s.subject === subject);
    const plain = matching.filter((s) => !s.queue);
    const groups = new Map<string, Sub[]>();
    for (const s of matching) if (s.queue) groups.set(s.queue, [...(groups.get(s.queue) ?? []), s]);
    const chosen = [...plain, ...[...groups.values()].map((members) => members[this.#turn++ % members.length]!)];
    for (const s of chosen) queueMicrotask(() => this.#subs.has(s) && s.deliver(message));
  }

  /** A fresh inbox subject. */
  inbox(): string {
    return `_INBOX.memory${++this.#inboxes}`;
  }

  /** Everything published to `subject`, in order. */
  to(subject: string): Published[] {
    return this.published.filter((p) => p.subject === subject);
  }

  /** `after` times requests out (a manual scheduler's); without it a request nobody answers waits forever. */
  port(after?: (ms: number, fn: () => void) => () => void): NatsPort {
    const listeners = new Set<(e: NatsStatusEvent) => void>();
    return {
      server: "memory",
      request: (subject, data, options) =>
        new Promise<NatsMessage>((resolve, reject) => {
          if (![...this.#subs].some((s) => s.subject === subject)) return reject(new NatsRequestError("no-responders", "no responders"));
          const inbox = this.inbox();
          const cancel = after?.(options.timeoutMs, () => {
            this.#subs.delete(sub);
            reject(new NatsRequestError("timeout", "timeout"));
          });
          const sub: Sub = { subject: inbox, deliver: (m) => (this.#subs.delete(sub), cancel?.(), resolve(m)) };
          this.#subs.add(sub);
          this.publish(subject, data, { reply: inbox, ...(options.headers ? { headers: options.headers } : {}) });
        }),
      publish: (subject, data, options) => this.publish(subject, data, options),
      subscribe: (subject, onMessage, options) => {
        const sub: Sub = { subject, ...(options?.queue ? { queue: options.queue } : {}), deliver: onMessage };
        this.#subs.add(sub);
        return { unsubscribe: () => this.#subs.delete(sub) };
      },
      onStatus(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      flush: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
  }
}

/** Lets queued deliveries and the promise chains they start run to completion. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
