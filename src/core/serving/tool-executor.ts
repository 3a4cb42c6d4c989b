import type { BuiltinContext } from "./builtin-tools.ts";
import { runBuiltin } from "./builtin-tools.ts";
import type { CommandRunner } from "./run-types.ts";
import type { ToolRun } from "./tool-run.ts";
import { buildArgv } from "./toolkit/command-argv.ts";
import type { ToolDef } from "./toolkit/toolkit-types.ts";

export interface ExecuteContext extends BuiltinContext {
  /** Absent where programs cannot run (the browser); command tools then refuse. */
  readonly runner?: CommandRunner;
  /** Overrides the tool's own time limit (tests, the workbench). */
  readonly timeoutMs?: number;
}

/** Runs one call of a tool, whatever its implementation; never throws. */
export async function executeTool(tool: ToolDef, input: unknown, ctx: ExecuteContext): Promise<ToolRun> {
  try {
    if (tool.impl.kind === "builtin") return await runBuiltin(tool.impl.builtin, input, ctx);
    const argv = buildArgv(tool.impl, tool.inputSchema, input);
    if (!argv.ok) return { kind: "harness-error", reason: "arguments", message: argv.error };
    if (!ctx.runner) return { kind: "harness-error", reason: "start", message: "command tools cannot run here" };
    const outcome = await ctx.runner({
      argv: argv.argv,
      env: tool.impl.env,
      ...(tool.impl.cwd !== undefined ? { cwd: tool.impl.cwd } : {}),
      timeoutMs: ctx.timeoutMs ?? tool.impl.timeoutMs,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (outcome.kind === "harness-error") return { kind: "harness-error", reason: outcome.reason, message: outcome.message };
    return { kind: "ran", commandLine: outcome.commandLine, exitCode: outcome.exitCode, signal: outcome.signal, output: outcome.output };
  } catch (error) {
    return { kind: "harness-error", reason: "failed", message: `the tool failed: ${(error as Error).message}` };
  }
}
