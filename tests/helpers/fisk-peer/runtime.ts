/**
 * What every endpoint of the peer shares: the connection, the identity, the logs of what came in
 * and went out, the reply-set writer, micro errors, and sleeps that a cancel or stop cuts short.
 */
import { headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection } from "@nats-io/transport-node";
import { MAX_BODY_BYTES } from "../../../src/core/packs/fisk-ai/protocol.ts";
import type { PeerRecord } from "./types.ts";
import { FINAL_HEADER, id, ksuid, message, type Identity, type ReplyContext } from "./wire.ts";

export function headerRecord(h: MsgHdrs | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!h) return out;
  for (const [key, values] of h) out[key] = [...values];
  return out;
}

/** Per-endpoint counters for `$SRV.STATS`. */
export interface EndpointStats {
  requests: number;
  errors: number;
  lastError: string;
  processingNs: number;
}

export class PeerRuntime {
  readonly nc: NatsConnection;
  readonly me: Identity;
  readonly received: PeerRecord[] = [];
  readonly sent: PeerRecord[] = [];
  readonly stats = new Map<string, EndpointStats>();
  /** Errors thrown by the peer's own handlers: a test can assert there were none. */
  readonly failures: string[] = [];
  readonly #listeners = new Set<(record: PeerRecord) => void>();
  readonly #sleepers = new Set<() => void>();
  readonly #work = new Set<Promise<unknown>>();
  #stopped = false;

  constructor(nc: NatsConnection, me: Identity) {
    this.nc = nc;
    this.me = me;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Ends every sleep; handlers see `stopped` and return without replying. */
  stop(): void {
    this.#stopped = true;
    for (const wake of [...this.#sleepers]) wake();
  }

  /** Keeps background work (a running tool or task) so stop() can wait for it to end. */
  track(work: Promise<unknown>): void {
    const settled = work.catch((err: unknown) => this.fail(err)).finally(() => this.#work.delete(settled));
    this.#work.add(settled);
  }

  fail(err: unknown): void {
    if (!this.#stopped) this.failures.push(err instanceof Error ? (err.stack ?? err.message) : String(err));
  }

  async settled(): Promise<void> {
    while (this.#work.size > 0) await Promise.all([...this.#work]);
  }

  record(msg: Msg, kind: string): void {
    const record: PeerRecord = { subject: msg.subject, reply: msg.reply, headers: headerRecord(msg.headers), text: msg.string(), at: performance.now(), kind };
    this.received.push(record);
    for (const listener of this.#listeners) listener(record);
  }

  /** A subscription callback: logs the message, counts it for `$SRV.STATS`, and keeps handler errors. */
  callback(kind: string, fn: (msg: Msg) => void): (err: Error | null, msg: Msg) => void {
    return (err, msg) => {
      if (err) return this.fail(err);
      this.record(msg, kind);
      const stats = this.endpointStats(kind);
      stats.requests++;
      const t0 = process.hrtime.bigint();
      try {
        fn(msg);
      } catch (e) {
        this.fail(e);
      } finally {
        stats.processingNs += Number(process.hrtime.bigint() - t0);
      }
    };
  }

  onReceived(listener: (record: PeerRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  endpointStats(name: string): EndpointStats {
    let s = this.stats.get(name);
    if (!s) this.stats.set(name, (s = { requests: 0, errors: 0, lastError: "", processingNs: 0 }));
    return s;
  }

  /** Publishes (or, with `respond`, answers through the message) and logs it; nothing after stop. */
  send(subject: string, text: string, kind: string, final = false, respond?: Msg): void {
    if (this.#stopped || this.nc.isClosed()) return;
    const h = final ? natsHeaders() : undefined;
    h?.set(FINAL_HEADER, "true");
    if (respond) respond.respond(text, h ? { headers: h } : undefined);
    else this.nc.publish(subject, text, h ? { headers: h } : undefined);
    this.sent.push({ subject, headers: final ? { [FINAL_HEADER]: ["true"] } : {}, text, at: performance.now(), kind });
  }

  /** micro `req.Error`: the code and text in headers, an empty body. */
  microError(msg: Msg, code: number, description: string, endpoint: string): void {
    const s = this.endpointStats(endpoint);
    s.errors++;
    s.lastError = `${code}:${description}`;
    if (!msg.reply || this.#stopped || this.nc.isClosed()) return;
    const h = natsHeaders();
    h.set("Nats-Service-Error-Code", String(code));
    h.set("Nats-Service-Error", description);
    msg.respond(new Uint8Array(0), { headers: h });
    this.sent.push({ subject: msg.reply, headers: headerRecord(h), text: "", at: performance.now(), kind: "micro-error" });
  }

  /** Resolves after `ms`, or early when woken (`wake()`) or stopped; says which. */
  sleep(ms: number, waker?: Waker): Promise<"elapsed" | "woken" | "stopped"> {
    if (this.#stopped) return Promise.resolve("stopped");
    return new Promise((resolve) => {
      const done = (why: "elapsed" | "woken" | "stopped") => {
        clearTimeout(timer);
        this.#sleepers.delete(onStop);
        waker?.off(onWake);
        resolve(why);
      };
      const onStop = () => done("stopped");
      const onWake = () => done("woken");
      const timer = Number.isFinite(ms) ? setTimeout(() => done("elapsed"), Math.max(0, ms)) : undefined;
      this.#sleepers.add(onStop);
      waker?.on(onWake);
    });
  }
}

/** Wakes the sleeps of one run: an answer, a waiting or a cancel arrived. */
export class Waker {
  readonly #waiting = new Set<() => void>();
  on(fn: () => void): void {
    this.#waiting.add(fn);
  }
  off(fn: () => void): void {
    this.#waiting.delete(fn);
  }
  wake(): void {
    for (const fn of [...this.#waiting]) fn();
  }
}

/**
 * One reply set: the ack (sequence 1) answered through the request, everything after it
 * published with gap-free sequences, and only the last marked final.
 */
export class ReplySet {
  readonly #rt: PeerRuntime;
  readonly #msg: Msg;
  readonly #inbox: string;
  readonly ctx: ReplyContext;
  #next = 1;
  #ended = false;

  constructor(rt: PeerRuntime, msg: Msg, ctx: ReplyContext) {
    this.#rt = rt;
    this.#msg = msg;
    this.#inbox = msg.reply ?? "";
    this.ctx = ctx;
  }

  get ended(): boolean {
    return this.#ended;
  }

  ack(body: Record<string, unknown>): void {
    if (this.#next !== 1) throw new Error("the ack must be the first message of a reply set");
    this.#rt.send(this.#inbox, message(id("ack"), this.ctx, this.#next++, body), "fisk-ai", false, this.#msg);
  }

  /** A middle message; one over the size cap is refused without taking a sequence number. */
  publish(protocol: string, body: Record<string, unknown>): boolean {
    if (this.#ended) return false;
    const text = message(protocol, this.ctx, this.#next, body);
    if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) return false;
    this.#next++;
    this.#rt.send(this.#inbox, text, "fisk-ai");
    return true;
  }

  /** The terminal message, with the final header. */
  end(protocol: string, body: Record<string, unknown>): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#rt.send(this.#inbox, message(protocol, this.ctx, this.#next++, body), "fisk-ai", true);
  }

  /** A terminal message of some other request, sent to this inbox: readers must drop it. */
  foreign(protocol: string, body: Record<string, unknown>): void {
    const other = ksuid();
    const ctx: ReplyContext = { ...this.ctx, request: other, conversation: other };
    this.#rt.send(this.#inbox, message(protocol, ctx, 2, body), "fisk-ai", true);
  }
}
