import { describe, expect, it } from "vitest";
import { runReport, stepReport } from "./collections-fakes.ts";
import { compareRuns, diffHeadline, earlierRuns, orderedSteps, ratioWords, runLabel } from "./run-compare.ts";

const passing = stepReport(0, "echo", "passed", { latencyMs: 10 });
const failing = stepReport(0, "echo", "failed", { latencyMs: 25, assertions: [{ assertion: { kind: "exists", pointer: "/x" }, passed: false, message: "/x is absent" }] });

describe("run comparison", () => {
  it("offers the earlier runs of the latest run's collection only, newest first", () => {
    const a1 = runReport("a", [passing], { durationMs: 1 });
    const b1 = runReport("b", [passing], { durationMs: 2 });
    const a2 = runReport("a", [passing], { durationMs: 3 });
    const a3 = runReport("a", [passing], { durationMs: 4 });
    expect(earlierRuns([a1, b1, a2, a3])).toEqual([a2, a1]);
    expect(earlierRuns([a1])).toEqual([]);
    expect(earlierRuns([])).toEqual([]);
  });

  it("puts regressions first and says how latency moved", () => {
    const before = runReport("a", [passing, stepReport(1, "gone", "passed"), stepReport(2, "sum", "failed")]);
    const after = runReport("a", [failing, stepReport(1, "sum", "passed"), stepReport(2, "fresh", "passed")]);
    const made = compareRuns(before, after);
    if (!made.ok) throw new Error(made.error);
    expect(diffHeadline(made.diff)).toBe("1 regression · 1 fix · 1 new step · 1 removed step");
    expect(orderedSteps(made.diff).map((s) => `${s.change} ${s.name}`)).toEqual(["regression echo", "fix sum", "added fresh", "removed gone"]);
    expect(ratioWords(made.diff.steps[0]?.latency?.ratio)).toBe("2.5× slower");
  });

  it("words latency ratios and says when nothing changed", () => {
    expect(ratioWords(0.5)).toBe("2.0× faster");
    expect(ratioWords(1.05)).toBe("about the same");
    expect(ratioWords(undefined)).toBe("");
    expect(ratioWords(Number.NaN)).toBe("");
    const same = compareRuns(runReport("a", [passing]), runReport("a", [passing]));
    expect(same.ok && diffHeadline(same.diff)).toBe("no step changed status");
  });

  it("refuses what is not a run report with the reason, rather than throwing", () => {
    const bad = compareRuns(runReport("a", [passing]), { format: "nope" } as never);
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/^these runs cannot be compared: after: expected a run report/) });
  });

  it("labels a run by its start and totals", () => {
    expect(runLabel(runReport("a", [passing, failing]))).toMatch(/^\d\d:\d\d:\d\d: 1 passed, 1 failed, 0 errors$/);
    expect(runLabel(runReport("a", [], { startedAt: "whenever" }))).toBe("whenever: 0 passed, 0 failed, 0 errors");
  });
});
