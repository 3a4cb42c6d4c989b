#!/usr/bin/env node
/**
 * The bulk-validation gate that npm test runs. The benchmark (bench/validate.bench.ts) measures the
 * pipeline against its floor within one process; this runs it in several processes and fails when
 * the best of their ratios is over the goal, or when any run fails (it breaks, or the floor and
 * the pipeline disagree on what is valid).
 *
 * Why the best run: on a shared machine a neighbour's burst only ever slows a run, and it slows
 * the pipeline (the larger working set) more than the floor, so one run's ratio can sit 0.1x above
 * another's with no change to the code, and a burst can last a minute or more. A regression slows
 * every run, so the best of five still catches one of a tenth or more (runs of unchanged code
 * spread about 0.05x either side of their centre). Every run's ratio, and their median, are
 * printed beside the verdict.
 *
 * Usage: node scripts/validate-gate.mjs [--runs 5] [--goal R]   (R: the goal the benchmark prints)
 */
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const RATIO = /median of the rounds' ratios\): (\d+(?:\.\d+)?)x/;
const GOAL = /goal <= (\d+(?:\.\d+)?)x/;

/** The ratio a benchmark run printed and the goal it names; null when the output has neither. */
export function ratioOf(output) {
  const ratio = RATIO.exec(output);
  const goal = GOAL.exec(output);
  return ratio && goal ? { ratio: Number(ratio[1]), goal: Number(goal[1]) } : null;
}

/** The verdict on the runs' ratios: passed when the best is within the goal. */
export function judge(ratios, goal) {
  if (ratios.length === 0) return { ok: false, message: "no run gave a ratio" };
  const sorted = [...ratios].sort((a, b) => a - b);
  const best = sorted[0];
  const median = sorted[Math.floor(sorted.length / 2)];
  const ok = best <= goal;
  const figures = `best ${best.toFixed(2)}x, median ${median.toFixed(2)}x of ${ratios.length} run${ratios.length === 1 ? "" : "s"} (goal <= ${goal}x)`;
  return { ok, best, median, message: ok ? `${figures}: met` : `${figures}: NOT met, even by the best run` };
}

/** `--runs N` and `--goal R`, or an error message. */
export function gateOptions(argv) {
  const options = { runs: 5, goal: undefined };
  for (let i = 0; i < argv.length; i++) {
    const value = Number(argv[i + 1]);
    if (argv[i] === "--runs" && Number.isInteger(value) && value > 0) options.runs = value;
    else if (argv[i] === "--goal" && Number.isFinite(value) && value > 0) options.goal = value;
    else return `usage: node scripts/validate-gate.mjs [--runs N] [--goal R] (N a positive integer, R a positive ratio): ${argv[i]} ${argv[i + 1] ?? ""}`;
    i++;
  }
  return options;
}

function main(argv) {
  const options = gateOptions(argv);
  if (typeof options === "string") {
    process.stderr.write(`${options}\n`);
    return 2;
  }
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const ratios = [];
  let goal = options.goal;
  for (let run = 1; run <= options.runs; run++) {
    const child = spawnSync(process.execPath, [join(root, "bench/run.mjs"), "validate", "--rounds", "5"], { cwd: root, encoding: "utf8" });
    const output = `${child.stdout ?? ""}${child.stderr ?? ""}`;
    process.stdout.write(`run ${run} of ${options.runs}, its own process:\n${output.replace(/^(?=.)/gm, "  ")}`);
    const found = ratioOf(output);
    if (child.status !== 0 || !found) {
      process.stdout.write(`FAIL: run ${run} ${child.status !== 0 ? `exited with ${child.status ?? child.signal}` : "printed no ratio and goal"}\n`);
      return 1;
    }
    ratios.push(found.ratio);
    goal ??= found.goal;
  }
  const verdict = judge(ratios, goal);
  process.stdout.write(`bulk validation gate: ${verdict.message}\n`);
  return verdict.ok ? 0 : 1;
}

const invoked = process.argv[1] ? realpathSync(process.argv[1]) : "";
if (invoked === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
