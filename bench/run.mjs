#!/usr/bin/env node
/**
 * Runs a benchmark script from bench/ (TypeScript, loaded through Vite's module runner so it uses
 * the same sources as the app). Usage: node bench/run.mjs <name> [args...]
 * Each script measures against a baseline in the same process and prints ratios, not timings alone.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, createServerModuleRunner } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
const available = readdirSync(here).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, ""));
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: node bench/run.mjs <${available.join("|")}> [args...]\n`);
  process.exit(2);
}
// The runner stays open for the whole run: benchmarks import modules lazily (NATS transports do).
const server = await createServer({ configFile: false, logLevel: "error", appType: "custom", server: { middlewareMode: true, hmr: false, ws: false } });
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  const module = await runner.import(join(here, `${name}.bench.ts`));
  process.exitCode = await module.run(args);
} finally {
  await runner.close();
  await server.close();
}
