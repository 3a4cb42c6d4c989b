import type { Clock } from "../../env/environment.ts";
import { formatGoTime, goCompact, type RandomBytes } from "../../fisk/codec/index.ts";
import type { NatsMessage, NatsPort, NatsSubscription } from "../../nats/port.ts";

/**
 * The NATS micro control subjects (`$SRV.PING|INFO|STATS`, each also under `.<name>` and
 * `.<name>.<id>`), answered as nats.go's micro answers them for a fisk-ai agent, so `$SRV.INFO`
 * and `nats micro ls` find it. No queue group: every instance answers. Written over NatsPort
 * from the documented JSON shapes (ADR-32); field order follows the Go structs.
 */

/** What fisk-ai registers: micro service version and description. */
export const SERVICE_VERSION = "0.0.0";
export const SERVICE_DESCRIPTION = "fisk-ai a2a tool server";

export interface MicroEndpoint {
  readonly name: string;
  readonly subject: string;
  readonly queueGroup: string;
  /** The endpoint's own figures in `$SRV.STATS` (`data`): its load, for a console to show. */
  readonly data?: () => Readonly<Record<string, unknown>>;
}

/** Per-endpoint counters, as `$SRV.STATS` reports them. */
export class EndpointStats {
  requests = 0;
  errors = 0;
  lastError = "";
  processingNs = 0;

  error(code: number, description: string): void {
    this.errors++;
    this.lastError = `${code}:${description}`;
  }

  /** Counts one request and the time its handler took. */
  time<T>(clock: Pick<Clock, "now">, handle: () => T): T {
    this.requests++;
    const started = clock.now();
    try {
      return handle();
    } finally {
      this.processingNs += Math.round((clock.now() - started) * 1e6);
    }
  }
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A service instance id: 22 base62 characters, like the NUID micro mints. */
export function serviceInstanceId(random: RandomBytes): string {
  return Array.from(random(new Uint8Array(22)), (b) => BASE62[b % 62]).join("");
}

export interface MicroService {
  readonly name: string;
  readonly id: string;
  /** Service metadata in every answer (Patchbay puts the fisk-ai instance name here). */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly endpoints: readonly MicroEndpoint[];
  readonly stats: (endpoint: string) => EndpointStats;
}

const VERBS = ["PING", "INFO", "STATS"] as const;
type Verb = (typeof VERBS)[number];

function response(verb: Verb, svc: MicroService, started: string): string {
  const base = { name: svc.name, id: svc.id, version: SERVICE_VERSION, metadata: svc.metadata ?? {} };
  if (verb === "PING") return goCompact(JSON.stringify({ ...base, type: "io.nats.micro.v1.ping_response" }));
  if (verb === "INFO") {
    const endpoints = svc.endpoints.map((e) => ({ name: e.name, subject: e.subject, queue_group: e.queueGroup, metadata: null }));
    return goCompact(JSON.stringify({ ...base, type: "io.nats.micro.v1.info_response", description: SERVICE_DESCRIPTION, endpoints }));
  }
  const endpoints = svc.endpoints.map((e) => {
    const s = svc.stats(e.name);
    return {
      name: e.name,
      subject: e.subject,
      queue_group: e.queueGroup,
      num_requests: s.requests,
      num_errors: s.errors,
      last_error: s.lastError,
      processing_time: s.processingNs,
      average_processing_time: s.requests === 0 ? 0 : Math.round(s.processingNs / s.requests),
      ...(e.data ? { data: e.data() } : {}),
    };
  });
  return goCompact(JSON.stringify({ ...base, type: "io.nats.micro.v1.stats_response", started, endpoints }));
}

/** Subscribes the nine control subjects; the caller unsubscribes them on stop. */
export function serveMicro(port: NatsPort, svc: MicroService, clock: Pick<Clock, "wallNow">, onError: (message: string) => void): NatsSubscription[] {
  const started = formatGoTime({ ms: clock.wallNow() });
  const encoder = new TextEncoder();
  const subs: NatsSubscription[] = [];
  for (const verb of VERBS) {
    const answer = (msg: NatsMessage): void => {
      if (!msg.reply) return;
      try {
        port.publish(msg.reply, encoder.encode(response(verb, svc, started)));
      } catch (err) {
        onError(`could not answer $SRV.${verb}: ${(err as Error).message}`);
      }
    };
    for (const subject of [`$SRV.${verb}`, `$SRV.${verb}.${svc.name}`, `$SRV.${verb}.${svc.name}.${svc.id}`]) {
      subs.push(port.subscribe(subject, answer));
    }
  }
  return subs;
}
