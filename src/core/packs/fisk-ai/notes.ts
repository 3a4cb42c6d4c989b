import { isJsonObject } from "../../json/index.ts";
import type { Candidate } from "../../validation/types.ts";

/**
 * Plain notes for a classified fisk-ai message: facts worth knowing that are not problems. The
 * central one: a tool that failed or exited non-zero still got a valid protocol reply.
 */

const NO_NOTES: readonly string[] = [];
const UNKNOWN_EVENT_NOTE = "An event kind this console does not name. fisk-ai keeps it and forwards it unchanged; only the header and that block is an object are checked.";
const TOKEN_NOTE = "conversation_token is a credential: whoever holds it can add turns to the conversation. Do not share it.";

function toolReplyNotes(value: Record<string, unknown>): readonly string[] {
  const code = value.code;
  const exec = value.exec;
  const exitCode = isJsonObject(exec) && typeof exec.exit_code === "number" && exec.exit_code !== 0 ? exec.exit_code : undefined;
  // The usual reply ran cleanly: nothing to say, nothing allocated.
  if (code === undefined && value.is_error !== true && exitCode === undefined) return NO_NOTES;
  const notes: string[] = [];
  if (code === "capacity") {
    notes.push(
      'code "capacity": the agent was already running as many tool calls as it runs at once, so it refused this one and nothing ran. It is a valid refusal, not a protocol failure; call again later.',
    );
  } else if (typeof code === "string") {
    notes.push(`code "${code}": the reason the call did not run. The reply itself is valid.`);
  }
  if (value.is_error === true && code === undefined) {
    notes.push("is_error: the tool did not run cleanly (bad arguments, timeout, unknown tool or a missing binary). That is the tool's result, not a protocol failure.");
  }
  if (exitCode !== undefined) {
    notes.push(`The command exited with code ${exitCode}. A non-zero exit is the tool's result, not a protocol failure; the output says what happened.`);
  }
  return notes;
}

function kindNotes(value: Record<string, unknown>, kindId: string): readonly string[] {
  switch (kindId) {
    case "tool.reply":
      return toolReplyNotes(value);
    case "ack": {
      if (value.accepted !== false) return NO_NOTES;
      const reason = typeof value.reason === "string" ? `: ${value.reason}` : "";
      return [`The agent refused the request (accepted: false)${reason}. A refusal is a valid reply.`];
    }
    case "event.*":
      return [UNKNOWN_EVENT_NOTE];
    case "event.status":
      return isJsonObject(value.block) && value.block.phase === "running-tool" ? ["A keepalive: the tool is still running."] : NO_NOTES;
    default:
      return NO_NOTES;
  }
}

/** Notes for a message classified as `chosen`; most messages have none, and share one empty list. */
export function fiskAiNotes(value: unknown, chosen: Candidate): readonly string[] {
  if (!isJsonObject(value)) return NO_NOTES;
  const notes = kindNotes(value, chosen.kind.id);
  return "conversation_token" in value ? [...notes, TOKEN_NOTE] : notes;
}
