import { isJsonObject } from "../../json/index.ts";
import type { Candidate } from "../../validation/types.ts";

/**
 * Plain notes for a classified fisk-ai message: facts worth knowing that are not problems. The
 * central one: a tool that failed or exited non-zero still got a valid protocol reply.
 */

function toolReplyNotes(value: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const code = value.code;
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
  const exec = value.exec;
  if (isJsonObject(exec) && typeof exec.exit_code === "number" && exec.exit_code !== 0) {
    notes.push(`The command exited with code ${exec.exit_code}. A non-zero exit is the tool's result, not a protocol failure; the output says what happened.`);
  }
  return notes;
}

/** Notes for a message classified as `chosen`. */
export function fiskAiNotes(value: unknown, chosen: Candidate): string[] {
  if (!isJsonObject(value)) return [];
  const notes: string[] = [];
  switch (chosen.kind.id) {
    case "tool.reply":
      notes.push(...toolReplyNotes(value));
      break;
    case "ack":
      if (value.accepted === false) {
        const reason = typeof value.reason === "string" ? `: ${value.reason}` : "";
        notes.push(`The agent refused the request (accepted: false)${reason}. A refusal is a valid reply.`);
      }
      break;
    case "event.*":
      notes.push("An event kind this console does not name. fisk-ai keeps it and forwards it unchanged; only the header and that block is an object are checked.");
      break;
    case "event.status":
      if (isJsonObject(value.block) && value.block.phase === "running-tool") notes.push("A keepalive: the tool is still running.");
      break;
  }
  if ("conversation_token" in value) notes.push("conversation_token is a credential: whoever holds it can add turns to the conversation. Do not share it.");
  return notes;
}
