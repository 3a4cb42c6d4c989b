import type { NatsMessage, NatsRequestOutcome } from "../../../core/nats/index.ts";
import { decodeFrame, utf8Text } from "../../../core/wire/index.ts";

export interface ReplySummary {
  readonly tone: "ok" | "warn" | "bad";
  readonly title: string;
  readonly detail: string;
  readonly rtt: string;
}

/** Round-trip time in ms with 0.1 ms resolution. */
export function formatRtt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

export function summarize(outcome: NatsRequestOutcome): ReplySummary {
  const rtt = formatRtt(outcome.rttMs);
  switch (outcome.kind) {
    case "reply": {
      const status = outcome.message.status;
      if (status) return { tone: "warn", title: `Status ${status.code}`, detail: status.description, rtt };
      return { tone: "ok", title: "Reply", detail: `${outcome.message.data.byteLength} bytes`, rtt };
    }
    case "no-responders":
      return { tone: "bad", title: "No responders (503)", detail: "Nothing is subscribed to this subject.", rtt };
    case "timeout":
      return { tone: "bad", title: "Timeout", detail: `No reply within ${outcome.timeoutMs} ms.`, rtt };
    case "error":
      return { tone: "bad", title: "Request failed", detail: outcome.message, rtt };
  }
}

/** The reply payload for display: pretty JSON when it parses, else the text, else a note. */
export function payloadView(message: NatsMessage): { kind: "json" | "text" | "binary" | "empty"; text: string } {
  if (message.data.byteLength === 0) return { kind: "empty", text: "" };
  const decoded = decodeFrame(message.data);
  if (decoded.json !== undefined) return { kind: "json", text: JSON.stringify(decoded.json, null, 2) };
  const text = utf8Text(message.data);
  if (text !== null) return { kind: "text", text };
  return { kind: "binary", text: `${message.data.byteLength} bytes of binary data (see the Traffic log for a hex view)` };
}
