// The page's CSP forbids ajv's code generation, so a tools/call result is checked in the
// validation worker (served with a CSP that allows it) after the outcome is shown.
import { isJsonObject } from "../../../core/json/index.ts";
import type { CallOutcome } from "../../../core/mcp/index.ts";
import { checkStructuredContent, type ToolSchemas } from "../../../core/packs/mcp/tool-checks.ts";
import { atLeast, draftFor, nearestVersion } from "../../../core/packs/mcp/versions.ts";
import type { CheckTools, Issue, Override, SchemaDraft, Verdict } from "../../../core/validation/types.ts";

/** What the checks need from the validation worker; `ValidationClient` is one. */
export interface ResultChecker {
  validateOne(text: string, override?: Override): Promise<Verdict>;
  checkSchema(schema: unknown, value: unknown, pointer: string, draft: SchemaDraft): Promise<Issue[]>;
}

/** One check of the result: what it was checked against, and what was wrong (empty when valid). */
export interface ResultCheckPart {
  readonly id: "result" | "structured-content";
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

/**
 * The result against the negotiated version's CallToolResult and, when the tool declares an
 * outputSchema and did not report isError, its structuredContent against that schema.
 */
export async function checkResult(checker: ResultChecker, result: unknown, negotiatedVersion: string, toolName: string, tool: ToolSchemas | undefined): Promise<ResultCheckPart[]> {
  const version = nearestVersion(negotiatedVersion);
  const verdictPromise = checker.validateOne(JSON.stringify(result), { packId: `mcp/${version}`, kindId: "CallToolResult" });
  // Core's rule decides whether the outputSchema applies; the schema checks it asks for run in the worker.
  const asked: Parameters<CheckTools["validateWithSchema"]>[] = [];
  const record: CheckTools = {
    validateWithSchema: (...args) => {
      asked.push(args);
      return [];
    },
  };
  const ruleIssues = tool && isJsonObject(result) ? checkStructuredContent({ result }, toolName, tool, record, draftFor(version), atLeast(version, "2025-06-18")) : [];
  const [verdict, schemaIssues] = await Promise.all([verdictPromise, Promise.all(asked.map((args) => checker.checkSchema(...args)))]);
  const parts: ResultCheckPart[] = [{ id: "result", label: `Result checked against MCP ${version}`, issues: verdictIssues(verdict) }];
  if (asked.length > 0 || ruleIssues.length > 0) {
    parts.push({ id: "structured-content", label: "structuredContent checked against the tool's outputSchema", issues: [...ruleIssues, ...schemaIssues.flat()].map(withinResult) });
  }
  return parts;
}
