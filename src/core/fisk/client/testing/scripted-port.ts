import { manualClock, ManualScheduler } from "../../../env/index.ts";
import type { NatsHeaders, NatsMessage, NatsPort, NatsStatusEvent } from "../../../nats/port.ts";
import type { FiskClientDeps } from "../deps.ts";

/**
 * An in-memory NatsPort for unit tests: a script answers publishes (by delivering to the reply
 * inbox) and plain requests. Subscriptions match exact subjects only.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface Sent {
  readonly subject: string;
  readonly text: string;
  readonly reply?: string;
  readonly headers?: NatsHeaders;
  readonly via: "publish" | "request";
}

export class ScriptedPort implements NatsPort {
  readonly server = "scripted";
  readonly sent: Sent[] = [];
  readonly #handlers = new Map<string, Set<(m: NatsMessage) => void>>();
  readonly #status = new Set<(e: NatsStatusEvent) => void>();
  /** Called on each publish with a way to deliver messages to its reply subject. */
  onPublish: (sent: Sent, deliver: (m: NatsMessage) => void) => void = () => undefined;
  /** Answers a plain request; throw a NatsRequestError for no responders or a timeout. */
  onRequest: (sent: Sent) => NatsMessage | Promise<NatsMessage> = () => {
    throw new Error("no request script");
  };
  subscribeError: ((subject: string) => Error | undefined) | undefined;

  get subscriptions(): number {
    let n = 0;
    for (const set of this.#handlers.values()) n += set.size;
    return n;
  }

  async request(subject: string, data: Uint8Array, options: { headers?: NatsHeaders; timeoutMs: number }): Promise<NatsMessage> {
    const sent: Sent = { subject, text: decoder.decode(data), via: "request", ...(options.headers ? { headers: options.headers } : {}) };
    this.sent.push(sent);
    return this.onRequest(sent);
  }

  publish(subject: string, data: Uint8Array, options?: { headers?: NatsHeaders; reply?: string }): void {
    const sent: Sent = { subject, text: decoder.decode(data), via: "publish", ...(options?.reply ? { reply: options.reply } : {}), ...(options?.headers ? { headers: options.headers } : {}) };
    this.sent.push(sent);
    this.deliver(subject, { subject, data, ...(options?.reply ? { reply: options.reply } : {}), ...(options?.headers ? { headers: options.headers } : {}) });
    const reply = options?.reply;
    if (reply) this.onPublish(sent, (m) => this.deliver(reply, m));
  }

  /** Hands a message to every subscription of exactly `subject`. */
  deliver(subject: string, message: NatsMessage): void {
    for (const handler of [...(this.#handlers.get(subject) ?? [])]) handler(message);
  }

  subscribe(subject: string, onMessage: (m: NatsMessage) => void) {
    const err = this.subscribeError?.(subject);
    if (err) throw err;
    let set = this.#handlers.get(subject);
    if (!set) this.#handlers.set(subject, (set = new Set()));
    set.add(onMessage);
    return { unsubscribe: () => void set.delete(onMessage) };
  }

  onStatus(listener: (e: NatsStatusEvent) => void) {
    this.#status.add(listener);
    return () => void this.#status.delete(listener);
  }

  emitStatus(e: NatsStatusEvent): void {
    for (const l of this.#status) l(e);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A message as a peer would send it to `subject`. */
export function reply(body: Record<string, unknown> | string, subject = "_INBOX.x", headers?: NatsHeaders, status?: number): NatsMessage {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return { subject, data: encoder.encode(text), ...(headers ? { headers } : {}), ...(status ? { status: { code: status, description: "" } } : {}) };
}

export const microError = (code: string, description: string): NatsMessage => reply("", "_INBOX.x", { "Nats-Service-Error-Code": [code], "Nats-Service-Error": [description] });

export const NS = "io.choria.fisk-ai.v1";

/** A peer message of `kind` echoing `request`. */
export const peerMessage = (kind: string, request: string, sequence: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  protocol: `${NS}.${kind}`,
  id: `m${sequence}x`,
  request,
  conversation: request,
  sequence,
  time: "2026-08-21T09:14:05.00311728Z",
  sender: { name: "peer" },
  ...extra,
});

/** Deterministic deps: counting randomness, a manual clock and scheduler. */
export function scriptedDeps(extra: Partial<FiskClientDeps> = {}) {
  const port = new ScriptedPort();
  const clock = manualClock(0, Date.UTC(2026, 7, 21, 9, 0, 0));
  const scheduler = new ManualScheduler();
  let counter = 0;
  const random = (bytes: Uint8Array) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = (counter * 31 + i * 7) & 0xff;
    counter++;
    return bytes;
  };
  const deps: FiskClientDeps = { port, clock, scheduler, random, sender: { name: "console-1" }, ...extra };
  /** Moves both the clock and the scheduler. */
  const advance = (ms: number) => {
    clock.advance(ms);
    scheduler.advance(ms);
  };
  return { deps, port, clock, scheduler, advance };
}

/** Lets pending promise callbacks run. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
