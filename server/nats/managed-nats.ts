/**
 * Starts a private nats-server for Patchbay (and for the test suites): free loopback ports for
 * clients, WebSocket and monitoring, a config file in a temp folder, and a health check before
 * anyone is told the URLs. `stop()` leaves nothing behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findExecutable, NATS_SERVER_DIRS } from "./find-binary.ts";

import { freePorts } from "./free-port.ts";
import { guardChild } from "./watchdog.ts";

export interface NatsServerOptions {
  /** Use this binary instead of searching PATH and the system folders. */
  readonly binary?: string;
  /** The PATH to search; defaults to this process's PATH. */
  readonly pathEnv?: string;
  /** Folders searched after PATH; defaults to NATS_SERVER_DIRS. */
  readonly searchDirs?: readonly string[];
  /** How long to wait for /healthz; default 10 s. */
  readonly startTimeoutMs?: number;
  /** Browser origins allowed on the WebSocket port; none means any. */
  readonly allowedOrigins?: readonly string[];
  /** Extra config appended verbatim (e.g. an authorization block for a test). */
  readonly extraConfig?: string;
  /** Start attempts when a picked port was taken in the meantime; default 3. */
  readonly attempts?: number;
  /** Fixed ports (a cluster's nodes are given theirs); free ones are picked otherwise. */
  readonly ports?: NatsPorts;
  /** A WebSocket listener for browsers; default true. */
  readonly websocket?: boolean;
  /** `server_name`: how the node names itself to clients (INFO) and in a cluster. */
  readonly serverName?: string;
  /** Join a cluster: this node's route port comes from `ports.cluster`, the others' from `routes`. */
  readonly cluster?: { readonly name: string; readonly routes: readonly number[] };
}

export interface NatsPorts {
  readonly client: number;
  readonly ws: number;
  readonly monitor: number;
  readonly cluster?: number;
}

export interface ManagedNats {
  /** For TCP clients: nats://127.0.0.1:<port>. */
  readonly url: string;
  /** For browsers: ws://127.0.0.1:<port>. */
  readonly wsUrl: string;
  /** Monitoring endpoint base, e.g. http://127.0.0.1:<port> (/healthz, /varz, /connz). */
  readonly monitorUrl: string;
  readonly pid: number;
  /** The generated config file (inside a temp folder that stop() removes). */
  readonly configPath: string;
  readonly ports: NatsPorts;
  /** Takes the server down (SIGTERM, or SIGKILL for a crash) and keeps its config to come back. */
  down(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** Starts it again on the same ports and waits until it is healthy. */
  up(): Promise<void>;
  /** Kill the server, wait for it to exit and remove its temp folder. Safe to call twice. */
  stop(): Promise<void>;
}

export type NatsStartResult =
  | { readonly ok: true; readonly server: ManagedNats }
  | { readonly ok: false; readonly reason: "missing"; readonly message: string };

/** nats-server was found but did not come up; `stderr` holds what it said. */
export class NatsStartError extends Error {
  override readonly name = "NatsStartError";
  readonly stderr: string;
  constructor(message: string, stderr: string) {
    super(message);
    this.stderr = stderr;
  }
}

/** The one-line hint when the binary is missing, naming where it was looked for. */
export function missingNatsMessage(searchDirs: readonly string[] = NATS_SERVER_DIRS): string {
  const where = ["PATH", ...searchDirs].join(", ");
  return `nats-server not found on ${where}; install it with 'sudo apt-get install nats-server' (or set NATS_URL to use a running server)`;
}

const STDERR_KEEP = 8192;

/** The nats-server config for these ports. */
export function natsConfig(ports: NatsPorts, options: NatsServerOptions = {}): string {
  const origins = options.allowedOrigins ?? [];
  const cluster = options.cluster;
  const lines = [
    ...(options.serverName ? [`server_name: ${JSON.stringify(options.serverName)}`] : []),
    `listen: 127.0.0.1:${ports.client}`,
    `http: 127.0.0.1:${ports.monitor}`,
    ...(options.websocket === false
      ? []
      : [
          "websocket {",
          `  listen: "127.0.0.1:${ports.ws}"`,
          "  no_tls: true",
          ...(origins.length > 0 ? [`  allowed_origins: [${origins.map((o) => JSON.stringify(o)).join(", ")}]`] : []),
          "}",
        ]),
    ...(cluster && ports.cluster !== undefined
      ? [
          "cluster {",
          `  name: ${JSON.stringify(cluster.name)}`,
          `  listen: "127.0.0.1:${ports.cluster}"`,
          `  routes: [${cluster.routes.map((p) => JSON.stringify(`nats-route://127.0.0.1:${p}`)).join(", ")}]`,
          "}",
        ]
      : []),
    options.extraConfig ?? "",
  ];
  return `${lines.join("\n")}\n`;
}

function healthy(monitorUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(`${monitorUrl}/healthz`, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  if (!(await waitForExit(child, 5000))) {
    child.kill("SIGKILL");
    await waitForExit(child, 5000);
  }
}

type Attempt = { ok: true; server: ManagedNats } | { ok: false; portTaken: boolean; error: NatsStartError };

interface Running {
  readonly child: ChildProcess;
  readonly stderr: () => string;
  readonly spawnError: () => Error | undefined;
  readonly release: () => void;
}

/** Spawns nats-server on a config file, guarded so it never outlives this process. */
function spawnServer(binary: string, configPath: string): Running {
  const child = spawn(binary, ["-c", configPath], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEEP);
  });
  let spawnError: Error | undefined;
  child.once("error", (err) => (spawnError = err));
  // Don't leave an orphan if this process exits, or is killed, without calling stop().
  const onExit = () => child.kill("SIGKILL");
  process.once("exit", onExit);
  const watchdog = child.pid === undefined ? undefined : guardChild(child.pid);
  const release = () => {
    process.off("exit", onExit);
    watchdog?.release();
  };
  return { child, stderr: () => stderr, spawnError: () => spawnError, release };
}

/** Waits for /healthz; the failure message, or null once healthy. */
async function untilHealthy(binary: string, run: Running, monitorUrl: string, timeoutMs: number): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const err = run.spawnError();
    if (err) return `could not run ${binary}: ${err.message}`;
    if (run.child.exitCode !== null || run.child.signalCode !== null) return `nats-server exited (${run.child.exitCode ?? run.child.signalCode}) before it was healthy`;
    if (await healthy(monitorUrl)) return null;
    if (Date.now() > deadline) return `nats-server was not healthy within ${timeoutMs} ms`;
    await sleep(50);
  }
}

const failure = (message: string, stderr: string): { portTaken: boolean; error: NatsStartError } => {
  const detail = stderr.trim() ? `: ${stderr.trim().split("\n").slice(-5).join(" | ")}` : "";
  return { portTaken: /address already in use/i.test(stderr), error: new NatsStartError(`${message}${detail}`, stderr) };
};

async function attempt(binary: string, options: NatsServerOptions): Promise<Attempt> {
  const free = async (): Promise<NatsPorts> => {
    const [client, ws, monitor] = (await freePorts(3)) as [number, number, number];
    return { client, ws, monitor };
  };
  const picked: NatsPorts = options.ports ?? (await free());
  const dir = await mkdtemp(join(tmpdir(), "patchbay-nats-"));
  const configPath = join(dir, "nats.conf");
  await writeFile(configPath, natsConfig(picked, options), { mode: 0o600 });
  const monitorUrl = `http://127.0.0.1:${picked.monitor}`;
  const timeoutMs = options.startTimeoutMs ?? 10_000;
  let run = spawnServer(binary, configPath);
  const problem = await untilHealthy(binary, run, monitorUrl, timeoutMs);
  if (problem) {
    run.release();
    await kill(run.child);
    await rm(dir, { recursive: true, force: true });
    return { ok: false, ...failure(problem, run.stderr()) };
  }

  let stopping: Promise<void> | undefined;
  let isDown = false;
  const down = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> => {
    if (isDown) return;
    isDown = true;
    run.release();
    if (signal === "SIGKILL") {
      run.child.kill("SIGKILL");
      await waitForExit(run.child, 5000);
    } else await kill(run.child);
  };
  const up = async (): Promise<void> => {
    if (!isDown) return;
    // The ports were this server's a moment ago; one freed by the kernel late is tried again.
    for (let i = 0; ; i++) {
      run = spawnServer(binary, configPath);
      const again = await untilHealthy(binary, run, monitorUrl, timeoutMs);
      if (!again) break;
      run.release();
      await kill(run.child);
      const why = failure(again, run.stderr());
      if (!why.portTaken || i >= 20) throw why.error;
      await sleep(100);
    }
    isDown = false;
  };
  const server: ManagedNats = {
    url: `nats://127.0.0.1:${picked.client}`,
    wsUrl: `ws://127.0.0.1:${picked.ws}`,
    monitorUrl,
    get pid() {
      return run.child.pid ?? -1;
    },
    configPath,
    ports: picked,
    down,
    up,
    stop() {
      stopping ??= (async () => {
        run.release();
        await kill(run.child);
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
  return { ok: true, server };
}

/**
 * Find and start nats-server. A missing binary is an expected outcome (a typed result with a
 * one-line install hint); a binary that will not start throws NatsStartError with its stderr.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsStartResult> {
  const binary =
    options.binary ?? (await findExecutable("nats-server", options.pathEnv ?? process.env.PATH, options.searchDirs));
  if (binary === null) return { ok: false, reason: "missing", message: missingNatsMessage(options.searchDirs) };
  const attempts = Math.max(1, options.attempts ?? 3);
  let last: NatsStartError | undefined;
  for (let i = 0; i < attempts; i++) {
    const result = await attempt(binary, options);
    if (result.ok) return result;
    last = result.error;
    // Fixed ports taken are not freed by trying again at once.
    if (!result.portTaken || options.ports) break;
  }
  throw last ?? new NatsStartError("nats-server did not start", "");
}
