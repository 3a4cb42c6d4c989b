import type { A2aEvent, AnswerFrame, Dialect, ExchangeFailure, NamedError, StreamEnd } from "../../../core/a2a/index.ts";
import { partText } from "../../../core/a2a/index.ts";

/** Frames, events, errors and endings in words, for the timeline and the exchange view. */

export type Tone = "ok" | "warn" | "bad" | "muted";

export interface Line {
  readonly text: string;
  readonly tone: Tone;
}

/** A named error: what the code means in the dialect, the code, the v1.0 reason, the message. */
export function errorWords(e: NamedError): string {
  return `${e.name} (${e.code})${e.reason ? ` [${e.reason}]` : ""}${e.message ? `: ${e.message}` : ""}`;
}

const textOf = (parts: readonly unknown[]): string =>
  parts
    .map((p) => partText(p) ?? "[non-text part]")
    .join("")
    .replace(/\n/g, "⏎");

function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function eventWords(event: A2aEvent): Line {
  switch (event.kind) {
    case "task":
      return { text: `task ${event.taskId}${event.state ? ` ${event.state.raw}` : ""}${event.statusText ? `: ${clip(event.statusText)}` : ""}${event.artifacts.length > 0 ? `, ${event.artifacts.length} artifact(s)` : ""}`, tone: toneOf(event.state?.state) };
    case "status":
      return { text: `status ${event.state?.raw ?? "(no state)"}${event.final ? " (final)" : ""}${event.statusText ? `: ${clip(event.statusText)}` : ""}`, tone: toneOf(event.state?.state) };
    case "artifact": {
      const c = event.chunk;
      return { text: `artifact ${c.artifactId}${c.append ? " + append" : ""}${c.lastChunk ? " (last chunk)" : ""}: ${clip(textOf(c.parts))}`, tone: "ok" };
    }
    case "message":
      return { text: `message${event.role ? ` from ${event.role}` : ""}: ${clip(event.text.replace(/\n/g, "⏎"))}`, tone: "ok" };
    case "tasks":
      return { text: `${event.tasks.length} task(s)${event.tasks.length > 0 ? `: ${event.tasks.map((t) => (t.kind === "task" ? `${t.taskId} ${t.state?.raw ?? ""}`.trim() : t.kind)).join(", ")}` : ""}`, tone: "ok" };
    case "error":
      return { text: errorWords(event.error), tone: "bad" };
    case "other":
      return { text: `${event.notes[0] ?? "an answer"}`, tone: "muted" };
  }
}

function toneOf(state: string | undefined): Tone {
  if (state === "failed" || state === "rejected" || state === "canceled") return "bad";
  if (state === "input-required" || state === "auth-required" || state === "unknown") return "warn";
  return "ok";
}

export function frameWords(frame: AnswerFrame): Line {
  if (frame.problem !== undefined || !frame.event) return { text: frame.problem ?? "unreadable", tone: "bad" };
  return eventWords(frame.event);
}

export function failureWords(failure: ExchangeFailure): Line {
  return { text: `${failure.kind}: ${failure.message}`, tone: "bad" };
}

/** How a stream ended, by the dialect's rule (v0.x `final`, v1.0 a terminal or interrupted state). */
export function endWords(end: StreamEnd | undefined, dialect: Dialect | undefined): string {
  switch (end) {
    case "final":
      return "the stream ended at final: true";
    case "terminal":
      return "the stream ended at a terminal state";
    case "interrupted":
      return "the stream ended: the task waits for you";
    case "message":
      return "the agent answered with a message, no task";
    case "open":
      return dialect === "1.0" ? "the stream closed before a terminal or interrupted state" : "the stream closed before final: true";
    default:
      // No stream end at all: the answer to a stream request was not an event stream.
      return "the agent answered with one JSON body, not an event stream";
  }
}

/** What `auth-required` means, since the protocol leaves the how to the agent. */
export const AUTH_REQUIRED_NOTE =
  "The agent needs credentials for this task before it goes on. A2A leaves how to the agent (its status message says what it wants, often out of band); once you have them, set them on the card form and send the next message on the same task.";
