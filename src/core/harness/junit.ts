/**
 * A run report as JUnit XML, the Ant/Jenkins dialect CI test reporters read (Jenkins, GitLab,
 * GitHub actions that publish test results): one testsuite per collection run, one testcase per
 * step, failure/error/skipped as the step's status says, and the step's outcome and frames,
 * abbreviated, in system-out so a failed CI job shows what crossed the wire.
 */
import type { HarnessProtocol } from "./collection-types.ts";
import { assertionLabel, clipText, seconds, xmlAttr, xmlText } from "./junit-text.ts";
import type { RunReport, StepFrame, StepReport } from "./run-types.ts";

export interface JunitOptions {
  /** Characters of one frame's text kept in system-out. */
  readonly frameChars?: number;
  /** Frames kept per step in system-out; the rest are counted. */
  readonly frames?: number;
  /** Characters of a failure message attribute. */
  readonly messageChars?: number;
}

const DEFAULTS = { frameChars: 2000, frames: 50, messageChars: 1000 };

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function countsOf(steps: readonly StepReport[]): Counts {
  const c: Counts = { tests: steps.length, failures: 0, errors: 0, skipped: 0 };
  for (const s of steps) {
    if (s.status === "failed") c.failures++;
    else if (s.status === "error") c.errors++;
    else if (s.status === "skipped") c.skipped++;
  }
  return c;
}

const countAttrs = (c: Counts): string => `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;

/** The Ant format's timestamp: UTC without a zone or fraction; undefined when the report's is no date. */
function antTimestamp(iso: string): string | undefined {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 19) : undefined;
}

/** Dots in a collection name would split the classname's package path; they become underscores. */
const classname = (collection: string, protocol: HarnessProtocol): string => `patchbay.${collection.replace(/\./g, "_")}.${protocol}`;

function frameLine(f: StepFrame, chars: number): string {
  const channel = f.channel !== undefined ? ` ${f.channel}` : "";
  const validity = f.validity && !f.validity.valid ? ` [invalid: ${f.validity.problems.slice(0, 3).join("; ")}]` : "";
  return `  +${Math.round(f.atMs)}ms ${f.direction}${channel}${validity}: ${clipText(f.text, chars)}`;
}

function systemOut(step: StepReport, o: typeof DEFAULTS): string {
  const lines: string[] = [`target: ${step.target}`];
  if (step.outcome) {
    const o2 = step.outcome;
    const detail = o2.code !== undefined ? ` (code ${o2.code})` : o2.state !== undefined ? ` (state ${o2.state})` : "";
    lines.push(`outcome: ${o2.kind}${detail}: ${o2.message}`);
  }
  if (step.latencyMs !== undefined) lines.push(`latency: ${seconds(step.latencyMs)} s`);
  if (step.error !== undefined) lines.push(`error: ${step.error}`);
  const captured = Object.entries(step.captured);
  if (captured.length > 0) lines.push(`captured: ${captured.map(([k, v]) => `${k}=${clipText(v, 200)}`).join(", ")}`);
  if (step.frames.length > 0) {
    lines.push(`frames (${step.frames.length}):`);
    for (const f of step.frames.slice(0, o.frames)) lines.push(frameLine(f, o.frameChars));
    if (step.frames.length > o.frames) lines.push(`  … ${step.frames.length - o.frames} more frames`);
  }
  return lines.join("\n");
}

const assertionLines = (step: StepReport): string =>
  step.assertions.map((r) => `${r.passed ? "PASS" : "FAIL"} ${assertionLabel(r.assertion)}: ${r.message}`).join("\n");

function verdict(step: StepReport, o: typeof DEFAULTS): string {
  const msg = (text: string): string => xmlAttr(clipText(text, o.messageChars));
  if (step.status === "failed") {
    const first = step.assertions.find((r) => !r.passed);
    const message = first?.message ?? step.error ?? "the step failed";
    const type = first ? first.assertion.kind : "failure";
    return `      <failure message="${msg(message)}" type="${xmlAttr(type)}">${xmlText(assertionLines(step))}</failure>\n`;
  }
  if (step.status === "error") {
    const message = step.error ?? step.outcome?.message ?? "the step could not run";
    const body = [message, assertionLines(step)].filter((t) => t !== "").join("\n");
    return `      <error message="${msg(message)}" type="error">${xmlText(body)}</error>\n`;
  }
  if (step.status === "skipped") return `      <skipped message="${msg(step.error ?? "not run")}"/>\n`;
  return "";
}

function testcase(report: RunReport, step: StepReport, o: typeof DEFAULTS): string {
  // Readers key test cases by name: an empty one (a hand-edited report) still gets one.
  const name = step.name === "" ? `step ${step.index + 1}` : step.name;
  const head = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname(report.collection, step.protocol))}" time="${seconds(step.latencyMs)}">\n`;
  return `${head}${verdict(step, o)}      <system-out>${xmlText(systemOut(step, o))}</system-out>\n    </testcase>\n`;
}

function testsuite(report: RunReport, id: number, o: typeof DEFAULTS): string {
  const stamp = antTimestamp(report.startedAt);
  const attrs = [
    `name="${xmlAttr(report.collection === "" ? "collection" : report.collection)}"`,
    countAttrs(countsOf(report.steps)),
    `time="${seconds(report.durationMs)}"`,
    ...(stamp !== undefined ? [`timestamp="${stamp}"`] : []),
    `id="${id}"`,
  ].join(" ");
  const props: [string, string][] = [
    ["environment", report.environment ?? ""],
    ["startedAt", report.startedAt],
    ["stopped", String(report.stopped)],
  ];
  const properties = props.map(([n, v]) => `      <property name="${n}" value="${xmlAttr(v)}"/>\n`).join("");
  const cases = report.steps.map((s) => testcase(report, s, o)).join("");
  return `  <testsuite ${attrs}>\n    <properties>\n${properties}    </properties>\n${cases}  </testsuite>\n`;
}

/**
 * JUnit XML for one run, or several (one testsuite each). Counts are taken from the steps
 * themselves, so the attributes always agree with the elements.
 */
export function junitXml(report: RunReport | readonly RunReport[], options: JunitOptions = {}): string {
  const o = { ...DEFAULTS, ...options };
  const reports: readonly RunReport[] = Array.isArray(report) ? report : [report as RunReport];
  const all = countsOf(reports.flatMap((r) => r.steps));
  const duration = reports.reduce((sum, r) => sum + (Number.isFinite(r.durationMs) && r.durationMs > 0 ? r.durationMs : 0), 0);
  const first = reports[0];
  const name = reports.length === 1 && first ? first.collection : "patchbay";
  const stamp = first ? antTimestamp(first.startedAt) : undefined;
  const head = `<testsuites name="${xmlAttr(name)}" ${countAttrs(all)} time="${seconds(duration)}"${stamp !== undefined ? ` timestamp="${stamp}"` : ""}>\n`;
  const suites = reports.map((r, i) => testsuite(r, i, o)).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}${suites}</testsuites>\n`;
}
