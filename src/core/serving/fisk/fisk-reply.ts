import type { ExecResult } from "../../fisk/codec/index.ts";
import type { ToolRun } from "../tool-run.ts";

/** The result fields of a `tool.reply` (after the header), in fisk-ai's terms. */
export interface ToolReplyFields {
  is_error?: boolean;
  output?: string;
  exec?: ExecResult;
  code?: string;
}

/**
 * The command line as fisk-ai reports it, without where the program lives: `/usr/bin/ls -la`
 * becomes `ls -la`. A quoted program keeps its quotes.
 */
export function commandWithoutPath(commandLine: string): string {
  const quoted = /^'([^']*\/)([^']*)'/.exec(commandLine);
  if (quoted) {
    const rest = commandLine.slice(quoted[0].length);
    const base = quoted[2] ?? "";
    return /^[A-Za-z0-9_@%+=:,./-]+$/.test(base) ? `${base}${rest}` : `'${base}'${rest}`;
  }
  return commandLine.replace(/^[^\s']*\//, "");
}

/**
 * A tool run as a `tool.reply`. A command that ran is a success carrying its exit code (absent
 * when 0); an in-process tool's text is the output with no `exec`; a harness failure is
 * `is_error` with the reason as output. Empty fields are left off, as Go's omitempty does.
 */
export function replyFields(run: ToolRun): ToolReplyFields {
  switch (run.kind) {
    case "ran": {
      const exec: ExecResult = { command: commandWithoutPath(run.commandLine) };
      // A signal left no exit code; -1 is what a Go exec.ExitError reports then.
      const exitCode = run.exitCode ?? -1;
      if (exitCode !== 0) exec.exit_code = exitCode;
      if (run.output.truncated) exec.truncated = true;
      return { ...(run.output.text ? { output: run.output.text } : {}), exec };
    }
    case "text":
      return run.text ? { output: run.text } : {};
    case "harness-error":
      return { is_error: true, output: run.message };
  }
}

/** A refusal before anything ran (unknown tool, capacity): the reason is the output. */
export function refusalFields(reason: string, code?: string): ToolReplyFields {
  return { is_error: true, output: reason, ...(code ? { code } : {}) };
}

/** fisk-ai's reasons, word for word, so a peer's logic that matches them keeps working. */
export const notAvailable = (tool: string): string => `tool ${JSON.stringify(tool)} is not available`;

export const atCapacity = (tool: string, agent: string, limit: number): string =>
  `tool ${JSON.stringify(tool)} on agent ${JSON.stringify(agent)} did not run: the agent is already running its maximum of ${limit} concurrent tool calls`;
