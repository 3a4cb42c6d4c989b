/**
 * Real `patchbay serve --nats` processes for the integration tier and the benchmarks: the CLI is
 * built once into a temp folder laid out as the package (dist/server beside package.json and
 * node_modules), then each instance runs as its own Node process, so killing one kills a real
 * serving process with real sockets.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const repo = fileURLToPath(new URL("../..", import.meta.url));

export interface BuiltCli {
  /** dist/server/cli.js of the build. */
  readonly cli: string;
  readonly dir: string;
  remove(): Promise<void>;
}

/** Builds the backend bundle (about 5 s) into a temp folder. */
export async function buildCli(): Promise<BuiltCli> {
  const dir = await mkdtemp(join(tmpdir(), "patchbay-cli-"));
  await symlink(join(repo, "node_modules"), join(dir, "node_modules"), "dir");
  await copyFile(join(repo, "package.json"), join(dir, "package.json"));
  await build({ configFile: join(repo, "vite.server.config.ts"), logLevel: "silent", build: { outDir: join(dir, "dist/server") } });
  return { cli: join(dir, "dist/server/cli.js"), dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The instance name it printed. */
  readonly instance: string;
  /** The "Serving …" line. */
  readonly banner: string;
  stdout(): string;
  stderr(): string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line matching `pattern` printed after `from` characters of output. */
  waitFor(pattern: RegExp, timeoutMs: number, from?: number): Promise<RegExpExecArray>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const BANNER = /^Serving (\S+) \(instance (\S+)\) over NATS on .*$/m;

/** Starts `serve --nats` with `args` and waits for its banner. */
export async function startServeProcess(built: BuiltCli, args: readonly string[], env: Record<string, string> = {}, timeoutMs = 20_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [built.cli, "serve", "--nats", ...args], {
    cwd: built.dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NATS_URL: "", PATCHBAY_LOG_LEVEL: "warn", ...env },
  });
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) w();
  });
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const waitFor = (pattern: RegExp, ms: number, from = 0): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const re = new RegExp(pattern.source, pattern.flags.includes("m") ? pattern.flags : `${pattern.flags}m`);
        const found = re.exec(out.slice(from));
        if (!found) return false;
        done();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => (done(), reject(new Error(`no ${pattern} within ${ms} ms; stdout: ${out}; stderr: ${err}`))), ms);
      const onExit = () => (done(), reject(new Error(`the serve process exited before ${pattern}; stdout: ${out}; stderr: ${err}`)));
      const done = () => {
        clearTimeout(timer);
        waiters.delete(waiter);
        child.off("exit", onExit);
      };
      const waiter = () => void check();
      if (check()) return;
      waiters.add(waiter);
      child.once("exit", onExit);
    });
  let banner: RegExpExecArray;
  try {
    banner = await waitFor(BANNER, timeoutMs);
  } catch (e) {
    child.kill("SIGKILL");
    throw e;
  }
  return {
    child,
    instance: banner[2]!,
    banner: banner[0],
    stdout: () => out,
    stderr: () => err,
    exit,
    waitFor,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
