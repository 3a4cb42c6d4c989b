// The page's CSP forbids ajv's code generation, so a tools/call's arguments and result are
// checked in the validation worker (served with a CSP that allows it) after the outcome is shown.
import { isJsonObject } from "../../../core/json/index.ts";
import type { CallOutcome } from "../../../core/mcp/index.ts";
import { checkArguments, checkStructuredContent, type ToolSchemas } from "../../../core/packs/mcp/tool-checks.ts";
import { atLeast, draftFor, nearestVersion } from "../../../core/packs/mcp/versions.ts";
import type { CheckTools, Issue, Override, SchemaDraft, Verdict } from "../../../core/validation/types.ts";

/** What the checks need from the validation worker; `ValidationClient` is one. */
export interface ResultChecker {
  validateOne(text: string, override?: Override): Promise<Verdict>;
  checkSchema(schema: unknown, value: unknown, pointer: string, draft: SchemaDraft): Promise<Issue[]>;
}

/** One check of the result: what it was checked against, and what was wrong (empty when valid). */
export interface ResultCheckPart {
  readonly id: "arguments" | "result" | "structured-content";
  readonly label: string;
  readonly issues: readonly Issue[];
}

export type ResultCheck =
  | { readonly status: "checking" }
  | { readonly status: "done"; readonly parts: readonly ResultCheckPart[] }
  | { readonly status: "failed"; readonly message: string };

/** True for the outcomes whose result is worth checking: the server answered with a CallToolResult. */
export function checkable(outcome: CallOutcome): outcome is Extract<CallOutcome, { kind: "success" | "tool-error" }> {
  return outcome.kind === "success" || outcome.kind === "tool-error";
}

/** Pointers from core's rules are within the response (`/result/…`); here the result is the whole. */
function withinResult(issue: Issue): Issue {
  const pointer = issue.pointer.startsWith("/result") ? issue.pointer.slice("/result".length) : issue.pointer;
  return { ...issue, pointer };
}

function verdictIssues(verdict: Verdict): Issue[] {
  if (verdict.issues.length > 0 || verdict.status === "valid") return [...verdict.issues];
  const why = verdict.evidence[0] ?? `the validator judged it ${verdict.status}`;
  return [{ pointer: "", message: why, severity: "error", source: "rule" }];
}

/** Runs a core rule with its schema checks done in the worker; the rule's own issues come first. */
async function ruled(checker: ResultChecker, rule: (tools: CheckTools) => Issue[]): Promise<{ asked: boolean; issues: Issue[] }> {
  const asked: Parameters<CheckTools["validateWithSchema"]>[] = [];
  const record: CheckTools = {
    validateWithSchema: (...args) => {
      asked.push(args);
      return [];
    },
  };
  const own = rule(record);
  const found = await Promise.all(asked.map((args) => checker.checkSchema(...args)));
  return { asked: asked.length > 0, issues: [...own, ...found.flat()] };
}

/**
 * The call's arguments against the tool's inputSchema, as core checks a tools/call request; the
 * pointers are the request's (`/params/arguments/…`). None when the tool lists no inputSchema.
 */
export async function checkCallArguments(checker: ResultChecker, args: unknown, negotiatedVersion: string, toolName: string, tool: ToolSchemas | undefined): Promise<ResultCheckPart[]> {
  if (!tool) return [];
  const draft = draftFor(nearestVersion(negotiatedVersion));
  const request = { params: { name: toolName, arguments: args } };
  const { asked, issues } = await ruled(checker, (tools) => checkArguments(request, new Map([[toolName, tool]]), tools, draft));
  return asked ? [{ id: "arguments", label: "Arguments checked against the tool's inputSchema", issues }] : [];
}

/**
 * The result against the negotiated version's CallToolResult and, when the tool declares an
 * outputSchema and did not report isError, its structuredContent against that schema.
 */
export async function checkResult(checker: ResultChecker, result: unknown, negotiatedVersion: string, toolName: string, tool: ToolSchemas | undefined): Promise<ResultCheckPart[]> {
  const version = nearestVersion(negotiatedVersion);
  const verdictPromise = checker.validateOne(JSON.stringify(result), { packId: `mcp/${version}`, kindId: "CallToolResult" });
  // Core's rule decides whether the outputSchema applies.
  const structured = ruled(checker, (tools) =>
    tool && isJsonObject(result) ? checkStructuredContent({ result }, toolName, tool, tools, draftFor(version), atLeast(version, "2025-06-18")) : [],
  );
  const [verdict, { asked, issues }] = await Promise.all([verdictPromise, structured]);
  const parts: ResultCheckPart[] = [{ id: "result", label: `Result checked against MCP ${version}`, issues: verdictIssues(verdict) }];
  if (asked || issues.length > 0) {
    parts.push({ id: "structured-content", label: "structuredContent checked against the tool's outputSchema", issues: issues.map(withinResult) });
  }
  return parts;
}

/**
 * The whole check of one call: its arguments whatever the outcome (a server may refuse bad ones
 * with an error), and its result when the server gave one. Null when nothing was checked.
 */
export async function checkCall(
  checker: ResultChecker,
  call: { readonly outcome: CallOutcome; readonly args: unknown; readonly version: string; readonly name: string; readonly tool: Record<string, unknown> | undefined },
): Promise<ResultCheck | null> {
  const { outcome, args, version, name, tool } = call;
  const schemas = tool && { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema };
  try {
    const [argParts, resultParts] = await Promise.all([
      checkCallArguments(checker, args, version, name, schemas),
      checkable(outcome) ? checkResult(checker, outcome.result, version, name, schemas) : Promise.resolve<ResultCheckPart[]>([]),
    ]);
    const parts = [...argParts, ...resultParts];
    return parts.length === 0 ? null : { status: "done", parts };
  } catch (error) {
    return { status: "failed", message: `The call could not be checked: ${(error as Error).message}` };
  }
}
