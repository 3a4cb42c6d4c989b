import type { Clock, IdSource } from "../env/environment.ts";
import type { WireLog } from "../wire/wire-log.ts";
import type { NatsMessage, NatsPort } from "./port.ts";

/**
 * A port that records every frame in the wire log, verbatim and before anyone parses it: what is
 * published (out), what arrives on a subscription (in), and both sides of a request. Frames of one
 * exchange share a correlation id: the reply subject (inbox) where there is one.
 */
export function loggedPort(port: NatsPort, log: WireLog, clock: Clock, ids: IdSource): NatsPort {
  const inbound = (msg: NatsMessage, correlationId: string, rttMs?: number): void => {
    log.record({
      channel: "nats",
      direction: "in",
      target: msg.subject,
      bytes: msg.data,
      correlationId,
      ...(msg.headers ? { headers: msg.headers } : {}),
      ...(msg.status ? { status: msg.status.code, note: msg.status.description } : {}),
      ...(rttMs !== undefined ? { rttMs } : {}),
    });
  };
  return {
    get server() {
      return port.server;
    },
    node: () => port.node?.(),
    async request(subject, data, options) {
      const correlationId = ids.next();
      log.record({ channel: "nats", direction: "out", target: subject, bytes: data, correlationId, ...(options.headers ? { headers: options.headers } : {}) });
      const started = clock.now();
      try {
        const reply = await port.request(subject, data, options);
        inbound(reply, correlationId, clock.now() - started);
        return reply;
      } catch (err) {
        log.record({ channel: "nats", direction: "in", target: subject, bytes: new Uint8Array(0), correlationId, rttMs: clock.now() - started, note: (err as Error).message });
        throw err;
      }
    },
    publish(subject, data, options) {
      const reply = options?.reply;
      log.record({
        channel: "nats",
        direction: "out",
        target: subject,
        bytes: data,
        correlationId: reply ?? ids.next(),
        ...(options?.headers ? { headers: options.headers } : {}),
      });
      port.publish(subject, data, options);
    },
    subscribe(subject, onMessage, options) {
      return port.subscribe(
        subject,
        (msg) => {
          inbound(msg, msg.subject.startsWith("_INBOX.") ? msg.subject : (msg.reply ?? subject));
          onMessage(msg);
        },
        options,
      );
    },
    onStatus: (listener) => port.onStatus(listener),
    flush: () => port.flush(),
    close: () => port.close(),
  };
}
