// The lint is pure and cheap, so the tool list asks it only for the rows in view; whether a
// schema compiles needs ajv, which the page's CSP forbids, so that is asked of the validation
// worker for the selected tool only.
import { isJsonObject } from "../../../core/json/index.ts";
import { countFindings, duplicateToolNames, lintTool, sortFindings, type LintCounts, type LintFinding } from "../../../core/mcp/tool-lint.ts";
import { draftFor, nearestVersion } from "../../../core/packs/mcp/versions.ts";
import { MAX_DYNAMIC_SCHEMA_CHARS } from "../../../core/schema/compiler.ts";
import type { ResultChecker } from "./result-check.ts";

/** What the compile check needs from the validation worker; `ValidationClient` is one. */
export type SchemaChecker = Pick<ResultChecker, "checkSchema">;

export type CompileCheck =
  | { readonly status: "checking" }
  | { readonly status: "done"; readonly findings: readonly LintFinding[] }
  | { readonly status: "failed"; readonly message: string };

type Tool = Record<string, unknown>;

/** Per-tool lint findings for the tool list (cached by tool object) and the compile check of the selected tool. */
export class ToolLintState {
  /** The compile check of the tool last asked about; null when none was asked or no worker is at hand. */
  compile = $state.raw<CompileCheck | null>(null);

  readonly #tools: () => readonly Tool[];
  readonly #version: () => string | undefined;
  readonly #checker: SchemaChecker | undefined;
  // Plain caches: findings never change for a tool object, and the list re-renders on its own.
  #findings = new WeakMap<Tool, LintFinding[]>();
  readonly #compiled = new WeakMap<Tool, readonly LintFinding[]>();
  #listed: readonly Tool[] | undefined;
  #duplicates: ReadonlySet<string> = duplicateToolNames([]);
  #run = 0;

  constructor(tools: () => readonly Tool[], negotiatedVersion: () => string | undefined, checker?: SchemaChecker) {
    this.#tools = tools;
    this.#version = negotiatedVersion;
    this.#checker = checker;
  }

  /** Names used by more than one listed tool; recomputed once per new list. */
  #duplicateNames(): ReadonlySet<string> {
    const tools = this.#tools();
    if (tools !== this.#listed) {
      this.#listed = tools;
      this.#duplicates = duplicateToolNames(tools);
      this.#findings = new WeakMap();
    }
    return this.#duplicates;
  }

  /** The tool's findings, errors first. */
  findings(tool: Tool): readonly LintFinding[] {
    const duplicates = this.#duplicateNames();
    let found = this.#findings.get(tool);
    if (!found) {
      found = lintTool(tool, { duplicate: typeof tool.name === "string" && duplicates.has(tool.name) });
      this.#findings.set(tool, found);
    }
    return found;
  }

  counts(tool: Tool): LintCounts {
    return countFindings(this.findings(tool));
  }

  /** The lint findings and, once known, the compile check's, errors first. */
  allFindings(tool: Tool): readonly LintFinding[] {
    const compile = this.compile;
    return compile?.status === "done" ? sortFindings([...compile.findings, ...this.findings(tool)]) : this.findings(tool);
  }

  /** Asks the worker whether the tool's schemas compile; a newer question drops an older answer. */
  async checkCompiles(tool: Tool | undefined): Promise<void> {
    const run = ++this.#run;
    const checker = this.#checker;
    if (!tool || !checker) {
      this.compile = null;
      return;
    }
    const known = this.#compiled.get(tool);
    if (known) {
      this.compile = { status: "done", findings: known };
      return;
    }
    this.compile = { status: "checking" };
    const draft = draftFor(nearestVersion(this.#version() ?? "2025-11-25"));
    let check: CompileCheck;
    try {
      const found: LintFinding[] = [];
      for (const key of ["inputSchema", "outputSchema"] as const) {
        const schema = tool[key];
        // Not an object: the lint already says so. Too big: the worker would not compile it either.
        if (!isJsonObject(schema)) continue;
        if (JSON.stringify(schema).length > MAX_DYNAMIC_SCHEMA_CHARS) {
          found.push({ rule: "schema.invalid", severity: "info", pointer: `/${key}`, message: `The ${key} is too large for this console to compile, so only the lint looked at it.` });
          continue;
        }
        const issues = await checker.checkSchema(schema, {}, `/${key}`, draft);
        // A compile failure comes back as one issue on the `$schema` keyword; the rest is the value {} failing, which is no news.
        for (const issue of issues) if (issue.keyword === "$schema") found.push({ rule: "schema.invalid", severity: "error", pointer: issue.pointer, message: issue.message });
      }
      this.#compiled.set(tool, found);
      check = { status: "done", findings: found };
    } catch (error) {
      check = { status: "failed", message: `Whether the schemas compile could not be checked: ${(error as Error).message}` };
    }
    if (run === this.#run) this.compile = check;
  }
}
