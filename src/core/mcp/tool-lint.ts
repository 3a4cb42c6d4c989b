/**
 * A lint of the tools a server lists: what would break a client or mislead the model, beyond
 * what the protocol's schema checks. Pure and cheap, so a list of 10,000 tools can be linted one
 * visible row at a time.
 *
 * Severities: an error breaks something (a client cannot call the tool as declared, or the
 * schema would not compile); a warning is legal but likely to surprise a client or the model; an
 * info is a matter of quality (missing property descriptions, arguments left open).
 *
 * additionalProperties: absent at the root of an inputSchema means any extra argument passes.
 * That is JSON Schema's default, so only an info; it matters because a model's misspelt argument
 * then reaches the tool silently, and strict tool modes require `false`. `false` next to
 * allOf/anyOf/oneOf/$ref is a warning: it cannot see the properties declared inside them and so
 * rejects them. `false` with no properties is an info: right for a tool without arguments.
 */
import { isJsonObject } from "../json/index.ts";
import { lintSchema } from "./schema-lint.ts";

export type LintSeverity = "error" | "warning" | "info";

export type LintRule =
  | "tool.name"
  | "tool.name-format"
  | "tool.name-duplicate"
  | "tool.description"
  | "schema.missing"
  | "schema.not-object"
  | "schema.root-type"
  | "schema.dialect"
  | "schema.open-arguments"
  | "schema.huge"
  | "schema.too-complex"
  | "schema.not-a-schema"
  | "schema.type-unknown"
  | "schema.ref-unresolved"
  | "schema.ref-remote"
  | "schema.required-invalid"
  | "schema.required-unknown"
  | "schema.closed-composition"
  | "schema.closed-empty"
  | "schema.property-boolean"
  | "schema.property-description"
  | "schema.property-untyped"
  /** The schema compiler refused it (asked of the validation worker, not decided here). */
  | "schema.invalid";

export interface LintFinding {
  readonly rule: LintRule;
  readonly severity: LintSeverity;
  /** JSON pointer into the tool object (`/inputSchema/properties/city`). */
  readonly pointer: string;
  /** One plain sentence. */
  readonly message: string;
}

export interface LintCounts {
  readonly error: number;
  readonly warning: number;
  readonly info: number;
}

/** The 2025-11-25 tool name rule: 1 to 128 of A–Z, a–z, 0–9, `_`, `-` and `.`. */
export const TOOL_NAME_MAX = 128;
const NAME_CHAR = /[A-Za-z0-9_.-]/u;

const SEVERITY_ORDER: Readonly<Record<LintSeverity, number>> = { error: 0, warning: 1, info: 2 };

function charName(c: string): string {
  if (c === " ") return "a space";
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, "0")}` : JSON.stringify(c);
}

function lintName(name: unknown, duplicate: boolean): LintFinding[] {
  if (typeof name !== "string" || name === "") {
    return [{ rule: "tool.name", severity: "error", pointer: "/name", message: typeof name === "string" ? "The tool's name is empty, so it cannot be called." : "The tool has no name (a string), so it cannot be called." }];
  }
  const findings: LintFinding[] = [];
  const chars = Array.from(name);
  const bad = [...new Set(chars.filter((c) => !NAME_CHAR.test(c)))];
  if (bad.length > 0) {
    const listed = bad.slice(0, 5).map(charName).join(", ");
    findings.push({ rule: "tool.name-format", severity: "warning", pointer: "/name", message: `The name has characters MCP 2025-11-25 asks tool names to avoid (${listed}); use only A–Z, a–z, 0–9, "_", "-" and ".", as some clients refuse others.` });
  }
  if (chars.length > TOOL_NAME_MAX) {
    findings.push({ rule: "tool.name-format", severity: "warning", pointer: "/name", message: `The name is ${chars.length} characters long; MCP 2025-11-25 asks for at most ${TOOL_NAME_MAX}.` });
  }
  if (duplicate) findings.push({ rule: "tool.name-duplicate", severity: "error", pointer: "/name", message: `Another tool of this server is also named "${name}"; a client cannot tell which one it calls.` });
  return findings;
}

export interface ToolLintOptions {
  /** True when another listed tool has the same name (see `duplicateToolNames`). */
  readonly duplicate?: boolean;
}

/** Every finding for one tool, errors first. */
export function lintTool(tool: Record<string, unknown>, options: ToolLintOptions = {}): LintFinding[] {
  const findings = lintName(tool.name, options.duplicate === true);
  if (typeof tool.description !== "string" || tool.description.trim() === "") {
    findings.push({ rule: "tool.description", severity: "warning", pointer: "/description", message: "The tool has no description, so the model has only its name to decide when to call it." });
  }
  if (!("inputSchema" in tool)) findings.push({ rule: "schema.missing", severity: "error", pointer: "/inputSchema", message: "The tool has no inputSchema; MCP requires one (at least {\"type\": \"object\"})." });
  else findings.push(...lintSchema(tool.inputSchema, "/inputSchema", true));
  if ("outputSchema" in tool) findings.push(...lintSchema(tool.outputSchema, "/outputSchema", false));
  return sortFindings(findings);
}

/** Findings ordered by severity, then by where they point; stable within each. */
export function sortFindings(findings: readonly LintFinding[]): LintFinding[] {
  return [...findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/** Names that more than one tool uses; one pass, so it is cheap for very long lists. */
export function duplicateToolNames(tools: readonly unknown[]): ReadonlySet<string> {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const tool of tools) {
    const name = isJsonObject(tool) ? tool.name : undefined;
    if (typeof name !== "string") continue;
    if (seen.has(name)) duplicates.add(name);
    else seen.add(name);
  }
  return duplicates;
}

/** Each tool's findings, in list order. */
export function lintTools(tools: readonly Record<string, unknown>[]): LintFinding[][] {
  const duplicates = duplicateToolNames(tools);
  return tools.map((tool) => lintTool(tool, { duplicate: typeof tool.name === "string" && duplicates.has(tool.name) }));
}

export function countFindings(findings: readonly LintFinding[]): LintCounts {
  let error = 0;
  let warning = 0;
  let info = 0;
  for (const f of findings) {
    if (f.severity === "error") error++;
    else if (f.severity === "warning") warning++;
    else info++;
  }
  return { error, warning, info };
}
