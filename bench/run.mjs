#!/usr/bin/env node
/**
 * Runs a benchmark script from bench/ (TypeScript, built from the same sources as the app).
 * Usage: node bench/run.mjs <name> [args...]
 * Each script measures against a baseline in the same process and prints ratios, not timings alone.
 *
 * CPU-bound benchmarks run as one bundle, as the app ships (the browser bundle, dist/server/cli.js):
 * Vite's module runner links every import through a getter, which made the validation pipeline
 * about a quarter slower than the same code bundled while the bench's own floor paid nothing.
 * The others stay in the module runner, which loads their lazily imported modules as they go.
 * PATCHBAY_BENCH_RUNNER=1 runs every benchmark in the module runner, to compare.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, createServer, createServerModuleRunner } from "vite";

const BUNDLED = new Set(["validate", "validate-parts"]);

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const [name, ...args] = process.argv.slice(2);
const available = readdirSync(here).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, ""));
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: node bench/run.mjs <${available.join("|")}> [args...]\n`);
  process.exit(2);
}
const entry = join(here, `${name}.bench.ts`);

async function runBundled() {
  // Inside node_modules, so the bundle's imports of packages resolve as the sources' do.
  const cache = join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, "patchbay-bench-"));
  try {
    await build({
      root,
      configFile: false,
      logLevel: "error",
      publicDir: false,
      ssr: { target: "node", external: true },
      build: { ssr: entry, outDir, target: "node20", minify: false, write: true, emptyOutDir: false, copyPublicDir: false, rollupOptions: { output: { format: "es", entryFileNames: "bench.mjs" } } },
    });
    const module = await import(pathToFileURL(join(outDir, "bench.mjs")).href);
    return await module.run(args);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function runInRunner() {
  // The runner stays open for the whole run: benchmarks import modules lazily (NATS transports do).
  const server = await createServer({ configFile: false, logLevel: "error", appType: "custom", server: { middlewareMode: true, hmr: false, ws: false } });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  try {
    const module = await runner.import(entry);
    return await module.run(args);
  } finally {
    await runner.close();
    await server.close();
  }
}

const bundled = BUNDLED.has(name) && process.env.PATCHBAY_BENCH_RUNNER !== "1";
process.exitCode = bundled ? await runBundled() : await runInRunner();
