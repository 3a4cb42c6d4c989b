import type { ConformanceRunView } from "../../../core/harness/conformance-run-types.ts";
import type { TckCase } from "../../../core/harness/tck-junit.ts";

export type RowMark = "pass" | "fail" | "skip";

export interface DetailLine {
  readonly name: string;
  readonly mark: RowMark;
  /** The tool's word for it: SUCCESS/FAILURE/…, or passed/failed/error/skipped. */
  readonly status: string;
  readonly message?: string;
}

/** One line of the results table: an MCP scenario, or the TCK tests of one module. */
export interface ResultRow {
  readonly key: string;
  readonly name: string;
  readonly mark: RowMark;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly details: readonly DetailLine[];
  /** Why the details could not be read, when they could not. */
  readonly note?: string;
}

export interface ResultTotals {
  readonly rows: number;
  readonly rowsPassed: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** What the counts count: the suite's checks, or the TCK's tests. */
  readonly unit: "checks" | "tests";
  /** The results may be partial (the TCK's file ended early). */
  readonly partial: boolean;
}

const markOf = (passed: number, failed: number): RowMark => (failed > 0 ? "fail" : passed > 0 ? "pass" : "skip");
const caseMark = (c: TckCase): RowMark => (c.outcome === "passed" ? "pass" : c.outcome === "skipped" ? "skip" : "fail");

function tckRows(cases: readonly TckCase[]): ResultRow[] {
  const groups = new Map<string, TckCase[]>();
  for (const c of cases) groups.set(c.classname, [...(groups.get(c.classname) ?? []), c]);
  return [...groups].map(([classname, list]) => {
    const failed = list.filter((c) => caseMark(c) === "fail").length;
    const passed = list.filter((c) => c.outcome === "passed").length;
    return {
      key: `a2a:${classname}`,
      name: classname,
      mark: markOf(passed, failed),
      passed,
      failed,
      skipped: list.length - passed - failed,
      details: list.map((c) => ({ name: c.name, mark: caseMark(c), status: c.outcome, ...(c.message !== undefined ? { message: c.message } : {}) })),
    };
  });
}

/** The run's results as table rows, failing rows first so they are seen; none until results came. */
export function resultRows(run: ConformanceRunView | null): ResultRow[] {
  if (!run) return [];
  const rows: ResultRow[] = run.mcp
    ? run.mcp.scenarios.map((s) => ({
        key: `mcp:${s.name}`,
        name: s.name,
        mark: s.ok ? markOf(s.passed, s.failed) : "fail",
        passed: s.passed,
        failed: s.failed,
        skipped: 0,
        details: (s.checks ?? []).map((c) => ({ name: c.name, mark: c.ok ? "pass" : "fail", status: c.status, ...(c.message !== undefined ? { message: c.message } : {}) })),
        ...(s.checksProblem !== undefined ? { note: s.checksProblem } : {}),
      }))
    : run.a2a
      ? tckRows(run.a2a.result.cases)
      : [];
  const order: Record<RowMark, number> = { fail: 0, pass: 1, skip: 2 };
  return rows.map((row, i) => ({ row, i })).sort((a, b) => order[a.row.mark] - order[b.row.mark] || a.i - b.i).map((x) => x.row);
}

/** The totals line under the table, or null before results. */
export function resultTotals(run: ConformanceRunView | null): ResultTotals | null {
  const rows = resultRows(run);
  if (run?.mcp?.total) {
    const { passed, failed } = run.mcp.total;
    return { rows: rows.length, rowsPassed: rows.filter((r) => r.mark !== "fail").length, passed, failed, skipped: 0, unit: "checks", partial: false };
  }
  const tck = run?.a2a?.result;
  if (!tck) return null;
  return { rows: rows.length, rowsPassed: rows.filter((r) => r.mark !== "fail").length, passed: tck.passed, failed: tck.failures + tck.errors, skipped: tck.skipped, unit: "tests", partial: !tck.complete };
}

export const MARKS: Readonly<Record<RowMark, string>> = { pass: "✓", fail: "✗", skip: "–" };
