import { NAMESPACE } from "../../packs/fisk-ai/protocol.ts";
import { SERVICE_ERROR, SERVICE_ERROR_CODE, type ReplySetEntry, type ReplySetResult } from "./reply-set.ts";
import type { ToolOutcome } from "./tool-outcome.ts";

/** ok: the tool ran and succeeded; warn: nothing ran or went wrong yet (busy, stopped here); bad: it failed. */
export type OutcomeTone = "ok" | "warn" | "bad";

/** One fact the headline rests on: which message, which field of it, what it held. */
export interface OutcomeEvidence {
  readonly message: string;
  readonly field: string;
  readonly value: string;
}

/** A tool call's outcome as a person reads it: one headline, its colour, a line of detail, the evidence. */
export interface OutcomeView {
  readonly tone: OutcomeTone;
  readonly headline: string;
  readonly detail: string;
  readonly evidence: readonly OutcomeEvidence[];
}

const oneLine = (text: string): string => {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

const ms = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000} s` : n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

/** "tool.reply #2": the message's kind without the namespace, and its sequence. */
function nameOf(entry: ReplySetEntry): string {
  const protocol = entry.protocol ?? "";
  const kind = protocol.startsWith(`${NAMESPACE}.`) ? protocol.slice(NAMESPACE.length + 1) : protocol || "message";
  return entry.sequence === undefined ? kind : `${kind} #${entry.sequence}`;
}

const shown = (v: unknown): string => (v === undefined ? "absent" : typeof v === "string" ? JSON.stringify(oneLine(v)) : JSON.stringify(v));

function field(entry: ReplySetEntry | undefined, path: string): OutcomeEvidence | null {
  if (!entry?.value) return null;
  let v: unknown = entry.value;
  for (const key of path.split(".")) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return { message: nameOf(entry), field: path, value: shown(v) };
}

const facts = (...items: (OutcomeEvidence | null)[]): OutcomeEvidence[] => items.filter((e): e is OutcomeEvidence => e !== null);

/** What was last heard before the read stopped, for outcomes that have no terminal message. */
function lastHeard(set: ReplySetResult): OutcomeEvidence {
  const own = set.entries.filter((e) => e.disposition !== "foreign");
  const last = own[own.length - 1];
  if (!last) return { message: "reply set", field: "messages", value: `none in ${ms(set.elapsedMs)}` };
  return { message: nameOf(last), field: "arrived", value: `${ms(last.at)} after sending, the last of ${own.length}` };
}

/**
 * The one place a tool call's outcome becomes words and a colour. A command that ran is a result
 * whatever its exit code, and a non-zero exit is a failure of that command (red, with the code);
 * `is_error` is the tool's own failure; nothing that did not run is ever called a success.
 */
export function viewToolOutcome(set: ReplySetResult, outcome: ToolOutcome): OutcomeView {
  const end = set.end;
  const reply = end.kind === "terminal" ? end.entry : undefined;
  const ack = set.entries.find((e) => e.disposition === "ack");
  switch (outcome.kind) {
    case "ran": {
      const cut = outcome.truncated ? " (output truncated)" : "";
      const evidence = facts(field(reply, "exec.exit_code"), field(reply, "exec.command"), outcome.truncated ? field(reply, "exec.truncated") : null);
      if (outcome.exitCode === 0) return { tone: "ok", headline: `success: exit code 0${cut}`, detail: `the command ${JSON.stringify(outcome.command ?? "")} ran and exited 0 (exec.exit_code absent means 0)`, evidence };
      return {
        tone: "bad",
        headline: `exit code ${outcome.exitCode}${cut}`,
        detail: "the command ran and failed: a non-zero exit is the tool's answer, not a protocol error (is_error is not set)",
        evidence: [...evidence, ...facts(field(reply, "is_error"))],
      };
    }
    case "output":
      return { tone: "ok", headline: "success: the tool ran in process", detail: "no exec block: an in-process tool answered with its output", evidence: facts(field(reply, "exec"), field(reply, "is_error")) };
    case "harness-failure":
      return {
        tone: "bad",
        headline: `is_error: the tool did not run cleanly${outcome.code ? ` (code ${outcome.code})` : ""}`,
        detail: oneLine(outcome.output) || "(no output)",
        evidence: facts(field(reply, "is_error"), field(reply, "output"), outcome.code ? field(reply, "code") : null),
      };
    case "capacity":
      return { tone: "warn", headline: "refused: the agent is at capacity", detail: oneLine(outcome.reason), evidence: facts(field(ack, "accepted"), field(reply, "code")) };
    case "not-available":
      return { tone: "bad", headline: "not available: the agent does not serve this tool", detail: oneLine(outcome.reason), evidence: facts(field(ack, "accepted"), field(ack, "reason") ?? field(reply, "output")) };
    case "refused": {
      const headers = { message: "empty-bodied reply", field: "" };
      return {
        tone: "bad",
        headline: `refused with micro error ${outcome.code}`,
        detail: `${oneLine(outcome.description) || "(no description)"}; nothing ran and no reply set was sent`,
        evidence: [
          { ...headers, field: SERVICE_ERROR_CODE, value: outcome.code },
          { ...headers, field: SERVICE_ERROR, value: JSON.stringify(oneLine(outcome.description)) },
        ],
      };
    }
    case "no-such-agent":
      if (outcome.via) {
        return {
          tone: "bad",
          headline: "no responders: the agent is not running",
          detail: `nothing answered for ${ms(outcome.via.silentMs)}, and nothing serves ${outcome.via.subject}: another subscriber (a tap?) holds the subject without answering`,
          evidence: [lastHeard(set), { message: `reply to ${outcome.via.subject}`, field: "NATS status", value: "503" }],
        };
      }
      return { tone: "bad", headline: "no responders (503): nothing serves this subject", detail: "NATS answered at once: no agent with this identity is subscribed", evidence: [{ message: "status message on the inbox", field: "NATS status", value: "503" }] };
    case "idle-timeout":
      return { tone: "bad", headline: `idle timeout: nothing for ${ms(outcome.idleMs)}`, detail: "the agent went silent; the tool may still be running there", evidence: [lastHeard(set)] };
    case "instance-gone":
      return {
        tone: "bad",
        headline: `instance gone: ${outcome.instance} stopped mid-call`,
        detail: `nothing came for ${ms(outcome.via.silentMs)} and ${outcome.instance} no longer answers ${outcome.via.subject}; whether the tool finished there is unknown, and the call was not sent again`,
        evidence: [lastHeard(set), { message: `replies to ${outcome.via.subject}`, field: "metadata.instance", value: `no ${JSON.stringify(outcome.instance)}` }],
      };
    case "disconnected":
      return {
        tone: "bad",
        headline: "connection lost mid-call",
        detail: `the connection to NATS${outcome.server ? ` (${outcome.server})` : ""} dropped before the reply came; the tool may or may not have run, and the call was not sent again`,
        evidence: [lastHeard(set)],
      };
    case "cancelled":
      return {
        tone: "warn",
        headline: "cancelled (no reply)",
        detail: "stopped reading here before any tool.reply; the agent was not told (tool calls have no cancel subject), so the tool may still run",
        evidence: [lastHeard(set)],
      };
    case "protocol-error":
      return { tone: "bad", headline: "protocol error", detail: outcome.message, evidence: set.entries.length > 0 ? [lastHeard(set)] : [] };
    case "send-failed":
      return { tone: "bad", headline: "not sent", detail: outcome.message, evidence: [] };
  }
}
