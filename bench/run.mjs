#!/usr/bin/env node
/**
 * Runs a benchmark script from bench/ (TypeScript, loaded through Vite's module runner so it uses
 * the same sources as the app). Usage: node bench/run.mjs <name> [args...]
 * Each script measures against a baseline in the same process and prints ratios, not timings alone.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
const available = readdirSync(here).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, ""));
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: node bench/run.mjs <${available.join("|")}> [args...]\n`);
  process.exit(2);
}
const { module } = await runnerImport(join(here, `${name}.bench.ts`), { configFile: false, logLevel: "error" });
process.exitCode = await module.run(args);
