/**
 * What a fisk-ai call over NATS came to, in the harness's words: a tool call read through the
 * console's ToolOutcome (and worded by its view), a task by the way its reply set ended. The body
 * is the last message of the call's own reply set; the stream is that set's message kinds.
 */
import type { ReplySetEnd, ReplySetEntry, ReplySetResult, ToolOutcome } from "../../src/core/fisk/client/index.ts";
import { viewToolOutcome } from "../../src/core/fisk/client/index.ts";
import type { StepOutcome } from "../../src/core/harness/collection-types.ts";
import type { StepObservation } from "../../src/core/harness/run-types.ts";
import { NAMESPACE } from "../../src/core/packs/fisk-ai/protocol.ts";

type Why = "timeout" | "cancelled" | null;

const numeric = (code: string): { code?: number } => (/^-?\d+$/.test(code) ? { code: Number(code) } : {});

function stoppedOutcome(why: "timeout" | "cancelled", timeoutMs: number): StepOutcome {
  return why === "timeout" ? { kind: "timeout", message: `no final reply within the step's time limit of ${timeoutMs} ms` } : { kind: "cancelled", message: "cancelled before the final reply" };
}

export function toolStepOutcome(set: ReplySetResult, outcome: ToolOutcome, why: Why, timeoutMs: number): StepOutcome {
  // The step's own limit ends the read as a cancel; it is a timeout all the same.
  if (outcome.kind === "cancelled" && why !== null) return stoppedOutcome(why, timeoutMs);
  const view = viewToolOutcome(set, outcome);
  const message = `${view.headline}${view.detail ? ` (${view.detail})` : ""}`;
  switch (outcome.kind) {
    case "ran":
      return outcome.exitCode === 0 ? { kind: "result", message } : { kind: "exit-code", code: outcome.exitCode, message };
    case "output":
      return { kind: "result", message };
    case "harness-failure":
      return { kind: "is-error", message };
    case "capacity":
      return { kind: "capacity-refusal", message };
    case "not-available":
      return { kind: "not-available", message };
    case "refused":
      return { kind: "refused", ...numeric(outcome.code), message };
    case "no-such-agent":
      return { kind: "no-responders", message };
    case "idle-timeout":
      return { kind: "timeout", message };
    case "instance-gone":
    case "disconnected":
      return { kind: "transport-error", message };
    case "cancelled":
      return { kind: "cancelled", message };
    case "protocol-error":
      return { kind: "invalid-answer", message };
    case "send-failed":
      return { kind: "transport-error", message };
  }
}

/** A task: its `result` is the answer; an `error` is the state it ended in (its code, else "error"). */
export function taskStepOutcome(end: ReplySetEnd, why: Why, timeoutMs: number): StepOutcome {
  if (why !== null) return stoppedOutcome(why, timeoutMs);
  switch (end.kind) {
    case "terminal": {
      const value = end.entry.value ?? {};
      const text = (key: string): string | undefined => (typeof value[key] === "string" ? (value[key] as string) : undefined);
      if (end.entry.protocol === `${NAMESPACE}.result`) return { kind: "result", message: `the task ended with a result${text("stop_reason") ? ` (stop_reason ${text("stop_reason")})` : ""}` };
      const code = text("code");
      if (code === "capacity") return { kind: "capacity-refusal", message: `refused: the agent is at capacity${text("error") ? ` (${text("error")})` : ""}` };
      return { kind: "task-state", state: code ?? "error", message: `the task ended with an error${code ? ` (code ${code})` : ""}: ${text("error") ?? "(no error text)"}` };
    }
    case "final-without-terminal":
      return { kind: "invalid-answer", message: `the set ended (final header on ${end.entry.protocol ?? "a message"}) without a result or error` };
    case "refused":
      return { kind: "refused", ...numeric(end.code), message: `refused with micro error ${end.code}: ${end.description || "(no description)"}` };
    case "no-responders":
      return { kind: "no-responders", message: end.via ? `no responders: the agent is not running (nothing serves ${end.via.subject})` : "no responders (503): nothing serves this subject" };
    case "idle-timeout":
      return { kind: "timeout", message: `idle timeout: nothing for ${end.idleMs} ms` };
    case "instance-gone":
      return { kind: "transport-error", message: `instance ${end.instance} stopped mid-task (it no longer answers ${end.via.subject})` };
    case "disconnected":
      return { kind: "transport-error", message: `the connection to NATS dropped mid-task${end.server ? ` (${end.server})` : ""}` };
    case "protocol-error":
      return { kind: "invalid-answer", message: `protocol error: ${end.message}` };
    case "cancelled":
      return { kind: "cancelled", message: "cancelled before the task's final message" };
    case "send-failed":
      return { kind: "transport-error", message: `not sent: ${end.message}` };
  }
}

const own = (entries: readonly ReplySetEntry[]): ReplySetEntry[] => entries.filter((e) => e.disposition !== "foreign");

/** The last message of the call's own reply set, parsed (its text when it is not JSON). */
export function replyBody(entries: readonly ReplySetEntry[]): unknown {
  const last = own(entries).filter((e) => e.message.data.length > 0).pop();
  if (!last) return null;
  return last.value ?? payloadValue(last.message.data);
}

export function payloadValue(data: Uint8Array): unknown {
  const text = new TextDecoder().decode(data);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const shortKind = (protocol: string): string => (protocol.startsWith(`${NAMESPACE}.`) ? protocol.slice(NAMESPACE.length + 1) : protocol);

export function replyStream(entries: readonly ReplySetEntry[], end: ReplySetEnd): NonNullable<StepObservation["stream"]> {
  const kinds = own(entries).flatMap((e) => (e.protocol !== undefined ? [shortKind(e.protocol)] : []));
  return { kinds, final: end.kind === "terminal" };
}
