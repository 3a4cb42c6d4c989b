import type { ToolProgress, ToolRun } from "../tool-run.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { commandWithoutPath } from "./fisk-reply.ts";
import type { Conversation, PendingApproval, ScriptStep } from "./conversations.ts";

/**
 * The scripted task runner: runs a turn's tool steps in order, sending what a fisk-ai worker sends
 * for each tool use (`event.tool_call`, running-tool progress, `event.tool_result`), asks for
 * approval of confirm-gated tools, and ends with the final text and a `result`, or an `error` that
 * names why (an unknown tool, a cancel, an approval nobody gave).
 */

/** How a person answered an approval, or why no answer came. */
export type Approval = "once" | "always" | "no" | "no_operator" | "unanswered" | "cancelled";

export type TurnEnd =
  | { readonly kind: "result"; readonly text: string; readonly toolCalls: number }
  | { readonly kind: "error"; readonly code: string; readonly stopReason: string; readonly error: string; readonly toolCalls: number };

export interface TurnContext {
  readonly conversation: Conversation;
  /** The tools a task may use, confirm-gated ones included. */
  readonly tools: ReadonlyMap<string, ToolDef>;
  readonly gated: (tool: ToolDef) => boolean;
  readonly signal: AbortSignal;
  /** Why the turn was cancelled, once it was. */
  readonly cancelReason: () => string | undefined;
  /** An event of the turn: sent when streaming, kept for replay. */
  emit(event: "tool_call" | "tool_result" | "text" | "warning", block: Record<string, unknown>): void;
  progress(p: ToolProgress): void;
  approve(toolUseId: string, tool: ToolDef, input: Readonly<Record<string, unknown>>): Promise<Approval>;
  run(tool: ToolDef, input: Readonly<Record<string, unknown>>): Promise<ToolRun>;
  toolUseId(): string;
}

/** What the model would have seen: a command's result as fisk-ai writes it, an in-process tool's text. */
export function resultText(run: ToolRun): { output: string; isError: boolean; plain: string } {
  if (run.kind === "text") return { output: run.text, isError: false, plain: run.text };
  if (run.kind === "harness-error") return { output: run.message, isError: true, plain: run.message };
  const exit = run.exitCode ?? -1;
  const record = { command: commandWithoutPath(run.commandLine), exit_code: exit, output: run.output.text, ...(run.output.truncated ? { truncated: true } : {}) };
  return { output: JSON.stringify(record), isError: false, plain: exit === 0 ? run.output.text : `exit code ${exit}\n${run.output.text}` };
}

const canceled = (ctx: TurnContext, toolCalls: number): TurnEnd => ({
  kind: "error",
  code: "canceled",
  stopReason: "canceled",
  error: `the task was cancelled${ctx.cancelReason() ? `: ${ctx.cancelReason()}` : ""}`,
  toolCalls,
});

function finalText(outputs: readonly string[], steps: number): string {
  return steps === 1 ? (outputs[0] ?? "") : outputs.join("\n");
}

/**
 * Runs `steps`; `outputs` are what earlier steps of the same turn answered (a resumed turn), and
 * `answered` is an approval given already for the first step (`request.answer`).
 */
export async function runSteps(ctx: TurnContext, steps: readonly ScriptStep[], outputs: string[] = [], answered?: { toolUseId: string; approval: Approval }): Promise<TurnEnd> {
  let toolCalls = 0;
  const total = outputs.length + steps.length;
  for (const [i, step] of steps.entries()) {
    if (ctx.signal.aborted) return canceled(ctx, toolCalls);
    const tool = ctx.tools.get(step.tool);
    if (!tool) {
      ctx.emit("warning", { kind: "unknown_tool", name: step.tool });
      return { kind: "error", code: "failed", stopReason: "error", error: `the task names tool ${JSON.stringify(step.tool)}, which this agent does not serve (it has ${[...ctx.tools.keys()].join(", ") || "none"})`, toolCalls };
    }
    const preset = i === 0 ? answered : undefined;
    const id = preset?.toolUseId ?? ctx.toolUseId();
    if (!preset) ctx.emit("tool_call", { id, name: tool.name, input: step.input });
    const always = ctx.conversation.alwaysApproved.includes(tool.name);
    if (ctx.gated(tool) && !always) {
      const approval = preset?.approval ?? (await ctx.approve(id, tool, step.input));
      if (approval === "cancelled") return canceled(ctx, toolCalls);
      if (approval === "unanswered") {
        const pending: PendingApproval = { toolUseId: id, steps: steps.slice(i), outputs: [...outputs] };
        ctx.conversation.pending = pending;
        return { kind: "error", code: "suspended", stopReason: "suspended", error: `nobody approved ${tool.name} (${id}) in time; resume to be asked again, or answer it with request.answer`, toolCalls };
      }
      ctx.conversation.answered = [...ctx.conversation.answered.slice(-99), id];
      if (approval === "no_operator") {
        ctx.emit("tool_result", { call_id: id, is_error: true, output: `${tool.name} needs approval and nobody can give it (no operator); it did not run` });
        return { kind: "error", code: "rejected", stopReason: "error", error: `${tool.name} needs approval and the caller has no operator to give it`, toolCalls };
      }
      if (approval === "no") {
        ctx.emit("tool_result", { call_id: id, is_error: true, output: `the operator declined to run ${tool.name}` });
        outputs.push(`${tool.name} was not run: the operator declined`);
        continue;
      }
      if (approval === "always") ctx.conversation.alwaysApproved = [...ctx.conversation.alwaysApproved, tool.name];
    }
    const run = await ctx.run(tool, step.input);
    toolCalls++;
    if (ctx.signal.aborted) return canceled(ctx, toolCalls);
    const text = resultText(run);
    ctx.emit("tool_result", { call_id: id, ...(text.isError ? { is_error: true } : {}), ...(text.output ? { output: text.output } : {}) });
    outputs.push(total === 1 ? text.plain : `${tool.name}: ${text.isError ? "failed: " : ""}${text.plain}`);
  }
  const text = finalText(outputs, total);
  ctx.emit("text", { text, final: true });
  return { kind: "result", text, toolCalls };
}
