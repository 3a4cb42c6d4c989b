import { describe, expect, it } from "vitest";
import { DiffInputError } from "./diff-json.ts";
import { diffRuns } from "./diff-runs.ts";
import type { AssertionResult, RunReport, StepReport } from "./run-types.ts";

const outcomeOk: AssertionResult = { assertion: { kind: "outcome", is: "result" }, passed: true, message: "outcome is result" };
const textOk: AssertionResult = { assertion: { kind: "equals", pointer: "/result/content/0/text", value: "Echo: hi" }, passed: true, message: 'found "Echo: hi"' };
const fast: AssertionResult = { assertion: { kind: "latency", belowMs: 100 }, passed: true, message: "took 12 ms" };

function step(index: number, name: string, status: StepReport["status"], assertions: AssertionResult[], latencyMs?: number, outcome: StepReport["outcome"] | null = { kind: "result", message: "ok" }): StepReport {
  return { index, name, protocol: "mcp", target: "everything", status, assertions, frames: [], captured: {}, ...(latencyMs !== undefined ? { latencyMs } : {}), ...(outcome ? { outcome } : {}) };
}

function run(steps: StepReport[], durationMs = 100): RunReport {
  const count = (s: StepReport["status"]) => steps.filter((x) => x.status === s).length;
  return {
    format: "patchbay.run",
    version: 1,
    collection: "everything smoke",
    environment: "local",
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs,
    stopped: false,
    steps,
    totals: { steps: steps.length, passed: count("passed"), failed: count("failed"), errors: count("error"), skipped: count("skipped") },
  };
}

const baseline = () => run([
  step(0, "list tools", "passed", [outcomeOk], 10),
  step(1, "echo", "passed", [outcomeOk, textOk, fast], 12),
  step(2, "sum", "failed", [{ ...outcomeOk, passed: false, message: "got json-rpc-error" }], 8, { kind: "json-rpc-error", code: -32602, message: "bad" }),
  step(3, "old step", "passed", [outcomeOk], 5),
]);

describe("diffRuns", () => {
  it("finds every step the same between a run and itself, with latency ratio 1", () => {
    const d = diffRuns(baseline(), baseline());
    expect(d.counts).toEqual({ regression: 0, fix: 0, "status-changed": 0, same: 4, added: 0, removed: 0 });
    expect(d.steps.every((s) => s.assertions.length === 0 && s.outcome === undefined)).toBe(true);
    expect(d.steps[0]!.latency).toEqual({ beforeMs: 10, afterMs: 10, ratio: 1 });
  });

  it("names regressions, fixes, new and removed steps, flipped assertions, outcome and latency changes", () => {
    const after = run([
      step(0, "list tools", "error", [], undefined, null),
      step(1, "echo", "failed", [outcomeOk, { ...textOk, passed: false, message: 'found "Echo: ho"' }, { ...fast, message: "took 30 ms" }], 30),
      step(2, "sum", "passed", [outcomeOk], 4),
      step(3, "new step", "passed", [outcomeOk], 1),
    ], 250);
    const d = diffRuns(baseline(), after);
    expect(d.steps.map((s) => [s.name, s.change])).toEqual([
      ["list tools", "regression"],
      ["echo", "regression"],
      ["sum", "fix"],
      ["new step", "added"],
      ["old step", "removed"],
    ]);
    expect(d.counts.regression).toBe(2);
    const echo = d.steps[1]!;
    // The latency assertion passed both times: a new message alone is no change.
    expect(echo.assertions.map((a) => [a.label, a.change])).toEqual([['equals /result/content/0/text "Echo: hi"', "now-fails"]]);
    expect(echo.latency).toEqual({ beforeMs: 12, afterMs: 30, ratio: 2.5 });
    const sum = d.steps[2]!;
    expect(sum.outcome?.before?.kind).toBe("json-rpc-error");
    expect(sum.outcome?.after?.kind).toBe("result");
    expect(sum.assertions.map((a) => a.change)).toEqual(["now-passes"]);
    expect(d.steps[0]!.outcome).toEqual({ before: { kind: "result", message: "ok" } });
    expect(d.steps[0]!.latency).toBeUndefined();
    expect(d.durationMs).toEqual({ before: 100, after: 250, ratio: 2.5 });
    expect(d.totals.after).toEqual({ steps: 4, passed: 2, failed: 1, errors: 1, skipped: 0 });
  });

  it("reports assertions added and removed, and skipped steps as a status change", () => {
    const after = run([step(0, "list tools", "skipped", [], undefined, null), step(1, "echo", "passed", [outcomeOk, fast, { assertion: { kind: "valid" }, passed: true, message: "valid" }], 12)]);
    const d = diffRuns(baseline(), after);
    expect(d.steps[0]!.change).toBe("status-changed");
    expect(d.steps[1]!.assertions.map((a) => [a.label, a.change])).toEqual([["valid", "added"], ['equals /result/content/0/text "Echo: hi"', "removed"]]);
  });

  it("pairs repeated step names in order, and gives no ratio when the first took no time", () => {
    const b = run([step(0, "ping", "passed", [], 0), step(1, "ping", "passed", [], 3)]);
    const a = run([step(0, "ping", "passed", [], 2), step(1, "ping", "failed", [], 3)]);
    const d = diffRuns(b, a);
    expect(d.steps.map((s) => [s.name, s.change])).toEqual([["ping", "same"], ["ping #2", "regression"]]);
    expect(d.steps[0]!.latency).toEqual({ beforeMs: 0, afterMs: 2 });
  });

  it("refuses what is no run report, naming the side", () => {
    expect(() => diffRuns({} as RunReport, baseline())).toThrow(DiffInputError);
    expect(() => diffRuns(baseline(), { format: "patchbay.wirelog" } as unknown as RunReport)).toThrow(/after: expected a run report.*"patchbay.wirelog"/);
  });
});
