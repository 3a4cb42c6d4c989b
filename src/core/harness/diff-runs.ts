/**
 * Two run reports compared step by step (matched by name): regressions (passed, now failing or
 * in error), fixes (the reverse), other status changes, steps only one run has, assertions whose
 * verdict flipped, outcomes that differ, and how each step's latency moved.
 */
import { jsonTypeName } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import type { Assertion, StepOutcome } from "./collection-types.ts";
import { DiffInputError, stableKey } from "./diff-json.ts";
import { assertionLabel } from "./junit-text.ts";
import type { RunTotals, StepReport, StepStatus, RunReport } from "./run-types.ts";

export type StepChangeKind = "regression" | "fix" | "status-changed" | "same" | "added" | "removed";

export interface AssertionChange {
  readonly assertion: Assertion;
  readonly label: string;
  readonly change: "now-fails" | "now-passes" | "added" | "removed";
  readonly before?: { readonly passed: boolean; readonly message: string };
  readonly after?: { readonly passed: boolean; readonly message: string };
}

export interface StepDiff {
  readonly name: string;
  readonly change: StepChangeKind;
  readonly before?: { readonly index: number; readonly status: StepStatus };
  readonly after?: { readonly index: number; readonly status: StepStatus };
  readonly assertions: readonly AssertionChange[];
  /** Present when the outcome's kind, code or state differs (the words alone do not count). */
  readonly outcome?: { readonly before?: StepOutcome; readonly after?: StepOutcome };
  /** after / before, when both ran and before took a measurable time. */
  readonly latency?: { readonly beforeMs: number; readonly afterMs: number; readonly ratio?: number };
}

export interface RunDiff {
  readonly collection: { readonly before: string; readonly after: string };
  readonly totals: { readonly before: RunTotals; readonly after: RunTotals };
  readonly durationMs: { readonly before: number; readonly after: number; readonly ratio?: number };
  /** After's steps in order, then the steps only before had. */
  readonly steps: readonly StepDiff[];
  readonly counts: Readonly<Record<StepChangeKind, number>>;
}

const FAILING: ReadonlySet<StepStatus> = new Set(["failed", "error"]);

function stepChange(b: StepStatus, a: StepStatus): StepChangeKind {
  if (b === a) return "same";
  if (b === "passed" && FAILING.has(a)) return "regression";
  if (FAILING.has(b) && a === "passed") return "fix";
  return "status-changed";
}

const ratio = (before: number, after: number): number | undefined => (before > 0 && Number.isFinite(before) && Number.isFinite(after) ? after / before : undefined);

function checkReport(value: unknown, side: string): RunReport {
  if (!isJsonObject(value) || value.format !== "patchbay.run" || !Array.isArray(value.steps)) {
    throw new DiffInputError(`${side}: expected a run report ("format": "patchbay.run" with "steps"), got ${isJsonObject(value) ? `an object with format ${JSON.stringify(value.format)}` : jsonTypeName(value)}`);
  }
  return value as unknown as RunReport;
}

/** Items keyed by `key`, the second of a key as `key #2`, so repeats still pair in order. */
function keyed<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const out = new Map<string, T>();
  const seen = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    out.set(n === 1 ? k : `${k} #${n}`, item);
  }
  return out;
}

function assertionChanges(b: StepReport, a: StepReport): AssertionChange[] {
  const before = keyed(b.assertions ?? [], (r) => stableKey(r.assertion));
  const after = keyed(a.assertions ?? [], (r) => stableKey(r.assertion));
  const out: AssertionChange[] = [];
  const verdict = (r: { passed: boolean; message: string }) => ({ passed: r.passed, message: r.message });
  for (const [k, r] of after) {
    const old = before.get(k);
    const base = { assertion: r.assertion, label: assertionLabel(r.assertion), after: verdict(r) };
    if (!old) out.push({ ...base, change: "added" });
    else if (old.passed !== r.passed) out.push({ ...base, change: r.passed ? "now-passes" : "now-fails", before: verdict(old) });
  }
  for (const [k, r] of before) {
    if (!after.has(k)) out.push({ assertion: r.assertion, label: assertionLabel(r.assertion), change: "removed", before: verdict(r) });
  }
  return out;
}

const sameOutcome = (b: StepOutcome | undefined, a: StepOutcome | undefined): boolean =>
  b?.kind === a?.kind && b?.code === a?.code && b?.state === a?.state;

function compareStep(name: string, b: StepReport, a: StepReport): StepDiff {
  const outcome = sameOutcome(b.outcome, a.outcome) ? undefined : { ...(b.outcome ? { before: b.outcome } : {}), ...(a.outcome ? { after: a.outcome } : {}) };
  const bothTimed = typeof b.latencyMs === "number" && typeof a.latencyMs === "number";
  const r = bothTimed ? ratio(b.latencyMs!, a.latencyMs!) : undefined;
  return {
    name,
    change: stepChange(b.status, a.status),
    before: { index: b.index, status: b.status },
    after: { index: a.index, status: a.status },
    assertions: assertionChanges(b, a),
    ...(outcome ? { outcome } : {}),
    ...(bothTimed ? { latency: { beforeMs: b.latencyMs!, afterMs: a.latencyMs!, ...(r !== undefined ? { ratio: r } : {}) } } : {}),
  };
}

/** What changed from one run of a collection to another. Throws DiffInputError for a side that is no run report. */
export function diffRuns(beforeReport: RunReport, afterReport: RunReport): RunDiff {
  const before = checkReport(beforeReport, "before");
  const after = checkReport(afterReport, "after");
  const b = keyed(before.steps, (s) => s.name);
  const a = keyed(after.steps, (s) => s.name);
  const steps: StepDiff[] = [];
  for (const [name, step] of a) {
    const old = b.get(name);
    if (old) steps.push(compareStep(name, old, step));
    else steps.push({ name, change: "added", after: { index: step.index, status: step.status }, assertions: [] });
  }
  for (const [name, step] of b) if (!a.has(name)) steps.push({ name, change: "removed", before: { index: step.index, status: step.status }, assertions: [] });
  const counts: Record<StepChangeKind, number> = { regression: 0, fix: 0, "status-changed": 0, same: 0, added: 0, removed: 0 };
  for (const s of steps) counts[s.change]++;
  const r = ratio(before.durationMs, after.durationMs);
  return {
    collection: { before: before.collection, after: after.collection },
    totals: { before: before.totals, after: after.totals },
    durationMs: { before: before.durationMs, after: after.durationMs, ...(r !== undefined ? { ratio: r } : {}) },
    steps,
    counts,
  };
}
