/** What every surface checks and shows before a tool call runs, whatever protocol carried it. */
import type { SchemaCompiler } from "../schema/compiler.ts";
import { commandLine } from "./run-types.ts";
import { buildArgv } from "./toolkit/command-argv.ts";
import type { ToolDef } from "./toolkit/toolkit-types.ts";

const MAX_WHAT_CHARS = 200;
const MAX_LISTED_PROBLEMS = 20;

/** The command line a call of a command tool runs, or undefined (a built-in, or arguments that do not map). */
export function callArgv(tool: ToolDef, args: Readonly<Record<string, unknown>>): string | undefined {
  if (tool.impl.kind !== "command") return undefined;
  const argv = buildArgv(tool.impl, tool.inputSchema, args);
  return argv.ok ? commandLine(argv.argv) : undefined;
}

/** What would run, as the person approving it sees it: the command line, or the tool and its arguments. */
export function describeCall(tool: ToolDef, args: Readonly<Record<string, unknown>>): string {
  const line = callArgv(tool, args);
  if (line !== undefined) return line;
  const json = JSON.stringify(args);
  return `${tool.name} ${json.length > MAX_WHAT_CHARS ? `${json.slice(0, MAX_WHAT_CHARS - 1)}…` : json}`;
}

/**
 * Every way the arguments miss the input schema, one line each (at most 20 and a count), or an
 * empty list when they fit. A schema that cannot be applied is reported through `warn` and lets
 * the call through: the tool checks its own arguments as well.
 */
export function argumentProblemLines(compiler: SchemaCompiler, name: string, schema: unknown, args: unknown, warn: (message: string) => void): string[] {
  const issues = compiler.checkDynamic(schema, args, "", "2020-12");
  for (const issue of issues) if (issue.severity !== "error") warn(`the input schema of ${name} was not applied: ${issue.message}`);
  const errors = issues.filter((issue) => issue.severity === "error");
  const lines = errors.slice(0, MAX_LISTED_PROBLEMS).map((issue) => `- ${issue.pointer === "" ? "(the arguments)" : issue.pointer}: ${issue.message}`);
  if (errors.length > MAX_LISTED_PROBLEMS) lines.push(`- and ${errors.length - MAX_LISTED_PROBLEMS} more`);
  return lines;
}
