import type { LivenessEvidence, ReplySetResult } from "./reply-set.ts";

/** What a tool call came to, in the terms a person debugging a peer thinks in. */
export type ToolOutcome =
  /** A command ran; a non-zero exit is a result, not an error. */
  | { readonly kind: "ran"; readonly exitCode: number; readonly output: string; readonly command?: string; readonly truncated: boolean }
  /** An in-process tool: its output verbatim, no exec. */
  | { readonly kind: "output"; readonly output: string }
  /** `is_error`: the tool did not run cleanly (bad arguments, missing binary, timeout…). */
  | { readonly kind: "harness-failure"; readonly output: string; readonly code?: string }
  | { readonly kind: "capacity"; readonly reason: string }
  | { readonly kind: "not-available"; readonly reason: string }
  /** A micro error (400/404/500) with an empty body, before any reply set. */
  | { readonly kind: "refused"; readonly code: string; readonly description: string }
  /** 503: nothing serves the subject; with `via`, the agent's micro PING said so while the set was silent. */
  | { readonly kind: "no-such-agent"; readonly via?: LivenessEvidence }
  | { readonly kind: "idle-timeout"; readonly idleMs: number }
  /** The instance that acknowledged the call stopped answering its PING: it died or stopped mid-call. */
  | { readonly kind: "instance-gone"; readonly instance: string; readonly via: LivenessEvidence }
  /** The connection dropped while the call was in flight; it was not sent again. */
  | { readonly kind: "disconnected"; readonly server?: string }
  | { readonly kind: "protocol-error"; readonly message: string }
  | { readonly kind: "cancelled" }
  | { readonly kind: "send-failed"; readonly message: string };

const NOT_AVAILABLE = /^tool ".*" is not available$/s;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Maps a reply set to its outcome, following how fisk-ai itself reads a `tool.reply`. */
export function toolOutcome(set: ReplySetResult): ToolOutcome {
  const end = set.end;
  switch (end.kind) {
    case "refused":
      return { kind: "refused", code: end.code, description: end.description };
    case "no-responders":
      return end.via ? { kind: "no-such-agent", via: end.via } : { kind: "no-such-agent" };
    case "idle-timeout":
      return { kind: "idle-timeout", idleMs: end.idleMs };
    case "instance-gone":
      return { kind: "instance-gone", instance: end.instance, via: end.via };
    case "disconnected":
      return end.server ? { kind: "disconnected", server: end.server } : { kind: "disconnected" };
    case "protocol-error":
      return { kind: "protocol-error", message: end.message };
    case "cancelled":
      return { kind: "cancelled" };
    case "send-failed":
      return { kind: "send-failed", message: end.message };
    case "final-without-terminal":
      return { kind: "protocol-error", message: `the set ended (final header on ${end.entry.protocol ?? "a message"}) without a tool.reply` };
    case "terminal":
      break;
  }
  const reply = end.entry.value ?? {};
  const ack = set.entries.find((e) => e.disposition === "ack")?.value;
  const output = str(reply.output) ?? "";
  const code = str(reply.code);
  if (code === "capacity") return { kind: "capacity", reason: output || (str(ack?.reason) ?? "") };
  if (reply.is_error === true) {
    // Gen 2 refuses an unknown tool with ack:false first; Gen 1 says the same in its single reply.
    if (!code && NOT_AVAILABLE.test(output) && ack?.accepted !== true) return { kind: "not-available", reason: output };
    return { kind: "harness-failure", output, ...(code ? { code } : {}) };
  }
  const exec = reply.exec;
  if (typeof exec === "object" && exec !== null && !Array.isArray(exec)) {
    const e = exec as Record<string, unknown>;
    const command = str(e.command);
    return { kind: "ran", exitCode: typeof e.exit_code === "number" ? e.exit_code : 0, output, ...(command !== undefined ? { command } : {}), truncated: e.truncated === true };
  }
  return { kind: "output", output };
}
