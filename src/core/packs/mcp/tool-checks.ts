import { isJsonObject } from "../../json/index.ts";
import type { CheckTools, Issue, SchemaDraft } from "../../validation/types.ts";

/** What a tools/list result told us about one tool: the schemas its calls and results must meet. */
export interface ToolSchemas {
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
}

const MAX_TOOLS = 10_000;

/** Remembers the tools listed in a tools/list result (the latest listing of a name wins). */
export function learnTools(result: unknown, into: Map<string, ToolSchemas>): void {
  if (!isJsonObject(result) || !Array.isArray(result.tools)) return;
  for (const tool of result.tools) {
    if (!isJsonObject(tool) || typeof tool.name !== "string") continue;
    if (into.size >= MAX_TOOLS && !into.has(tool.name)) return;
    into.set(tool.name, { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema });
  }
}

/** A tools/call request's arguments against the inputSchema of the tool it names. */
export function checkArguments(message: Record<string, unknown>, known: ReadonlyMap<string, ToolSchemas>, tools: CheckTools, draft: SchemaDraft): Issue[] {
  const params = message.params;
  if (!isJsonObject(params) || typeof params.name !== "string") return [];
  const tool = known.get(params.name);
  if (!tool || !isJsonObject(tool.inputSchema)) return [];
  // Absent arguments are an empty object to the tool, so required arguments are still missed.
  if (!("arguments" in params)) return tools.validateWithSchema(tool.inputSchema, {}, "/params", draft);
  return tools.validateWithSchema(tool.inputSchema, params.arguments, "/params/arguments", draft);
}

/**
 * A tools/call result's structuredContent against the tool's outputSchema. A tool that reports
 * isError owes no structured content; from 2025-06-18 a tool with an outputSchema must send it.
 */
export function checkStructuredContent(
  message: Record<string, unknown>,
  toolName: string,
  tool: ToolSchemas,
  tools: CheckTools,
  draft: SchemaDraft,
  structuredRequired: boolean,
): Issue[] {
  const result = message.result;
  if (!isJsonObject(result) || result.isError === true || result.resultType === "input_required") return [];
  if (tool.outputSchema === undefined || tool.outputSchema === null) return [];
  if ("structuredContent" in result) {
    return tools.validateWithSchema(tool.outputSchema, result.structuredContent, "/result/structuredContent", draft);
  }
  if (!structuredRequired) return [];
  return [
    {
      pointer: "/result",
      message: `Tool "${toolName}" declares an outputSchema, so a result without isError: true must include structuredContent.`,
      severity: "error",
      source: "rule",
      rule: "mcp.structured-content",
    },
  ];
}
