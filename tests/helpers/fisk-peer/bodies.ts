/**
 * Message bodies (the fields after the header) in Go struct order with Go's omitempty rules. The
 * always-present fields (`accepted`, `error`, a result's `stop_reason`, a card's `name`/`version`)
 * are set even when zero.
 */
import type { PeerGeneration, PeerTool, Question, TaskEnd, ToolOutcome } from "./types.ts";
import { NAMESPACE } from "../../../src/core/packs/fisk-ai/protocol.ts";
import { omitEmpty, sortedKeys } from "./wire.ts";

type Body = Record<string, unknown>;

export function ackBody(accepted: boolean, reason?: string, token?: string, maxTokens?: number): Body {
  return omitEmpty({ accepted }, [
    ["reason", reason],
    ["conversation_token", token],
    ["max_tokens", maxTokens],
  ]);
}

/** ToolResult then `code`; `exec` only when a command ran, its `exit_code` absent when 0. */
export function toolReplyBody(outcome: ToolOutcome, code?: string): Body {
  const ran = !outcome.isError && !outcome.inProcess && (outcome.command !== undefined || outcome.exitCode !== undefined);
  const exec = ran
    ? omitEmpty({}, [
        ["command", outcome.command],
        ["exit_code", outcome.exitCode],
        ["truncated", outcome.truncated],
      ])
    : undefined;
  return omitEmpty({}, [
    ["is_error", outcome.isError],
    ["output", outcome.output],
    ["exec", exec],
    ["code", code],
  ]);
}

function descriptor(tool: PeerTool, generation: PeerGeneration): Body {
  const schema = sortedKeys(tool.input_schema ?? { type: "object" });
  const out = omitEmpty({ name: tool.name }, [
    ["description", tool.description],
    ["input_schema", schema],
  ]);
  // `behavior` is omitzero: an object with no declared flag is left out.
  const behavior = generation === "gen2" && tool.behavior ? omitEmptyBehavior(tool.behavior) : undefined;
  if (behavior && Object.keys(behavior).length > 0) out.behavior = behavior;
  return out;
}

function omitEmptyBehavior(b: NonNullable<PeerTool["behavior"]>): Body {
  // Each flag is a *bool: false is a declared value and is sent.
  const out: Body = {};
  for (const key of ["read_only", "destructive", "idempotent", "open_world"] as const) if (b[key] !== undefined) out[key] = b[key];
  return out;
}

export interface CardFacts {
  readonly name: string;
  readonly version: string;
  readonly generation: PeerGeneration;
  readonly tools: readonly PeerTool[];
  readonly model?: string;
  readonly telemetry?: boolean;
}

/** AgentCard. Gen 1 has no `model` or telemetry. `description` is never set by fisk-ai. */
export function cardBody(card: CardFacts): Body {
  const out = omitEmpty({ name: card.name, version: card.version }, [
    ["protocols", [NAMESPACE]],
    ["tools", card.tools.map((t) => descriptor(t, card.generation))],
  ]);
  if (card.generation === "gen2") omitEmpty(out, [["model", card.model], ["telemetry", card.telemetry]]);
  return out;
}

export const keepaliveBody = (): Body => ({ block: { phase: "running-tool" } });

export function endBody(end: TaskEnd): Body {
  if (end.kind === "result") {
    return omitEmpty({ stop_reason: end.stop_reason ?? "end_turn" }, [
      ["text", end.text],
      ["usage", end.usage],
      ["trace_id", end.trace_id],
    ]);
  }
  const out = omitEmpty({}, [["stop_reason", end.stop_reason]]);
  out.error = end.error;
  return omitEmpty(out, [
    ["code", end.code],
    ["usage", end.usage],
  ]);
}

/** ElicitRequest fields in struct order; each kind carries only its own. */
export function questionBody(q: Question, questionId: string, waitMs: number): Body {
  const out: Body = { question_id: questionId };
  return omitEmpty(out, [
    ["tool_use_id", q.tool_use_id],
    ["command", q.kind === "approve" ? q.command : undefined],
    ["display", q.kind === "approve" ? q.display : undefined],
    ["tag", q.kind === "approve" ? q.tag : undefined],
    ["question", q.kind === "approve" ? undefined : q.question],
    ["options", q.kind === "select" ? [...q.options] : undefined],
    ["default", q.kind === "input" ? q.default : undefined],
    ["wait_ms", waitMs],
  ]);
}
