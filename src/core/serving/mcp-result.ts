import type { ToolRun } from "./tool-run.ts";

export interface McpToolResult {
  readonly content: readonly { readonly type: "text"; readonly text: string }[];
  readonly isError: boolean;
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

const text = (value: string, isError: boolean): McpToolResult => ({ content: [{ type: "text", text: value }], isError });

/**
 * The MCP result for a tool run. A command that ran is a success carrying its exit code (a
 * non-zero exit is the tool's answer, not a failure of the call); only a harness failure is
 * `isError`. Failures are never JSON-RPC errors, so a model sees them.
 */
export function mcpResult(run: ToolRun, options: { readonly outputSchema?: boolean } = {}): McpToolResult {
  switch (run.kind) {
    case "ran": {
      // A tool that declares an outputSchema owes structured content: its output must be a JSON object.
      if (options.outputSchema) return structuredRun(run);
      const body = { command: run.commandLine, exit_code: run.exitCode ?? -1, output: run.output.text, ...(run.output.truncated ? { truncated: true } : {}), ...(run.signal ? { signal: run.signal } : {}) };
      return text(JSON.stringify(body), false);
    }
    case "text":
      return run.structured ? { ...text(run.text, false), structuredContent: run.structured } : text(run.text, false);
    case "harness-error":
      return text(run.message, true);
  }
}

function structuredRun(run: Extract<ToolRun, { kind: "ran" }>): McpToolResult {
  let value: unknown;
  try {
    value = run.output.truncated ? undefined : JSON.parse(run.output.text);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const why = run.output.truncated ? "was cut at the output cap" : "is not a JSON object";
    return text(`${run.commandLine} declares an outputSchema, but its output ${why} (exit code ${run.exitCode ?? "none"}): ${run.output.text.slice(0, 200)}`, true);
  }
  return { content: [{ type: "text", text: run.output.text }], isError: false, structuredContent: value as Record<string, unknown> };
}
