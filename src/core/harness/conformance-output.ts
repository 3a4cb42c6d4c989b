/**
 * What the official MCP conformance suite (`conformance server --url …`) reports, read from its
 * console output and from the `checks.json` it writes per scenario with `-o <dir>`. Only the
 * lines after the last `=== SUMMARY ===` count as results: text a server under test gets printed
 * earlier (an error it sent) cannot pose as a scenario's line.
 */
export { parseTckJunit, type TckCase, type TckOutcome, type TckResult } from "./tck-junit.ts";

export interface ConformanceCheck {
  readonly name: string;
  /** Anything but FAILURE: the suite counts only failures against a scenario. */
  readonly ok: boolean;
  /** The suite's own word: SUCCESS, FAILURE, WARNING, INFO. */
  readonly status: string;
  /** The failure's error message, else the check's description. */
  readonly message?: string;
}

export interface ConformanceScenario {
  readonly name: string;
  readonly ok: boolean;
  readonly passed: number;
  readonly failed: number;
  readonly warnings?: number;
  readonly checks?: readonly ConformanceCheck[];
  /** Why the scenario's checks could not be read, when they could not. */
  readonly checksProblem?: string;
}

export interface ConformanceTotals {
  readonly passed: number;
  readonly failed: number;
}

export interface McpConformanceResult {
  readonly scenarios: readonly ConformanceScenario[];
  /** Null when the `Total:` line never came: the run was cut short. */
  readonly total: ConformanceTotals | null;
  /** How many scenarios the suite said it would run, when it said. */
  readonly planned: number | null;
  /** The scenarios begun so far, in order: the live progress of a run. */
  readonly started: readonly string[];
}

export type ChecksRead = { readonly ok: true; readonly checks: readonly ConformanceCheck[] } | { readonly ok: false; readonly problem: string };

/** Bounds that keep hostile output from costing more than a page can show. */
export const CONFORMANCE_LIMITS = { outputChars: 4_000_000, scenarios: 1_000, checks: 500, nameChars: 200, messageChars: 2_000 } as const;

/** Colour and cursor codes, should a terminal-minded tool send them anyway. */
const ANSI = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;?]*[A-Za-z]`, "g");
const COUNT = "(\\d{1,9})";
const SCENARIO_LINE = new RegExp(`^([✓✗]) (\\S{1,${CONFORMANCE_LIMITS.nameChars}}): ${COUNT} passed, ${COUNT} failed(?:, ${COUNT} warnings)?$`, "u");
const TOTAL_LINE = new RegExp(`^Total: ${COUNT} passed, ${COUNT} failed(?:, ${COUNT} warnings)?$`);
const PLANNED_LINE = /^Running (?:\S{1,40} suite|requirements \S{1,40}) \((\d{1,6}) scenarios?\) against /;
const STARTED_LINE = new RegExp(`^=== Running scenario: (\\S{1,${CONFORMANCE_LIMITS.nameChars}}) ===$`, "u");
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function lines(text: string): string[] {
  const kept = text.length > CONFORMANCE_LIMITS.outputChars ? text.slice(-CONFORMANCE_LIMITS.outputChars) : text;
  return kept.replace(ANSI, "").split(/\r?\n/);
}

/** The suite's console output (stdout and stderr together, whole or cut short) as results. */
export function parseMcpConformanceOutput(text: string): McpConformanceResult {
  const all = lines(text);
  let planned: number | null = null;
  const started: string[] = [];
  let summary = -1;
  all.forEach((line, i) => {
    if (line === "=== SUMMARY ===") summary = i;
    const plan = planned === null ? PLANNED_LINE.exec(line) : null;
    if (plan) planned = Number(plan[1]);
    const begun = STARTED_LINE.exec(line.trim());
    if (begun && started.length < CONFORMANCE_LIMITS.scenarios) started.push(begun[1]!);
  });
  const scenarios: ConformanceScenario[] = [];
  let total: ConformanceTotals | null = null;
  for (const line of summary < 0 ? [] : all.slice(summary + 1)) {
    const t = TOTAL_LINE.exec(line);
    if (t) {
      total = { passed: Number(t[1]), failed: Number(t[2]) };
      break;
    }
    const m = SCENARIO_LINE.exec(line);
    if (!m || scenarios.length >= CONFORMANCE_LIMITS.scenarios) continue;
    const failed = Number(m[4]);
    const warnings = m[5] === undefined ? undefined : Number(m[5]);
    // A mark that disagrees with the counts is garbled output: not a pass.
    scenarios.push({ name: m[2]!, ok: m[1] === "✓" && failed === 0, passed: Number(m[3]), failed, ...(warnings !== undefined ? { warnings } : {}) });
  }
  return { scenarios, total, planned, started };
}

/** The scenario a `-o` result folder holds (`server-<scenario>-<ISO time>`), or null for any other name. */
export function scenarioOfResultDir(dirName: string): string | null {
  const m = RESULT_DIR.exec(dirName);
  const name = m?.[1];
  return name && !/[\\/]/.test(name) && name.length <= CONFORMANCE_LIMITS.nameChars ? name : null;
}

/** One scenario's `checks.json`: a list of checks, each with a name (or id) and a status. */
export function parseConformanceChecks(text: string): ChecksRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `checks.json is not JSON: ${(err as Error).message}` };
  }
  if (!Array.isArray(data)) return { ok: false, problem: "checks.json should hold a list of checks" };
  const checks: ConformanceCheck[] = [];
  for (const [i, item] of data.slice(0, CONFORMANCE_LIMITS.checks).entries()) {
    const o = typeof item === "object" && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : null;
    const name = typeof o?.name === "string" && o.name !== "" ? o.name : typeof o?.id === "string" ? o.id : undefined;
    if (!o || name === undefined || typeof o.status !== "string") return { ok: false, problem: `check ${i + 1} in checks.json has no name and status` };
    const said = typeof o.errorMessage === "string" && o.errorMessage !== "" ? o.errorMessage : typeof o.description === "string" ? o.description : undefined;
    const status = clip(o.status, 40);
    checks.push({ name: clip(name, CONFORMANCE_LIMITS.nameChars), ok: status !== "FAILURE", status, ...(said !== undefined ? { message: clip(said, CONFORMANCE_LIMITS.messageChars) } : {}) });
  }
  if (data.length > checks.length) checks.push({ name: `… and ${data.length - checks.length} more checks`, ok: true, status: "INFO" });
  return { ok: true, checks };
}

/** The results with each scenario's checks, where they were read (by scenario name). */
export function withChecks(result: McpConformanceResult, checks: ReadonlyMap<string, ChecksRead>): McpConformanceResult {
  const scenarios = result.scenarios.map((s): ConformanceScenario => {
    const read = checks.get(s.name);
    if (!read) return s;
    return read.ok ? { ...s, checks: read.checks } : { ...s, checksProblem: read.problem };
  });
  return { ...result, scenarios };
}

/** Every scenario passed, and the run got as far as its totals. */
export function conformancePassed(result: McpConformanceResult): boolean {
  return result.total !== null && result.total.failed === 0 && result.scenarios.length > 0 && result.scenarios.every((s) => s.ok);
}
