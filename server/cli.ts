/**
 * The `patchbay` command line. `main` is exported for the bin bootstrap and for tests; this
 * module only runs itself when executed directly (`node dist/server/cli.js …`).
 */
import { realpathSync } from "node:fs";
import { homedir, networkInterfaces } from "node:os";
import type { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { ConfigError, parseStartConfig } from "./config.ts";
import { runStart } from "./cli/start.ts";
import { nodeExecutors } from "./harness/node-executors.ts";
import { entryPath, programName } from "./cli/program.ts";
import { callUsage, diffUsage, mainUsage, runUsage, serveUsage, startUsage, validateUsage } from "./cli/usage.ts";
import { lineLogger, type LogLevel } from "./log.ts";
import type { NatsServerOptions } from "./nats/managed-nats.ts";
import { findPackageRoot } from "./paths.ts";
import { VERSION } from "./version.ts";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly home: string;
  /** When given, `start` stops when it aborts; otherwise SIGINT/SIGTERM stop it. */
  readonly signal?: AbortSignal;
  /** Test hook: options for the managed nats-server. */
  readonly nats?: NatsServerOptions;
  /** Standard input as text, for `validate -`. */
  readonly stdin?: () => Promise<string>;
  /** The MCP streams of `serve --stdio`; the process's stdin and stdout by default. */
  readonly stdio?: { readonly input: Readable; readonly output: Writable };
  /** How help texts name this command (see program.ts); worked out from the process by default. */
  readonly program: string;
}

const HELP = new Set(["-h", "--help"]);

function defaultIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    home: homedir(),
    stdin: readStdin,
    program: programName(process.argv[1], process.cwd()),
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function validate(args: readonly string[], io: CliIo): Promise<number> {
  if (args.some((a) => HELP.has(a))) {
    io.stdout(validateUsage(io.program));
    return 0;
  }
  // The schema packs load only for this command, not for `start`.
  const { parseValidateArgs, runValidate, ValidateUsageError } = await import("./cli/validate.ts");
  try {
    const parsed = parseValidateArgs(args);
    return await runValidate(parsed, { stdout: io.stdout, stderr: io.stderr, cwd: io.cwd, now: Date.now, ...(io.stdin && { stdin: io.stdin }) });
  } catch (err) {
    if (err instanceof ValidateUsageError) return usageError(io, "patchbay validate", err.message, `${io.program} validate --help`);
    throw err;
  }
}

async function call(args: readonly string[], io: CliIo): Promise<number> {
  const [target, ...rest] = args;
  if (target === undefined || HELP.has(target) || rest.some((a) => HELP.has(a))) {
    io.stdout(callUsage(io.program));
    return 0;
  }
  if (target !== "mcp" && target !== "a2a" && target !== "nats") return usageError(io, "patchbay call", `unknown protocol '${target}' (call mcp, call a2a or call nats)`, `${io.program} call --help`);
  // Each protocol's client loads only for its own call; call-options.ts holds the usage error all three throw.
  const { CallUsageError } = await import("./cli/call-options.ts");
  const deps = (signal: AbortSignal) => ({ stdout: io.stdout, stderr: io.stderr, env: io.env, signal });
  let run: (signal: AbortSignal) => Promise<number>;
  try {
    if (target === "a2a") {
      const { parseCallA2aArgs, runCallA2a } = await import("./cli/call-a2a.ts");
      const parsed = parseCallA2aArgs(rest, io.env);
      run = (signal) => runCallA2a(parsed, deps(signal));
    } else if (target === "mcp") {
      const { parseCallMcpArgs, runCallMcp } = await import("./cli/call-mcp.ts");
      const parsed = parseCallMcpArgs(rest, io.env);
      run = (signal) => runCallMcp(parsed, deps(signal));
    } else {
      const { parseCallNatsArgs, runCallNats } = await import("./cli/call-nats.ts");
      const parsed = parseCallNatsArgs(rest, io.env);
      run = (signal) => runCallNats(parsed, deps(signal));
    }
  } catch (err) {
    if (err instanceof CallUsageError) return usageError(io, `patchbay call ${target}`, err.message, `${io.program} call --help`);
    throw err;
  }
  return io.signal ? run(io.signal) : withProcessSignals(run);
}

function logLevel(io: CliIo): LogLevel {
  const level = (io.env.PATCHBAY_LOG_LEVEL ?? "info") as LogLevel;
  return ["debug", "info", "warn", "error"].includes(level) ? level : "info";
}

async function serve(args: readonly string[], io: CliIo): Promise<number> {
  if (args.some((a) => HELP.has(a))) {
    io.stdout(serveUsage(io.program, entryPath(process.argv[1])));
    return 0;
  }
  // The MCP SDK and ajv load only for this command, not for `start`.
  const { parseServeArgs, runServe, ServeUsageError } = await import("./cli/serve.ts");
  let parsed;
  try {
    parsed = parseServeArgs(args, io.env);
  } catch (err) {
    if (err instanceof ServeUsageError) return usageError(io, "patchbay serve", err.message, `${io.program} serve --help`);
    throw err;
  }
  // Logs go to stderr: with --stdio, stdout carries MCP messages only.
  const logger = lineLogger(io.stderr, logLevel(io));
  const run = (signal: AbortSignal) =>
    runServe(parsed, { stdout: io.stdout, stderr: io.stderr, logger, signal, cwd: io.cwd, ...(io.stdio ? { stdio: io.stdio } : {}) });
  return io.signal ? run(io.signal) : withProcessSignals(run);
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info ? [info.address] : []));
}

function usageError(io: CliIo, scope: string, message: string, help: string): number {
  io.stderr(`${scope}: ${message}. Run '${help}' for usage.\n`);
  return 2;
}

async function diff(args: readonly string[], io: CliIo): Promise<number> {
  if (args.some((a) => HELP.has(a))) {
    io.stdout(diffUsage(io.program));
    return 0;
  }
  const { parseDiffArgs, runDiff } = await import("./cli/diff.ts");
  const { CallUsageError } = await import("./cli/call-options.ts");
  try {
    return await runDiff(parseDiffArgs(args), { stdout: io.stdout, stderr: io.stderr, cwd: io.cwd, ...(io.stdin && { stdin: io.stdin }) });
  } catch (err) {
    if (err instanceof CallUsageError) return usageError(io, "patchbay diff", err.message, `${io.program} diff --help`);
    throw err;
  }
}

async function runCommand(args: readonly string[], io: CliIo): Promise<number> {
  if (args.some((a) => HELP.has(a))) {
    io.stdout(runUsage(io.program));
    return 0;
  }
  // The runner and each protocol's client load only for this command, not for `start`.
  const { parseRunArgs, runRun } = await import("./cli/run.ts");
  const { CallUsageError } = await import("./cli/call-options.ts");
  let parsed;
  try {
    parsed = parseRunArgs(args, io.env.PATCHBAY_WORKSPACE?.trim() || `${io.home}/.patchbay`);
  } catch (err) {
    if (err instanceof CallUsageError) return usageError(io, "patchbay run", err.message, `${io.program} run --help`);
    throw err;
  }
  // The executors load each protocol's client only when a step of it runs.
  const run = (signal: AbortSignal) => runRun(parsed, { stdout: io.stdout, stderr: io.stderr, env: io.env, cwd: io.cwd, signal, program: io.program, executors: async () => nodeExecutors() });
  return io.signal ? run(io.signal) : withProcessSignals(run);
}

/** Wire SIGINT/SIGTERM to an AbortSignal for the duration of `run`. */
async function withProcessSignals(run: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    return await run(controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

async function start(args: readonly string[], io: CliIo): Promise<number> {
  if (args.some((a) => HELP.has(a))) {
    io.stdout(startUsage(io.program));
    return 0;
  }
  let config;
  try {
    config = parseStartConfig(args, { env: io.env, home: io.home, cwd: io.cwd, packageRoot: findPackageRoot });
  } catch (err) {
    if (err instanceof ConfigError) return usageError(io, "patchbay start", err.message, `${io.program} start --help`);
    throw err;
  }
  const logger = lineLogger(io.stderr, logLevel(io));
  const run = (signal: AbortSignal) =>
    runStart(config, {
      stdout: io.stdout,
      stderr: io.stderr,
      logger,
      signal,
      interfaceAddresses,
      ...(io.nats ? { nats: io.nats } : {}),
    });
  return io.signal ? run(io.signal) : withProcessSignals(run);
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || HELP.has(command)) {
    io.stdout(mainUsage(io.program));
    return 0;
  }
  if (command === "-v" || command === "--version") {
    io.stdout(`patchbay ${VERSION}\n`);
    return 0;
  }
  if (command === "help") {
    const topic = rest[0];
    if (topic === undefined) io.stdout(mainUsage(io.program));
    else if (topic === "start") io.stdout(startUsage(io.program));
    else if (topic === "validate") io.stdout(validateUsage(io.program));
    else if (topic === "serve") io.stdout(serveUsage(io.program, entryPath(process.argv[1])));
    else if (topic === "call") io.stdout(callUsage(io.program));
    else if (topic === "run") io.stdout(runUsage(io.program));
    else if (topic === "diff") io.stdout(diffUsage(io.program));
    else return usageError(io, "patchbay", `unknown command '${topic}'`, `${io.program} --help`);
    return 0;
  }
  if (command === "start") return start(rest, io);
  if (command === "validate") return validate(rest, io);
  if (command === "serve") return serve(rest, io);
  if (command === "call") return call(rest, io);
  if (command === "run") return runCommand(rest, io);
  if (command === "diff") return diff(rest, io);
  if (command.startsWith("-")) return usageError(io, "patchbay", `unknown option '${command}'`, `${io.program} --help`);
  return usageError(io, "patchbay", `unknown command '${command}'`, `${io.program} --help`);
}

/**
 * Run the CLI and resolve with its exit code. Called without `io` it talks to the real process
 * and also sets `process.exitCode`.
 */
export async function main(argv: readonly string[], io?: Partial<CliIo>): Promise<number> {
  const base = defaultIo();
  const full: CliIo = { ...base, ...io, program: io?.program ?? (io?.cwd ? programName(process.argv[1], io.cwd) : base.program) };
  let code: number;
  try {
    code = await dispatch(argv, full);
  } catch (err) {
    full.stderr(`patchbay: ${(err as Error).message}\n`);
    code = 1;
  }
  if (io === undefined) process.exitCode = code;
  return code;
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) void main(process.argv.slice(2));
