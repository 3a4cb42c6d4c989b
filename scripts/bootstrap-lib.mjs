// Dependency-free helpers shared by `npm start` (bin/patchbay.mjs) and `npm test` (scripts/test.mjs):
// install dependencies and rebuild only when they are missing or stale.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEPS_STAMP = join(ROOT, "node_modules/.patchbay-deps");
const BUILD_STAMP = join(ROOT, "dist/.patchbay-build");
const BUILD_INPUTS = ["src", "server", "public", "tools", "package-lock.json", "vite.config.ts", "vite.server.config.ts", "svelte.config.js"];
const MIN_NODE = [20, 19];

export function say(message) {
  process.stderr.write(`patchbay: ${message}\n`);
}

export function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    say(`Node ${MIN_NODE.join(".")} or newer is needed; this is ${process.versions.node}.`);
    process.exit(1);
  }
}

function sha(text) {
  return createHash("sha256").update(text).digest("hex");
}

function readOr(path, fallback) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return fallback;
  }
}

/**
 * Run a command in the project root; exit with its code when it fails. Its output goes to our
 * stderr, so a command whose stdout is data (`patchbay validate --json`) stays clean even when
 * it first has to install or build.
 */
export function run(command, args, options = {}) {
  const res = spawnSync(command, args, { cwd: ROOT, stdio: ["inherit", 2, 2], ...options });
  if (res.error) {
    say(`could not run ${command}: ${res.error.message}`);
    process.exit(1);
  }
  if (res.status !== 0) {
    say(`${command} ${args.join(" ")} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
}

/** `npm ci` when node_modules is missing or was installed from another lockfile. */
export function ensureDependencies() {
  const lock = readOr(join(ROOT, "package-lock.json"), null);
  if (lock === null) {
    say("package-lock.json is missing; cannot install reproducibly.");
    process.exit(1);
  }
  const want = sha(lock + process.versions.node);
  if (existsSync(join(ROOT, "node_modules")) && readOr(DEPS_STAMP, "") === want) return false;
  say("installing dependencies (npm ci)…");
  run("npm", ["ci", "--no-audit", "--no-fund"]);
  writeFileSync(DEPS_STAMP, want);
  return true;
}

function fingerprint(path, parts) {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      fingerprint(join(path, name), parts);
    }
  } else if (!/\.test\.ts$/.test(path)) {
    parts.push(`${path.slice(ROOT.length)}:${st.size}:${Math.trunc(st.mtimeMs)}`);
  }
}

function buildFingerprint() {
  const parts = [];
  for (const input of BUILD_INPUTS) fingerprint(join(ROOT, input), parts);
  return sha(parts.join("\n"));
}

/** Note that dist/ matches the current sources, so `npm start` does not build them again. */
export function recordBuild() {
  mkdirSync(dirname(BUILD_STAMP), { recursive: true });
  writeFileSync(BUILD_STAMP, buildFingerprint());
}

/** `npm run build` when the built SPA or server is missing or older than its sources. */
export function ensureBuild() {
  const built = existsSync(join(ROOT, "dist/client/index.html")) && existsSync(join(ROOT, "dist/server/cli.js"));
  if (built && readOr(BUILD_STAMP, "") === buildFingerprint()) return false;
  say("building the app (vite build)…");
  run("npm", ["run", "--silent", "build"]);
  recordBuild();
  return true;
}
