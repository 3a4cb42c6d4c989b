/**
 * The NATS micro control subjects, answered the way nats.go's micro does for a fisk-ai agent:
 * `$SRV.PING|INFO|STATS`, each also under `.<name>` and `.<name>.<id>`, without a queue group so
 * every instance answers. `@nats-io/services` is not a project dependency, so this is our own
 * small responder; field order follows the Go structs (identity, then type, then the rest).
 */
import type { Msg, Subscription } from "@nats-io/transport-node";
import type { PeerRuntime } from "./runtime.ts";
import { goJson, goTime, SERVICE_DESCRIPTION, SERVICE_VERSION } from "./wire.ts";

export interface MicroEndpoint {
  readonly name: string;
  readonly subject: string;
  readonly queueGroup: string;
}

export interface MicroService {
  readonly name: string;
  readonly id: string;
  readonly endpoints: readonly MicroEndpoint[];
}

const VERBS = ["PING", "INFO", "STATS"] as const;
type Verb = (typeof VERBS)[number];

function identityFields(svc: MicroService): Record<string, unknown> {
  return { name: svc.name, id: svc.id, version: SERVICE_VERSION, metadata: {} };
}

function response(verb: Verb, svc: MicroService, rt: PeerRuntime, started: string): string {
  const base = identityFields(svc);
  if (verb === "PING") return goJson({ ...base, type: "io.nats.micro.v1.ping_response" });
  if (verb === "INFO") {
    return goJson({
      ...base,
      type: "io.nats.micro.v1.info_response",
      description: SERVICE_DESCRIPTION,
      endpoints: svc.endpoints.map((e) => ({ name: e.name, subject: e.subject, queue_group: e.queueGroup, metadata: null })),
    });
  }
  return goJson({
    ...base,
    type: "io.nats.micro.v1.stats_response",
    started,
    endpoints: svc.endpoints.map((e) => {
      const s = rt.endpointStats(e.name);
      return {
        name: e.name,
        subject: e.subject,
        queue_group: e.queueGroup,
        num_requests: s.requests,
        num_errors: s.errors,
        last_error: s.lastError,
        processing_time: s.processingNs,
        average_processing_time: s.requests === 0 ? 0 : Math.round(s.processingNs / s.requests),
      };
    }),
  });
}

/** Subscribes the nine control subjects; returns the subscriptions so stop() can drain them. */
export function serveMicro(rt: PeerRuntime, svc: MicroService): Subscription[] {
  const started = goTime();
  const subs: Subscription[] = [];
  for (const verb of VERBS) {
    const answer = (msg: Msg) => {
      if (msg.reply) rt.send(msg.reply, response(verb, svc, rt, started), "micro", false, msg);
    };
    for (const subject of [`$SRV.${verb}`, `$SRV.${verb}.${svc.name}`, `$SRV.${verb}.${svc.name}.${svc.id}`]) {
      subs.push(rt.nc.subscribe(subject, { callback: rt.callback("micro", answer) }));
    }
  }
  return subs;
}
