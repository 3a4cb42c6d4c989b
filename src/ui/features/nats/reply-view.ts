import type { NatsMessage, NatsRequestOutcome } from "../../../core/nats/index.ts";
import { decodeFrame } from "../../../core/wire/index.ts";
import { formatRtt } from "../../lib/format.ts";
import { payloadView, prettyJson } from "../../lib/payload-view.ts";

export interface ReplySummary {
  readonly tone: "ok" | "warn" | "bad";
  readonly title: string;
  readonly detail: string;
  readonly rtt: string;
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

export interface ReplyBody {
  readonly kind: "json" | "text" | "hex" | "empty";
  readonly body: string;
  /** Marker naming what was cut for display, or null when everything is shown. */
  readonly truncated: string | null;
}

/** The reply payload for display: pretty JSON when it parses, else the Traffic payload view. */
export function replyBody(message: NatsMessage): ReplyBody {
  if (message.data.byteLength === 0) return { kind: "empty", body: "", truncated: null };
  const { json } = decodeFrame(message.data);
  if (json !== undefined) return { kind: "json", ...prettyJson(json) };
  return payloadView(message.data);
}
