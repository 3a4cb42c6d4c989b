import type { ReplySetEntry } from "../../../core/fisk/client/reply-set.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import { NAMESPACE } from "../../../core/packs/fisk-ai/protocol.ts";
import { formatMs } from "../../lib/format.ts";

/** One message of a reply set as the timeline lists it. */
export interface TimelineRow {
  /** "12.3 ms" after the request was sent. */
  readonly at: string;
  readonly sequence: string;
  /** What the reader made of it, in words: ack, keepalive, terminal, dropped (foreign)… */
  readonly disposition: string;
  readonly tone: "ok" | "warn" | "bad" | "muted";
  /** The protocol id without the namespace, or the NATS status. */
  readonly what: string;
  readonly note: string;
  /** The instance of the agent that sent it (`sender.instance`), when it names one. */
  readonly instance: string;
}

/** The instance a reply set's messages name: the one that answered the call, or "" when none does. */
export function answeringInstance(entries: readonly Pick<ReplySetEntry, "disposition" | "value">[]): string {
  for (const e of entries) {
    if (e.disposition === "foreign") continue;
    const sender = e.value?.sender;
    if (isJsonObject(sender) && typeof sender.instance === "string" && sender.instance !== "") return sender.instance;
  }
  return "";
}

/** The protocol id without `io.choria.fisk-ai.v1.`. */
export function shortProtocol(protocol: string | undefined): string {
  if (!protocol) return "";
  return protocol.startsWith(`${NAMESPACE}.`) ? protocol.slice(NAMESPACE.length + 1) : protocol;
}

/** A running-tool status event: the peer's "still working" while a tool runs. */
export function isKeepalive(entry: Pick<ReplySetEntry, "protocol" | "value">): boolean {
  if (shortProtocol(entry.protocol) !== "event.status") return false;
  const block = entry.value?.block;
  return isJsonObject(block) && block.phase === "running-tool";
}

/** A status carrying the tool's own progress ("2 of 5 s"), or null for any other message. */
export function progressOf(entry: Pick<ReplySetEntry, "protocol" | "value">): string | null {
  if (shortProtocol(entry.protocol) !== "event.status") return null;
  const block = entry.value?.block;
  if (!isJsonObject(block) || typeof block.progress !== "number") return null;
  if (typeof block.message === "string" && block.message !== "") return block.message;
  return typeof block.total === "number" ? `${block.progress} of ${block.total}` : String(block.progress);
}

function disposition(entry: ReplySetEntry): Pick<TimelineRow, "disposition" | "tone"> {
  switch (entry.disposition) {
    case "ack":
      return entry.value?.accepted === false ? { disposition: "ack (refused)", tone: "warn" } : { disposition: "ack", tone: "ok" };
    case "event": {
      if (progressOf(entry) !== null) return { disposition: "progress", tone: "ok" };
      if (isKeepalive(entry)) return { disposition: "keepalive", tone: "muted" };
      const p = shortProtocol(entry.protocol);
      if (p.startsWith("elicit.request.")) return { disposition: "question", tone: "warn" };
      return { disposition: "event", tone: "ok" };
    }
    case "terminal":
      return { disposition: entry.final ? "terminal (final)" : "terminal", tone: "ok" };
    case "foreign":
      return { disposition: "dropped: another request's", tone: "warn" };
    case "refusal":
      return { disposition: "refusal", tone: "bad" };
    case "no-responders":
      return { disposition: "no responders", tone: "bad" };
    case "invalid":
      return { disposition: "invalid", tone: "bad" };
  }
}

export function timelineRow(entry: ReplySetEntry): TimelineRow {
  const status = entry.message.status;
  return {
    at: `${formatMs(entry.at)} ms`,
    sequence: entry.sequence === undefined ? "—" : String(entry.sequence),
    ...disposition(entry),
    what: shortProtocol(entry.protocol) || (status ? `status ${status.code}` : entry.message.data.byteLength === 0 ? "(empty body)" : ""),
    note: entry.note ?? progressOf(entry) ?? "",
    instance: answeringInstance([entry]),
  };
}
