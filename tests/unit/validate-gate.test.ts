import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gateOptions, judge, ratioOf } from "../../scripts/validate-gate.mjs";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "../../scripts/validate-gate.mjs");

/** What bench/validate.bench.ts prints, figures aside. */
const output = (ratio: string, goal = "2") =>
  [
    "validate bench: 100,000 messages (MCP, A2A v0.3/v1.0, fisk-ai Gen 2; 1 in 21 broken), 5 rounds, median",
    "  floor    (JSON.parse + raw pre-compiled ajv on the known definition): 140 ms, 714,285 msg/s, 95239 valid",
    "  pipeline (split + parse + classify + validate + rules):               266 ms, 375,939 msg/s, 95239 valid",
    `  ratio pipeline/floor (median of the rounds' ratios): ${ratio}x (goal <= ${goal}x: met)`,
    "  each round's ratio: 2.10 1.95 1.90 1.88 1.91",
  ].join("\n");

describe("the bulk-validation gate", () => {
  it("reads a run's ratio and the goal it names, and nothing from output without them", () => {
    expect(ratioOf(output("1.90"))).toEqual({ ratio: 1.9, goal: 2 });
    expect(ratioOf(output("2.13", "2.5"))).toEqual({ ratio: 2.13, goal: 2.5 });
    expect(ratioOf("validate bench: crashed")).toBeNull();
    // The round ratios alone are not the run's ratio.
    expect(ratioOf("  each round's ratio: 1.90 1.95 (goal <= 2x)")).toBeNull();
  });

  it("passes when the best run is within the goal and fails when every run is over it", () => {
    const passed = judge([2.04, 1.93, 1.97], 2);
    expect(passed).toMatchObject({ ok: true, best: 1.93, median: 1.97 });
    expect(passed.message).toBe("best 1.93x, median 1.97x of 3 runs (goal <= 2x): met");
    expect(judge([2, 2.2, 2.1], 2).ok).toBe(true);
    const failed = judge([2.05, 2.01, 2.3], 2);
    expect(failed).toMatchObject({ ok: false, best: 2.01, median: 2.05 });
    expect(failed.message).toMatch(/NOT met, even by the best run$/);
    expect(judge([], 2)).toEqual({ ok: false, message: "no run gave a ratio" });
  });

  it("takes --runs and --goal, and refuses anything else", () => {
    expect(gateOptions([])).toEqual({ runs: 5, goal: undefined });
    expect(gateOptions(["--runs", "5", "--goal", "1.5"])).toEqual({ runs: 5, goal: 1.5 });
    for (const bad of [["--runs", "0"], ["--runs", "2.5"], ["--goal", "-1"], ["--goal", "fast"], ["--goal"], ["--rounds", "5"]]) {
      expect(gateOptions(bad), bad.join(" ")).toMatch(/^usage: node scripts\/validate-gate\.mjs/);
    }
  });

  it("exits 2 on a bad option before running anything", () => {
    const run = spawnSync(process.execPath, [SCRIPT, "--runs", "none"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage: node scripts\/validate-gate\.mjs/);
    expect(run.stdout).toBe("");
  });
});
