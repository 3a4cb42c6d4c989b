import type { Clock, IdSource, Logger } from "../env/environment.ts";
import { SnapshotStore } from "../events/typed-event-target.ts";
import type { WireLog } from "../wire/wire-log.ts";
import {
  NatsRequestError,
  type NatsConnectOptions,
  type NatsConnector,
  type NatsHeaders,
  type NatsMessage,
  type NatsPort,
} from "./port.ts";

export type NatsConnectionState = "idle" | "connecting" | "connected" | "reconnecting" | "failed" | "closed";

export interface NatsSessionSnapshot {
  readonly state: NatsConnectionState;
  /** The server URL asked for (credentials are never kept here). */
  readonly servers?: string;
  readonly error?: string;
  /** The server the connection is on, as it names itself (a cluster node's name), when known. */
  readonly node?: { readonly name: string; readonly url: string; readonly cluster?: string };
  /** The last time the connection dropped: from which server, and how long it took to come back. */
  readonly drop?: { readonly server?: string; readonly atWall: number; readonly backAfterMs?: number };
}

export type NatsRequestOutcome =
  | { readonly kind: "reply"; readonly message: NatsMessage; readonly rttMs: number }
  | { readonly kind: "no-responders"; readonly rttMs: number }
  | { readonly kind: "timeout"; readonly rttMs: number; readonly timeoutMs: number }
  | { readonly kind: "error"; readonly rttMs: number; readonly message: string };

export interface NatsRequestInput {
  readonly subject: string;
  readonly payload: Uint8Array;
  readonly headers?: NatsHeaders;
  readonly timeoutMs: number;
}

const SUBJECT = /^[^\s*>]+$/;

/** Why a subject cannot be published to, or null when it can. */
export function subjectProblem(subject: string): string | null {
  if (subject.length === 0) return "subject is empty";
  if (!SUBJECT.test(subject)) return "a request subject cannot contain spaces or the wildcards * and >";
  if (subject.split(".").some((t) => t.length === 0)) return "subject has an empty token (leading, trailing or double dot)";
  return null;
}

/** One NATS connection with its state, and requests that log both frames to the wire log. */
export class NatsSession extends SnapshotStore<NatsSessionSnapshot> {
  readonly #connector: NatsConnector;
  readonly #clock: Clock;
  readonly #log: WireLog;
  readonly #logger: Logger;
  readonly #ids: IdSource;
  #port: NatsPort | null = null;
  #unsubscribeStatus: (() => void) | null = null;
  #attempt = 0;

  constructor(deps: { connector: NatsConnector; clock: Clock; ids: IdSource; wireLog: WireLog; logger: Logger }) {
    super({ state: "idle" });
    this.#ids = deps.ids;
    this.#connector = deps.connector;
    this.#clock = deps.clock;
    this.#log = deps.wireLog;
    this.#logger = deps.logger;
  }

  get port(): NatsPort | null {
    return this.#port;
  }

  async connect(options: NatsConnectOptions): Promise<void> {
    await this.disconnect();
    const attempt = ++this.#attempt;
    this.set({ state: "connecting", servers: options.servers });
    try {
      const port = await this.#connector.connect(options);
      if (attempt !== this.#attempt) {
        await port.close();
        return;
      }
      this.#port = port;
      const nodeOf = () => {
        const n = port.node?.();
        return n ? { node: { name: n.name, url: n.url, ...(n.cluster ? { cluster: n.cluster } : {}) } } : {};
      };
      let droppedAt = 0;
      this.#unsubscribeStatus = port.onStatus((e) => {
        if (this.#port !== port) return;
        if (e.type === "disconnect") {
          droppedAt = this.#clock.now();
          this.update((s) => ({ ...s, state: "reconnecting", drop: { ...(e.server ? { server: e.server } : {}), atWall: this.#clock.wallNow() } }));
          this.#logger.warn("nats disconnected; reconnecting", { server: e.server ?? "" });
        } else if (e.type === "reconnecting") this.update((s) => ({ ...s, state: "reconnecting" }));
        else if (e.type === "reconnect") {
          const backAfterMs = Math.round(this.#clock.now() - droppedAt);
          this.update((s) => ({ state: "connected", servers: options.servers, ...nodeOf(), ...(s.drop ? { drop: { ...s.drop, backAfterMs } } : {}) }));
          this.#logger.info("nats reconnected", { server: e.server ?? "", afterMs: backAfterMs });
        } else if (e.type === "closed") {
          this.#port = null;
          this.set({ state: "closed", servers: options.servers, ...(e.message ? { error: e.message } : {}) });
        }
      });
      this.set({ state: "connected", servers: options.servers, ...nodeOf() });
      this.#logger.info("nats connected", { servers: options.servers });
    } catch (err) {
      if (attempt !== this.#attempt) return;
      const message = (err as Error).message;
      this.set({ state: "failed", servers: options.servers, error: message });
      this.#logger.warn("nats connect failed", { servers: options.servers, error: message });
    }
  }

  async disconnect(): Promise<void> {
    this.#attempt++;
    const port = this.#port;
    this.#port = null;
    this.#unsubscribeStatus?.();
    this.#unsubscribeStatus = null;
    if (port) {
      await port.close().catch(() => {});
      this.set({ state: "closed", ...(this.snapshot.servers ? { servers: this.snapshot.servers } : {}) });
    }
  }

  /** Send a request; the outgoing frame is logged before it is sent, the reply before it is parsed. */
  async request(input: NatsRequestInput): Promise<NatsRequestOutcome> {
    const port = this.#port;
    if (!port) return { kind: "error", rttMs: 0, message: "not connected" };
    const problem = subjectProblem(input.subject);
    if (problem) return { kind: "error", rttMs: 0, message: problem };
    const correlationId = this.#ids.next();
    this.#log.record({
      channel: "nats",
      direction: "out",
      target: input.subject,
      bytes: input.payload,
      correlationId,
      ...(input.headers ? { headers: input.headers } : {}),
    });
    const started = this.#clock.now();
    try {
      const reply = await port.request(input.subject, input.payload, {
        timeoutMs: input.timeoutMs,
        ...(input.headers ? { headers: input.headers } : {}),
      });
      const rttMs = this.#clock.now() - started;
      this.#log.record({
        channel: "nats",
        direction: "in",
        target: input.subject,
        bytes: reply.data,
        correlationId,
        rttMs,
        ...(reply.headers ? { headers: reply.headers } : {}),
        ...(reply.status ? { status: reply.status.code, note: reply.status.description } : {}),
      });
      return { kind: "reply", message: reply, rttMs };
    } catch (err) {
      const rttMs = this.#clock.now() - started;
      const failure = err instanceof NatsRequestError ? err : new NatsRequestError("other", String(err));
      const status = failure.kind === "no-responders" ? 503 : failure.kind === "timeout" ? 408 : undefined;
      this.#log.record({
        channel: "nats",
        direction: "in",
        target: input.subject,
        bytes: new Uint8Array(0),
        correlationId,
        rttMs,
        note: failure.kind === "no-responders" ? "no responders" : failure.kind === "timeout" ? `timeout after ${input.timeoutMs} ms` : failure.message,
        ...(status ? { status } : {}),
      });
      if (failure.kind === "no-responders") return { kind: "no-responders", rttMs };
      if (failure.kind === "timeout") return { kind: "timeout", rttMs, timeoutMs: input.timeoutMs };
      return { kind: "error", rttMs, message: failure.message };
    }
  }
}
