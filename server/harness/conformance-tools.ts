/**
 * Where the two conformance tools are and how each is started: the MCP conformance suite (a
 * devDependency, run under Node 22 because it calls fs.globSync) and the A2A TCK's runner from
 * the shared tools beside the clone. A missing prerequisite is a 503 naming it and how to get it.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { McpRequirements, TckScope } from "../../src/core/harness/conformance-run-types.ts";
import { HttpError } from "../http/errors.ts";
import { findPackageRoot } from "../paths.ts";

export type { TckScope };

export interface ToolPaths {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  /** The running Node's major version: 22 or later runs the suite directly, older ones via npx. */
  readonly nodeMajor: number;
  readonly execPath: string;
}

export interface Launch {
  /** Null: the path `findNode` prints. */
  readonly command: string | null;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /**
   * Run first, on a Node older than 22: `npx -y node@22` (which fetches Node 22 the first time)
   * prints its binary's path, and the suite then runs on it directly. npm's exec would hand the
   * URL to a shell; this way no user input reaches one.
   */
  readonly findNode?: { readonly command: string; readonly args: readonly string[] };
}

const CONFORMANCE_PACKAGE = "@modelcontextprotocol/conformance";
/** The TCK runner's Python modules (what run.sh checks), with the Debian package giving each. */
const TCK_MODULES: Readonly<Record<string, string>> = {
  pytest: "python3-pytest",
  pytest_asyncio: "python3-pytest-asyncio",
  httpx: "python3-httpx",
  requests: "python3-requests",
  dotenv: "python3-dotenv",
  OpenSSL: "python3-openssl",
  aiohttp: "python3-aiohttp",
  responses: "python3-responses",
  yaml: "python3-yaml",
  jsonschema: "python3-jsonschema",
  deepdiff: "python3-deepdiff",
};
const PYTHON_CHECK_MS = 20_000;

/** This process's view: the clone it runs from, its environment and its Node. */
export function processToolPaths(): ToolPaths {
  return { root: findPackageRoot(), env: process.env, nodeMajor: Number(process.versions.node.split(".")[0]), execPath: process.execPath };
}

const unavailable = (code: string, message: string) => new HttpError(503, code, message);

export function conformanceCli(paths: ToolPaths): string {
  return resolve(paths.env.PATCHBAY_CONFORMANCE_JS ?? join(paths.root, "node_modules", CONFORMANCE_PACKAGE, "dist", "index.js"));
}

/** The folder holding the TCK's run.sh: PATCHBAY_A2A_TCK, else ../shared/tools/a2a-tck beside the clone. */
export function tckHome(paths: ToolPaths): string {
  return resolve(paths.env.PATCHBAY_A2A_TCK ?? join(paths.root, "..", "shared", "tools", "a2a-tck"));
}

/** The Python run.sh uses (its PYTHON, else Debian's). */
export function tckPython(paths: ToolPaths): string {
  return paths.env.PYTHON ?? "/usr/bin/python3";
}

/** How to run the suite's `requirements` set against `url`, writing each scenario's checks.json under `outDir`. */
export function mcpLaunch(paths: ToolPaths, url: string, outDir: string, requirements: McpRequirements): Launch {
  const cli = conformanceCli(paths);
  if (!existsSync(cli)) {
    throw unavailable(
      "conformance_missing",
      `the MCP conformance suite is not installed: ${cli} is missing. Run \`npm install\` in ${paths.root} (it is the devDependency ${CONFORMANCE_PACKAGE}), or set PATCHBAY_CONFORMANCE_JS to the suite's dist/index.js.`,
    );
  }
  const suite = [cli, "server", "--url", url, "--requirements", requirements, "-o", outDir];
  const env = { ...paths.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  if (paths.nodeMajor >= 22) return { command: paths.execPath, args: suite, env };
  return { command: null, args: suite, env, findNode: { command: "npx", args: ["-y", "node@22", "-p", "process.execPath"] } };
}

/** Names the Python modules `python` cannot import (empty when all are there); rejects when it cannot run. */
function missingModules(python: string, modules: readonly string[]): Promise<string[]> {
  const probe = "import importlib.util, sys\nprint(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))";
  return new Promise((done, fail) => {
    const child = spawn(python, ["-c", probe, ...modules], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), PYTHON_CHECK_MS);
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.once("error", (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code === 0) done(out.trim().split(/\s+/).filter(Boolean));
      else fail(new Error(`exit ${code ?? "on a signal"}: ${err.trim().slice(-500)}`));
    });
  });
}

/** How to run the TCK's runner against `target`; checks the folder, Python and its packages first. */
export async function tckLaunch(paths: ToolPaths, target: string, scope: TckScope, outDir: string, tckDir: string): Promise<Launch> {
  const home = tckHome(paths);
  const runner = join(home, "run.sh");
  if (!existsSync(runner)) {
    throw unavailable(
      "tck_missing",
      `the A2A TCK is not here: ${runner} is missing. It comes from the shared tools beside this clone (../shared/tools/a2a-tck, with run.sh and the TCK's archive); set PATCHBAY_A2A_TCK to that folder to use it from elsewhere.`,
    );
  }
  const python = tckPython(paths);
  const install = (pkgs: readonly string[]) => `apt-get install -y ${pkgs.join(" ")}`;
  let missing: string[];
  try {
    missing = await missingModules(python, Object.keys(TCK_MODULES));
  } catch (err) {
    throw unavailable(
      "python_missing",
      `the A2A TCK runs on ${python}, which could not be run (${(err as Error).message}). Install Debian's python3 and the TCK's packages (${install(["python3", ...Object.values(TCK_MODULES)])}), or set PYTHON to a python3 that has them.`,
    );
  }
  if (missing.length > 0) {
    const pkgs = missing.map((m) => TCK_MODULES[m] ?? m);
    throw unavailable("python_packages_missing", `${python} lacks the Python modules the A2A TCK needs: ${missing.join(", ")}. Install them with: ${install(pkgs)}`);
  }
  return { command: "bash", args: [runner, target, scope], env: { ...paths.env, OUT_DIR: outDir, TCK_DIR: tckDir, PYTHON: python } };
}
