#!/usr/bin/env node
// The A2A TCK (0.3.x, JSON-RPC) against Patchbay's served demo agent: starts `patchbay serve --a2a
// --tck` (the behaviours the TCK documents for the agent it tests), runs the TCK's runner from
// ../shared/tools/a2a-tck for its mandatory tests and for mandatory + optional, and reads the
// figures from the JUnit XML. Fails when a mandatory test fails or errs, or none ran; optional
// failures are listed but do not fail (several are the TCK's own, see its README there).
// Writes .reports/a2a-tck.json for scripts/test.mjs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./bootstrap-lib.mjs";
import { loud, startServedAgent } from "./served-agent.mjs";

export const TCK_HOME = resolve(process.env.PATCHBAY_A2A_TCK ?? join(ROOT, "..", "shared", "tools", "a2a-tck"));
const RUNNER = join(TCK_HOME, "run.sh");
const REPORTS = join(ROOT, ".reports");
const OUT = join(REPORTS, "a2a-tck");
// Tasks are held while the TCK acts on them; room for its bursts keeps them from being refused as over the limit.
const CONCURRENCY = "16";

function writeReport(report) {
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(join(REPORTS, "a2a-tck.json"), `${JSON.stringify(report, null, 2)}\n`);
}

/** The figures of one pytest JUnit file: counts from the suites, and the failing test ids. */
export function readJunit(xml) {
  const sum = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const m of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    for (const key of Object.keys(sum)) sum[key] += Number(new RegExp(`\\b${key}="(\\d+)"`).exec(m[1])?.[1] ?? 0);
  }
  const failing = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    if (!/<(failure|error)\b/.test(m[2] ?? "")) continue;
    const attr = (name) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1])?.[1] ?? "";
    failing.push(`${attr("classname")}::${attr("name")}`);
  }
  return { ...sum, passed: sum.tests - sum.failures - sum.errors - sum.skipped, failing };
}

/** Whether the mandatory run fails the step: any failure or error, or nothing passed at all. */
export function mandatoryBroken(mandatory) {
  return mandatory.failures + mandatory.errors > 0 || mandatory.passed === 0;
}

async function main() {
  if (!existsSync(RUNNER)) {
    loud([
      `THE A2A TCK WAS NOT RUN: ${RUNNER} is missing.`,
      "It comes from the shared tools beside this clone (../shared/tools/a2a-tck);",
      "set PATCHBAY_A2A_TCK to its folder to run it from elsewhere.",
    ]);
    writeReport({ absent: true, runner: RUNNER });
    return 0;
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const agent = startServedAgent(["serve", "--a2a", "--tck", "--port", "0", "--concurrency", CONCURRENCY], /as an A2A agent .* at (http:\/\/127\.0\.0\.1:\d+)\n/);
  const tckDir = mkdtempSync(join(tmpdir(), "patchbay-a2a-tck-"));
  try {
    const base = await agent.url;
    process.stdout.write(`A2A TCK against ${base} (patchbay serve --a2a --tck)\n`);
    const res = spawnSync("bash", [RUNNER, base, "both"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, OUT_DIR: OUT, TCK_DIR: tckDir } });
    if (res.status === 2 || !existsSync(join(OUT, "mandatory.xml"))) {
      loud([`The A2A TCK could not run (exit ${res.status ?? res.signal}); see above and ${OUT}.`]);
      writeReport({ absent: false, ran: false });
      return 1;
    }
    const mandatory = readJunit(readFileSync(join(OUT, "mandatory.xml"), "utf8"));
    const all = existsSync(join(OUT, "all.xml")) ? readJunit(readFileSync(join(OUT, "all.xml"), "utf8")) : undefined;
    writeReport({ absent: false, ran: true, mandatory, all });
    process.stdout.write(`\nA2A TCK mandatory: ${mandatory.passed} passed, ${mandatory.failures} failed, ${mandatory.errors} errors, ${mandatory.skipped} skipped (of ${mandatory.tests})\n`);
    if (all) process.stdout.write(`A2A TCK mandatory + optional: ${all.passed} passed, ${all.failures} failed, ${all.errors} errors, ${all.skipped} skipped (of ${all.tests})\n`);
    for (const id of all?.failing ?? []) process.stdout.write(`  failed outside the mandatory set: ${id}\n`);
    const broken = mandatoryBroken(mandatory);
    if (broken) {
      loud([`A2A TCK MANDATORY TESTS FAILED: ${mandatory.failing.join(", ") || "none ran"}`, `logs: ${OUT}`]);
      process.stdout.write(`the agent's log:\n${agent.log().slice(-4000)}\n`);
    }
    return broken ? 1 : 0;
  } finally {
    agent.child.kill("SIGTERM");
    rmSync(tckDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      loud([`The A2A TCK step broke: ${error.message}`]);
      writeReport({ absent: false, ran: false, error: error.message });
      process.exit(1);
    },
  );
}
