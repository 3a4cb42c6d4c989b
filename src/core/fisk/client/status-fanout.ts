import type { NatsMessage, NatsPort } from "../../nats/port.ts";

const isLiteral = (subject: string): boolean => !/(^|\.)[*>](\.|$)/.test(subject);

/**
 * A port that hands a server status (503 no responders) to the subscription it was meant for.
 * nats-server sends a status once per connection, to one subscription matching the reply subject:
 * with a tap on `_INBOX.>` on the same connection, the tap can get a call's 503 and the call's own
 * inbox nothing, so the call waits out its idle limit. Here a status that reaches a wildcard
 * subscription is also given to every literal subscription on its subject.
 */
export function statusFanout(port: NatsPort): NatsPort {
  const literal = new Map<string, Set<(m: NatsMessage) => void>>();
  return {
    get server() {
      return port.server;
    },
    node: () => port.node?.(),
    request: (subject, data, options) => port.request(subject, data, options),
    publish: (subject, data, options) => port.publish(subject, data, options),
    subscribe(subject, onMessage, options) {
      const exact = isLiteral(subject);
      if (exact) {
        let set = literal.get(subject);
        if (!set) literal.set(subject, (set = new Set()));
        set.add(onMessage);
      }
      const sub = port.subscribe(
        subject,
        (message) => {
          onMessage(message);
          if (!exact && message.status) for (const handler of [...(literal.get(message.subject) ?? [])]) handler(message);
        },
        options,
      );
      return {
        unsubscribe() {
          sub.unsubscribe();
          const set = literal.get(subject);
          set?.delete(onMessage);
          if (set?.size === 0) literal.delete(subject);
        },
      };
    },
    onStatus: (listener) => port.onStatus(listener),
    flush: () => port.flush(),
    close: () => port.close(),
  };
}
