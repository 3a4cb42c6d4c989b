#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against
// `patchbay serve --http`, once per requirement set: 2026-07-28 (the stateless era) and
// 2025-11-25 (the initialize era). The suite needs Node 22, found with `npx -y node@22`. Fails
// when a scenario or check fails (scored or not), or when a run ends without its summary.
// Writes .reports/mcp-conformance.json for scripts/test.mjs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./bootstrap-lib.mjs";
import { loud, startServedAgent } from "./served-agent.mjs";

export const REQUIREMENT_SETS = ["2026-07-28", "2025-11-25"];
const CLI = resolve(process.env.PATCHBAY_CONFORMANCE_JS ?? join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"));
const REPORTS = join(ROOT, ".reports");
const OUT = join(REPORTS, "mcp-conformance");
const RUN_TIMEOUT_MS = 10 * 60_000;

const ANSI = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;?]*[A-Za-z]`, "g");

/**
 * The figures of one run from the suite's output: each scenario's line after the last
 * `=== SUMMARY ===`, the `Total:` line, and how many scenarios it said it would run.
 */
export function readSummary(output) {
  const lines = output.replace(ANSI, "").split(/\r?\n/);
  const planned = Number(/^Running requirements \S+ \((\d+) scenarios?\)/m.exec(output.replace(ANSI, ""))?.[1] ?? NaN);
  const start = lines.lastIndexOf("=== SUMMARY ===");
  const scenarios = [];
  let total = null;
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const t = /^Total: (\d+) passed, (\d+) failed/.exec(line);
    if (t) {
      total = { passed: Number(t[1]), failed: Number(t[2]) };
      break;
    }
    const m = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed/u.exec(line);
    if (m) scenarios.push({ name: m[2], ok: m[1] === "✓" && m[4] === "0", passed: Number(m[3]), failed: Number(m[4]) });
  }
  return { planned: Number.isNaN(planned) ? null : planned, scenarios, total, failing: scenarios.filter((s) => !s.ok).map((s) => s.name) };
}

/** Whether a run fails the step: no summary, a failed check or scenario, or fewer scenarios than planned. */
export function runBroken(summary) {
  if (summary.total === null || summary.scenarios.length === 0) return true;
  if (summary.total.failed > 0 || summary.failing.length > 0) return true;
  return summary.planned !== null && summary.scenarios.length !== summary.planned;
}

function writeReport(report) {
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(join(REPORTS, "mcp-conformance.json"), `${JSON.stringify(report, null, 2)}\n`);
}

function node22() {
  const found = spawnSync("npx", ["-y", "node@22", "-p", "process.execPath"], { encoding: "utf8" });
  const path = (found.stdout ?? "").trim().split(/\r?\n/).at(-1) ?? "";
  if (found.status !== 0 || !isAbsolute(path) || !existsSync(path)) throw new Error(`\`npx -y node@22\` gave no Node 22 (exit ${found.status}): ${(found.stderr ?? "").slice(-500)}`);
  return path;
}

async function main() {
  if (!existsSync(CLI)) {
    loud([`THE MCP CONFORMANCE SUITE IS NOT INSTALLED: ${CLI} is missing.`, "Run `npm ci` (it is a devDependency), or set PATCHBAY_CONFORMANCE_JS."]);
    writeReport({ ran: false, error: `${CLI} is missing` });
    return 1;
  }
  rmSync(OUT, { recursive: true, force: true });
  const node = node22();
  const agent = startServedAgent(["serve", "--http", "--port", "0"], / at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
  try {
    const url = await agent.url;
    const sets = {};
    let broken = false;
    for (const set of REQUIREMENT_SETS) {
      process.stdout.write(`\nMCP conformance --requirements ${set} against ${url} (patchbay serve --http)\n`);
      const run = spawnSync(node, [CLI, "server", "--url", url, "--requirements", set, "-o", join(OUT, set)], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: RUN_TIMEOUT_MS,
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      });
      const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
      const summary = readSummary(output);
      process.stdout.write(output.slice(output.lastIndexOf("=== SUMMARY ===")));
      sets[set] = { exitCode: run.status, ...summary };
      if (runBroken(summary)) {
        broken = true;
        loud([`MCP CONFORMANCE ${set} FAILED: ${summary.failing.join(", ") || "the run ended without its summary"}`, `results: ${join(OUT, set)}`]);
      }
    }
    writeReport({ ran: true, url, sets });
    if (broken) process.stdout.write(`the agent's log:\n${agent.log().slice(-4000)}\n`);
    return broken ? 1 : 0;
  } finally {
    agent.child.kill("SIGTERM");
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      loud([`The MCP conformance step broke: ${error.message}`]);
      writeReport({ ran: false, error: error.message });
      process.exit(1);
    },
  );
}
