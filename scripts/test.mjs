#!/usr/bin/env node
// `npm test`: installs what the suite needs, then type-check, lint, unit, integration (real
// nats-server), build + bundle budget, the A2A TCK (Debian's python) and the MCP conformance
// suite (both requirement sets, Node 22) against the served agent, the benchmarks, and
// end-to-end (Playwright with Debian's Chromium).
// Every stage runs; the run fails if any stage failed. Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TCK_HOME } from "./a2a-tck.mjs";
import { ROOT, checkNode, ensureDependencies, recordBuild, say } from "./bootstrap-lib.mjs";

const REPORTS = join(ROOT, ".reports");
// The A2A TCK runs on Debian's python3; its packages, by the module each provides.
const TCK_PYTHON = {
  "python3-pytest": "pytest",
  "python3-pytest-asyncio": "pytest_asyncio",
  "python3-httpx": "httpx",
  "python3-requests": "requests",
  "python3-dotenv": "dotenv",
  "python3-openssl": "OpenSSL",
  "python3-aiohttp": "aiohttp",
  "python3-responses": "responses",
  "python3-yaml": "yaml",
  "python3-jsonschema": "jsonschema",
  "python3-deepdiff": "deepdiff",
};
const SYSTEM_PACKAGES = [
  { pkg: "nats-server", present: () => findBinary("nats-server") },
  { pkg: "chromium", present: () => existsSync(process.env.PATCHBAY_CHROMIUM ?? "/usr/bin/chromium") },
  // Only where the TCK is: without it scripts/a2a-tck.mjs says so and runs nothing.
  ...(existsSync(join(TCK_HOME, "run.sh")) ? Object.entries(TCK_PYTHON).map(([pkg, module]) => ({ pkg, present: () => pythonHas(module) })) : []),
];

function pythonHas(module) {
  return spawnSync("/usr/bin/python3", ["-c", `import ${module}`], { stdio: "ignore" }).status === 0;
}

function findBinary(name) {
  const dirs = [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin", "/usr/bin"];
  return dirs.some((d) => d && existsSync(join(d, name)));
}

function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => !p.present()).map((p) => p.pkg);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(" ")}`;
  if (process.getuid?.() !== 0) {
    say(`the tests need Debian packages that are missing: ${missing.join(", ")}. Run: sudo sh -c '${command}'`);
    process.exit(1);
  }
  say(`installing Debian packages: ${missing.join(", ")}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", ...missing]]) {
    const res = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (res.status !== 0) {
      say(`apt-get ${args.join(" ")} failed; install ${missing.join(", ")} by hand.`);
      process.exit(1);
    }
  }
  const still = SYSTEM_PACKAGES.filter((p) => !p.present()).map((p) => p.pkg);
  if (still.length > 0) {
    say(`still missing after apt-get: ${still.join(", ")}`);
    process.exit(1);
  }
}

const results = [];

/** A finished stage's line in the summary: its counts, or one check passed or failed. */
function record(name, ok, seconds, counts) {
  const tally = counts ? counts() : { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, unit: "check" };
  if (!ok && tally.failed === 0) tally.failed = 1;
  results.push({ name, ok, seconds, ...tally });
}

function stage(name, command, args, counts) {
  process.stdout.write(`\n━━ ${name} ━━\n`);
  const started = Date.now();
  const res = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  record(name, res.status === 0, (Date.now() - started) / 1000, counts);
}

/**
 * Runs stages side by side, each printed whole when it ends, in the order given. For stages that
 * each keep one core busy (the type-check and lint do), on a machine with more than one.
 */
async function together(list) {
  const runs = list.map(([name, command, args, counts]) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    return new Promise((resolve) => {
      child.on("error", (err) => (output += `could not start ${command}: ${err.message}\n`));
      child.on("close", (code) => resolve({ name, counts, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
    });
  });
  for (const run of await Promise.all(runs)) {
    process.stdout.write(`\n━━ ${run.name} ━━\n${run.output}`);
    record(run.name, run.ok, run.seconds, run.counts);
  }
}

function vitestCounts(file) {
  return () => {
    const r = readJson(file);
    if (!r) return { passed: 0, failed: 1, skipped: 0, unit: "tests" };
    return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests, unit: "tests" };
  };
}

/** Mandatory tests are the tally (they fail the run); mandatory + optional are the note. */
function tckCounts(file) {
  return () => {
    const r = readJson(file);
    if (!r) return { passed: 0, failed: 1, skipped: 0, unit: "tests" };
    if (r.absent) return { passed: 0, failed: 0, skipped: 1, unit: "tests", note: `NOT RUN: no TCK at ${r.runner}` };
    if (!r.ran) return { passed: 0, failed: 1, skipped: 0, unit: "tests", note: "the TCK could not run" };
    const m = r.mandatory;
    const all = r.all ? `; mandatory + optional: ${r.all.passed} passed, ${r.all.failures + r.all.errors} failed, ${r.all.skipped} skipped` : "";
    return { passed: m.passed, failed: m.failures + m.errors, skipped: m.skipped, unit: "tests", note: `mandatory${all}` };
  };
}

/** Every requirement set's checks are the tally; scenarios and checks per set are the note. */
function conformanceCounts(file) {
  return () => {
    const r = readJson(file);
    if (!r || !r.ran) return { passed: 0, failed: 1, skipped: 0, unit: "tests", note: `the suite could not run${r?.error ? `: ${r.error}` : ""}` };
    let passed = 0;
    let failed = 0;
    const notes = [];
    for (const [set, s] of Object.entries(r.sets)) {
      passed += s.total?.passed ?? 0;
      failed += s.total ? s.total.failed : 1;
      const ok = s.scenarios.filter((x) => x.ok).length;
      notes.push(`${set}: ${ok}/${s.scenarios.length} scenarios, ${s.total?.passed ?? "?"} checks passed, ${s.total?.failed ?? "?"} failed`);
    }
    return { passed, failed, skipped: 0, unit: "tests", note: notes.join("; ") };
  };
}

function playwrightCounts(file) {
  return () => {
    const r = readJson(file);
    if (!r) return { passed: 0, failed: 1, skipped: 0, unit: "tests" };
    return { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped, unit: "tests" };
  };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

checkNode();
ensureSystemPackages();
ensureDependencies();
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const vitest = (project) => [
  "vitest", "run", "--project", project, "--reporter=default", "--reporter=json",
  `--outputFile.json=${join(REPORTS, `${project}.json`)}`,
];

await together([
  ["type-check", "npm", ["run", "--silent", "check"]],
  ["lint", "npm", ["run", "--silent", "lint"]],
]);
stage("unit tests", "npx", vitest("unit"), vitestCounts(join(REPORTS, "unit.json")));
stage("integration tests (real nats-server)", "npx", vitest("integration"), vitestCounts(join(REPORTS, "integration.json")));
stage("integration tests run alone (restarts, timing)", "npx", vitest("integration-alone"), vitestCounts(join(REPORTS, "integration-alone.json")));
stage("build", "npm", ["run", "--silent", "build"]);
if (results.at(-1)?.ok) recordBuild();
stage("bundle budget", "node", ["scripts/budget.mjs"]);
stage("A2A TCK (v0.3 JSON-RPC, served agent)", "node", ["scripts/a2a-tck.mjs"], tckCounts(join(REPORTS, "a2a-tck.json")));
stage("MCP conformance (patchbay serve --http)", "node", ["scripts/mcp-conformance.mjs"], conformanceCounts(join(REPORTS, "mcp-conformance.json")));
// Five runs of the bulk-validation benchmark, each its own process, with throughput and the ratio
// to the JSON.parse + ajv floor: it fails when even the best run is over the 2x goal, or when any
// run breaks or its floor and pipeline disagree (see the script for why the best run).
stage("benchmark: bulk validation (gate: within 2x)", "node", ["scripts/validate-gate.mjs"]);
stage("benchmark: fisk-ai tool call", "node", ["bench/run.mjs", "fisk-tool-call"]);
stage("benchmark: MCP relay overhead", "node", ["bench/run.mjs", "mcp-relay"]);
stage("benchmark: MCP tool list render", "node", ["bench/run.mjs", "mcp-tool-list", "--build", "."]);
stage("benchmark: MCP serving", "node", ["bench/run.mjs", "serve-mcp"]);
stage("benchmark: fisk-ai serving over NATS", "node", ["bench/run.mjs", "serve-nats"]);
stage("benchmark: MCP bridge to a fisk-ai agent", "node", ["bench/run.mjs", "bridge"]);
stage("benchmark: A2A serving", "node", ["bench/run.mjs", "serve-a2a"]);
stage("end-to-end (Playwright, Chromium)", "npx", ["playwright", "test", "-c", "tests/e2e/playwright.config.ts"], playwrightCounts(join(REPORTS, "e2e.json")));

process.stdout.write("\n━━ summary ━━\n");
for (const r of results) {
  const figures = r.unit === "tests" ? `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} SKIPPED` : ""}` : r.ok ? "ok" : "FAILED";
  process.stdout.write(`${r.ok ? "✔" : "✘"} ${r.name.padEnd(40)} ${`${Math.round(r.seconds)} s`.padStart(6)}  ${figures}${r.note ? ` (${r.note})` : ""}\n`);
}
const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
if (total.skipped > 0) process.stdout.write(`WARNING: ${total.skipped} tests were skipped; see above for why.\n`);
const failedStages = results.filter((r) => !r.ok);
process.stdout.write(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}\n`);
process.exit(failedStages.length > 0 ? 1 : 0);
