import { diffRuns, type RunDiff, type StepChangeKind, type StepDiff } from "../../../core/harness/diff.ts";
import type { RunReport } from "../../../core/harness/index.ts";

/** Words for each kind of step change, most telling first. */
export const CHANGE_WORDS: Readonly<Record<StepChangeKind, string>> = {
  regression: "regression",
  fix: "fixed",
  "status-changed": "status changed",
  added: "new step",
  removed: "removed step",
  same: "same",
};

const ORDER: readonly StepChangeKind[] = ["regression", "fix", "status-changed", "added", "removed", "same"];

export const CHANGE_CLASS: Readonly<Record<StepChangeKind, string>> = { regression: "bad", fix: "ok", "status-changed": "warn", added: "muted", removed: "muted", same: "muted" };

/** The earlier full runs of the latest run's collection, newest first: what it can be compared with. */
export function earlierRuns(history: readonly RunReport[]): RunReport[] {
  const latest = history.at(-1);
  if (!latest) return [];
  return history.slice(0, -1).filter((r) => r.collection === latest.collection).reverse();
}

/** A run in a choice list: when it started and how it went. */
export function runLabel(report: RunReport): string {
  const t = report.totals;
  const at = Number.isFinite(Date.parse(report.startedAt)) ? new Date(report.startedAt).toLocaleTimeString("en-GB") : report.startedAt;
  return `${at}: ${t.passed} passed, ${t.failed} failed, ${t.errors} errors${t.skipped > 0 ? `, ${t.skipped} skipped` : ""}`;
}

/** `1.8× slower`, `2.0× faster`, `about the same`: a latency ratio (after / before) in words. */
export function ratioWords(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio) || ratio <= 0) return "";
  if (ratio >= 0.9 && ratio <= 1.1) return "about the same";
  return ratio > 1 ? `${ratio.toFixed(1)}× slower` : `${(1 / ratio).toFixed(1)}× faster`;
}

const COUNTED: Readonly<Record<StepChangeKind, readonly [string, string]>> = {
  regression: ["regression", "regressions"],
  fix: ["fix", "fixes"],
  "status-changed": ["other status change", "other status changes"],
  added: ["new step", "new steps"],
  removed: ["removed step", "removed steps"],
  same: ["unchanged step", "unchanged steps"],
};

/** The headline of a comparison: the counts that matter, in order. */
export function diffHeadline(diff: RunDiff): string {
  const parts = ORDER.filter((k) => k !== "same" && diff.counts[k] > 0).map((k) => `${diff.counts[k]} ${COUNTED[k][diff.counts[k] === 1 ? 0 : 1]}`);
  return parts.length > 0 ? parts.join(" · ") : "no step changed status";
}

/** The steps sorted as a reader wants them: regressions first, unchanged last. */
export function orderedSteps(diff: RunDiff): StepDiff[] {
  return [...diff.steps].sort((a, b) => ORDER.indexOf(a.change) - ORDER.indexOf(b.change));
}

export function compareRuns(before: RunReport, after: RunReport): { ok: true; diff: RunDiff } | { ok: false; error: string } {
  try {
    return { ok: true, diff: diffRuns(before, after) };
  } catch (err) {
    return { ok: false, error: `these runs cannot be compared: ${(err as Error).message}` };
  }
}
