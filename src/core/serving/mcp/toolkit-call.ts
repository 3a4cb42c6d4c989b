import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { APPROVE_SCHEMA, confirmGate, type ElicitAnswer } from "../confirm-gate.ts";
import { callArgv, describeCall } from "../call-checks.ts";
import { mcpResult } from "../mcp-result.ts";
import { executeTool } from "../tool-executor.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { failure, type FixtureScope, type HandlerExtra } from "./fixtures/fixture-scope.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { SessionState } from "./session-state.ts";

/**
 * The client declared form elicitation in a version that has it, so it can be asked. An empty
 * elicitation capability means form mode (2025-06-18 had no modes; 2025-11-25 keeps that meaning).
 */
export function canElicitForm(server: Server, session: SessionState): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation;
  if (!elicitation || !session.speaks("2025-06-18")) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

async function askApproval(ctx: McpServingContext, server: Server, extra: HandlerExtra, message: string): Promise<ElicitAnswer> {
  const requestedSchema = APPROVE_SCHEMA as unknown as ElicitRequestFormParams["requestedSchema"];
  const answer = await server.elicitInput(
    { mode: "form", message, requestedSchema },
    { relatedRequestId: extra.requestId, signal: extra.signal, timeout: ctx.approvalTimeoutMs },
  );
  return answer.content === undefined ? { action: answer.action } : { action: answer.action, content: answer.content };
}

/**
 * One call of a served toolkit tool: approval first for confirm-tagged tools (so a waiting
 * approval holds no slot), then a slot from the shared semaphore, then the run. Every failure
 * is an `isError` result; the slot is released however the run ends.
 */
export async function runToolkitTool(
  ctx: McpServingContext,
  server: Server,
  tool: ToolDef,
  args: Readonly<Record<string, unknown>>,
  scope: FixtureScope,
): Promise<CallToolResult> {
  const { extra } = scope;
  if (readBehaviour(tool.tags).confirm) {
    const what = describeCall(tool, args);
    const approvals = ctx.approvals;
    const decision = await confirmGate({
      mode: ctx.confirmMode,
      serverName: ctx.serverInfo.name,
      toolName: tool.name,
      what,
      canElicit: canElicitForm(server, scope.session),
      elicit: (message) => askApproval(ctx, server, extra, message),
      ...(approvals ? { askOperator: () => approvals.ask({ surface: "mcp", tool: tool.name, what, arguments: args, signal: extra.signal }) } : {}),
      warn: (message) => ctx.logger.warn(message),
    });
    if (!decision.run) return decision.result as CallToolResult;
  }
  let release: () => void;
  try {
    release = await ctx.semaphore.acquire(extra.signal);
  } catch {
    return failure("Not run: the call was cancelled while it waited for a free slot.");
  }
  const run = new AbortController();
  const stop = () => run.abort();
  extra.signal.addEventListener("abort", stop, { once: true });
  let timedOut = false;
  // Command tools get the limit through the runner, which stops the whole process group.
  const builtinLimit = tool.impl.kind === "builtin" ? ctx.timeoutMs : undefined;
  const cancelTimer = builtinLimit === undefined ? undefined : ctx.scheduler.after(builtinLimit, () => ((timedOut = true), run.abort()));
  try {
    ctx.logger.info(`Running ${callArgv(tool, args) ?? `${tool.name} (built-in)`}`);
    const outcome = await executeTool(tool, args, {
      scheduler: ctx.scheduler,
      signal: run.signal,
      onProgress: (p) => void scope.progress(p.progress, p.total, p.message),
      ...(ctx.runner ? { runner: ctx.runner } : {}),
      ...(ctx.timeoutMs !== undefined ? { timeoutMs: ctx.timeoutMs } : {}),
    });
    if (timedOut) return failure(`${tool.name} did not finish within ${builtinLimit} ms and was stopped.`);
    ctx.logger.debug(`${tool.name} ended`, { outcome: outcome.kind === "harness-error" ? outcome.reason : outcome.kind });
    return mcpResult(outcome, { outputSchema: tool.outputSchema !== undefined }) as CallToolResult;
  } finally {
    cancelTimer?.();
    extra.signal.removeEventListener("abort", stop);
    release();
  }
}
