import type { CallToolResult } from "@modelcontextprotocol/server";
import { callArgv } from "../call-checks.ts";
import { mcpResult } from "../mcp-result.ts";
import { executeTool } from "../tool-executor.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { failure, type FixtureScope } from "./fixtures/fixture-scope.ts";
import type { McpServingContext } from "./serving-context.ts";

/**
 * One run of a served toolkit tool, after any approval (so a waiting approval holds no slot): a
 * slot from the shared semaphore, then the run. Every failure is an `isError` result; the slot
 * is released however the run ends, and the scope's signal (the request's, or the task's) stops
 * the run, ending a command's whole process group.
 */
export async function runToolkitTool(ctx: McpServingContext, tool: ToolDef, args: Readonly<Record<string, unknown>>, scope: Pick<FixtureScope, "signal" | "progress">): Promise<CallToolResult> {
  let release: () => void;
  try {
    release = await ctx.semaphore.acquire(scope.signal);
  } catch {
    return failure("Not run: the call was cancelled while it waited for a free slot.");
  }
  const run = new AbortController();
  const stop = () => run.abort();
  scope.signal.addEventListener("abort", stop, { once: true });
  if (scope.signal.aborted) run.abort();
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
    scope.signal.removeEventListener("abort", stop);
    release();
  }
}
