/**
 * A NATS port that records what the served agent receives and sends, for the console: subject,
 * reply subject, headers and body text, with every conversation_token value replaced (they are
 * credentials).
 */
import { redactConversationTokens } from "../../src/core/fisk/client/redact.ts";
import type { NatsHeaders, NatsMessage, NatsPort } from "../../src/core/nats/port.ts";
import type { FrameDirection, FrameEvent } from "../../src/core/serving/mcp/recording-transport.ts";

const utf8 = new TextDecoder("utf-8");

/** The frame as the console shows it: body as UTF-8 text (bad bytes become U+FFFD), tokens redacted. */
export function natsFrame(direction: FrameDirection, subject: string, data: Uint8Array, headers: NatsHeaders | undefined, reply?: string): FrameEvent {
  const text = redactConversationTokens(utf8.decode(data));
  const base = { direction, subject, ...(reply ? { reply } : {}) };
  if (!headers || Object.keys(headers).length === 0) return { ...base, text };
  const redacted: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers)) redacted[name] = values.map(redactConversationTokens);
  return { ...base, headers: redacted, text };
}

/** Wraps `port`: inbound messages are recorded before the handler sees them, outbound once sent. */
export function recordingNatsPort(port: NatsPort, sink: (frame: FrameEvent) => void): NatsPort {
  const inbound = (msg: NatsMessage): void => sink(natsFrame("in", msg.subject, msg.data, msg.headers, msg.reply));
  return {
    get server() {
      return port.server;
    },
    node: () => port.node?.(),
    async request(subject, data, options) {
      sink(natsFrame("out", subject, data, options.headers));
      const reply = await port.request(subject, data, options);
      inbound(reply);
      return reply;
    },
    publish(subject, data, options) {
      port.publish(subject, data, options);
      sink(natsFrame("out", subject, data, options?.headers, options?.reply));
    },
    subscribe(subject, onMessage, options) {
      return port.subscribe(
        subject,
        (msg) => {
          inbound(msg);
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
