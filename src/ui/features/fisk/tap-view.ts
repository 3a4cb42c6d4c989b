import type { TapFrame } from "../../../core/fisk/client/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { formatMs } from "../../lib/format.ts";
import { shortProtocol } from "./timeline.ts";

/** What the decoded column shows: the protocol without its namespace, or why it did not decode. */
export function frameProtocol(frame: TapFrame): string {
  const d = frame.decoded;
  if (frame.message.status) return `status ${frame.message.status.code}`;
  if (!d) return frame.message.data.byteLength === 0 ? "(empty)" : "(not decoded)";
  return d.ok ? shortProtocol(d.message.protocol) : `✗ ${d.error.code}`;
}

/** The verdict column: status in a word, or "checking…" until the worker answers. */
export function verdictWord(v: Verdict | string | undefined, frame: TapFrame): { text: string; tone: "ok" | "warn" | "bad" | "muted" } {
  if (v === undefined) return frame.decoded?.ok ? { text: "checking…", tone: "muted" } : { text: "—", tone: "muted" };
  if (typeof v === "string") return { text: "not checked", tone: "muted" };
  if (v.status === "valid") return { text: "valid", tone: "ok" };
  if (v.status === "error-response") return { text: "error response", tone: "warn" };
  return { text: v.status, tone: "bad" };
}

export function frameTime(frame: TapFrame, origin: number): string {
  return `${formatMs(frame.at - origin)} ms`;
}

/** Numbers exchanges (by reply inbox) in the order first seen; frames of one exchange share it. */
export class ExchangeNumbers {
  readonly #byInbox = new Map<string, number>();

  /** 0 for a frame with no correlation. */
  of(correlation: string | undefined): number {
    if (!correlation) return 0;
    let n = this.#byInbox.get(correlation);
    if (n === undefined) {
      n = this.#byInbox.size + 1;
      this.#byInbox.set(correlation, n);
    }
    return n;
  }

  clear(): void {
    this.#byInbox.clear();
  }
}
