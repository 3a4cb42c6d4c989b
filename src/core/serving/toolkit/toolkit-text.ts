import { parseDocument } from "yaml";
import { isJsonObject } from "../../json/index.ts";
import { type ReadToolkitResult, readToolkit } from "./toolkit-read.ts";
import type { ToolDef, Toolkit } from "./toolkit-types.ts";

export type ToolkitSyntax = "json" | "yaml";
export const MAX_TOOLKIT_CHARS = 1_000_000;

/** JSON when the first meaningful character opens an object, YAML otherwise. */
export function guessSyntax(text: string): ToolkitSyntax {
  return /^\s*\{/.test(text) ? "json" : "yaml";
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  return typeof value === "string" ? "a plain string" : `a ${typeof value}`;
}

/** Reads a toolkit file's text; syntax errors are issues at the root with their line. */
export function parseToolkitText(text: string, syntax: ToolkitSyntax = guessSyntax(text)): ReadToolkitResult {
  if (text.length > MAX_TOOLKIT_CHARS) {
    return { issues: [{ pointer: "", message: `the file has ${text.length} characters; a toolkit may have at most ${MAX_TOOLKIT_CHARS}`, severity: "error" }] };
  }
  let value: unknown;
  if (syntax === "json") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { issues: [{ pointer: "", message: `not valid JSON: ${(error as Error).message}`, severity: "error", syntax: true }] };
    }
  } else {
    // Alias expansion is bounded by the library (maxAliasCount), so a "billion laughs" file fails fast.
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
    const first = doc.errors[0];
    if (first) return { issues: [{ pointer: "", message: `not valid YAML: ${first.message}`, severity: "error", syntax: true }] };
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      return { issues: [{ pointer: "", message: `not valid YAML: ${(error as Error).message}`, severity: "error", syntax: true }] };
    }
    // Almost any text is YAML; text that is only a scalar or a list was never meant as a toolkit.
    if (!isJsonObject(value)) {
      return { issues: [{ pointer: "", message: `not JSON, and not a YAML mapping either (as YAML it is ${kindOf(value)})`, severity: "error", syntax: true }] };
    }
  }
  return readToolkit(value);
}

function toolToFile(tool: ToolDef): Record<string, unknown> {
  const impl = tool.impl;
  const run =
    impl.kind === "builtin"
      ? { builtin: impl.builtin }
      : {
          command: impl.argv,
          ...(impl.positionals.length > 0 ? { positionals: impl.positionals } : {}),
          timeoutMs: impl.timeoutMs,
          ...(Object.keys(impl.env).length > 0 ? { env: impl.env } : {}),
          ...(impl.cwd !== undefined ? { cwd: impl.cwd } : {}),
        };
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    ...(tool.tags.length > 0 ? { tags: tool.tags } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    run,
  };
}

/** The file form of a toolkit; reading it back gives the same toolkit. */
export function toolkitToFile(toolkit: Toolkit): Record<string, unknown> {
  const { include, exclude } = toolkit.filter;
  return {
    format: toolkit.format,
    version: toolkit.version,
    name: toolkit.name,
    description: toolkit.description,
    ...(toolkit.instructions !== undefined ? { instructions: toolkit.instructions } : {}),
    ...(include.length > 0 || exclude.length > 0 ? { filter: { include, exclude } } : {}),
    tools: toolkit.tools.map(toolToFile),
  };
}
