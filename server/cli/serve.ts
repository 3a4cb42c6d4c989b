/**
 * `patchbay serve`: a toolkit (or the demo agent) served to MCP clients over stdio or Streamable
 * HTTP, as an A2A agent over HTTP, or as a fisk-ai agent over NATS.
 */
import { randomFillSync } from "node:crypto";
import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Logger } from "../../src/core/env/environment.ts";
import { systemScheduler } from "../../src/core/env/scheduler.ts";
import type { A2aConfirm } from "../../src/core/serving/a2a/index.ts";
import type { ConfirmMode } from "../../src/core/serving/confirm-gate.ts";
import type { FiskBridge } from "../../src/core/serving/bridge/fisk-bridge.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { serveStdio } from "../../src/core/serving/mcp/node/stdio.ts";
import { createServingContext } from "../../src/core/serving/mcp/serving-context.ts";
import { nodeCommandRunner } from "../../src/core/serving/node/command-runner.ts";
import { MAX_TOOL_TIMEOUT_MS, type Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { startMcpServing } from "../serving/mcp-engine.ts";
import { DEFAULT_A2A_PORT } from "../serving/a2a-routes.ts";
import { runA2aServe } from "./serve-a2a.ts";
import { NATS_ONLY_FLAGS, NatsArgsError, readNatsArgs, type NatsServeArgs } from "./serve-nats-args.ts";
import { BRIDGE_FLAGS, readBridgeArgs, type BridgeArgs } from "./serve-bridge-args.ts";
import { DEFAULT_SERVE_PORT, MAX_CONCURRENCY } from "../serving/start-options.ts";
import { readToolkitFile } from "../serving/toolkit-file.ts";
import { VERSION } from "../version.ts";

/** A command-line mistake: exit 2 with the message. */
export class ServeUsageError extends Error {}

/** The modes that work without the console; `operator` needs someone at the Serve workbench. */
const CLI_CONFIRM_MODES: readonly ConfirmMode[] = ["auto", "always", "never"];
/** Over A2A a confirm-gated tool is left out, or kept and asked about in its task. */
const A2A_CONFIRM_MODES: readonly A2aConfirm[] = ["omit", "ask"];

export interface ServeArgs {
  readonly mode: "stdio" | "http" | "a2a" | "nats";
  readonly port: number;
  readonly toolkitPath?: string;
  readonly confirmMode?: ConfirmMode;
  readonly a2aConfirm?: A2aConfirm;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly fixtures?: boolean;
  /** --a2a: the behaviours the A2A TCK documents for the agent it tests. */
  readonly tck?: boolean;
  /** --a2a: the tool a text-only message runs. */
  readonly defaultSkill?: string;
  /** --nats: servers, identity, instance and credentials. */
  readonly nats?: NatsServeArgs;
  /** --http/--stdio --bridge: fisk-ai agents whose tools are served too, and the NATS to reach them on. */
  readonly bridge?: BridgeArgs;
}

export interface ServeDeps {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly logger: Logger;
  /** Stops serving when aborted (SIGINT/SIGTERM in the real CLI). */
  readonly signal: AbortSignal;
  readonly cwd: string;
  /** The MCP streams for --stdio; the process's own by default. */
  readonly stdio?: { readonly input: Readable; readonly output: Writable };
}

function whole(value: string | undefined, flag: string, min: number, max: number): number {
  if (value === undefined) throw new ServeUsageError(`${flag} needs a value`);
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new ServeUsageError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function confirmOf(mode: ServeArgs["mode"], value: string | undefined): Pick<ServeArgs, "confirmMode" | "a2aConfirm"> {
  if (value === undefined) return {};
  if (mode === "a2a") {
    if (!A2A_CONFIRM_MODES.includes(value as A2aConfirm)) throw new ServeUsageError(`--confirm with --a2a must be one of ${A2A_CONFIRM_MODES.join(", ")}`);
    return { a2aConfirm: value as A2aConfirm };
  }
  if (value === "operator") {
    throw new ServeUsageError(
      "--confirm operator needs the Patchbay console to approve each call, and 'patchbay serve' has none; start the agent from the Serve workbench ('patchbay start') for that, or choose auto, always or never",
    );
  }
  if (!CLI_CONFIRM_MODES.includes(value as ConfirmMode)) throw new ServeUsageError(`--confirm must be one of ${CLI_CONFIRM_MODES.join(", ")}`);
  return { confirmMode: value as ConfirmMode };
}

export function parseServeArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ServeArgs {
  let mode: ServeArgs["mode"] | undefined;
  let port: number | undefined;
  let toolkitPath: string | undefined;
  let confirm: string | undefined;
  let confirmGiven = false;
  let concurrency: number | undefined;
  let timeoutMs: number | undefined;
  let fixtures: boolean | undefined;
  let tck = false;
  let defaultSkill: string | undefined;
  const natsPairs: [string, string | undefined][] = [];
  const bridgePairs: [string, string | undefined][] = [];
  const setMode = (next: ServeArgs["mode"]) => {
    if (mode !== undefined && mode !== next) throw new ServeUsageError("choose one of --stdio, --http, --a2a and --nats");
    mode = next;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--stdio") setMode("stdio");
    else if (arg === "--http") setMode("http");
    else if (arg === "--a2a") setMode("a2a");
    else if (arg === "--nats") setMode("nats");
    else if (NATS_ONLY_FLAGS.has(arg)) natsPairs.push([arg, args[++i]]);
    else if (BRIDGE_FLAGS.has(arg)) bridgePairs.push([arg, args[++i]]);
    else if (arg === "--port") port = whole(args[++i], "--port", 0, 65_535);
    else if (arg === "--concurrency") concurrency = whole(args[++i], "--concurrency", 1, MAX_CONCURRENCY);
    else if (arg === "--timeout") timeoutMs = whole(args[++i], "--timeout", 1, MAX_TOOL_TIMEOUT_MS);
    else if (arg === "--fixtures") fixtures = true;
    else if (arg === "--no-fixtures") fixtures = false;
    else if (arg === "--tck") tck = true;
    else if (arg === "--default-skill") {
      defaultSkill = args[++i];
      if (defaultSkill === undefined || defaultSkill.startsWith("-")) throw new ServeUsageError("--default-skill needs the name of a tool");
    }
    else if (arg === "--confirm") {
      confirmGiven = true;
      confirm = args[++i];
    } else if (arg.startsWith("-")) throw new ServeUsageError(`unknown option '${arg}'`);
    else if (toolkitPath !== undefined) throw new ServeUsageError(`unexpected argument '${arg}': give at most one toolkit file`);
    else toolkitPath = arg;
  }
  if (mode === undefined) {
    throw new ServeUsageError(
      "choose --stdio (for Claude Desktop and other clients that start Patchbay), --http (for the MCP Inspector's URL form), --a2a (an A2A agent over HTTP) or --nats (a fisk-ai agent over NATS)",
    );
  }
  const bridging = bridgePairs.length > 0;
  if (bridging && mode !== "http" && mode !== "stdio") throw new ServeUsageError("--bridge is for --http and --stdio: it serves fisk-ai agents' tools over MCP");
  if (bridging && fixtures === true) throw new ServeUsageError("--fixtures is not for --bridge: the bridge serves the agents' tools (and a toolkit's, when given), not the conformance fixtures");
  if (mode !== "nats" && natsPairs.length > 0 && !bridging) throw new ServeUsageError(`${natsPairs[0]![0]} is for --nats`);
  if (mode === "nats" && (port !== undefined || confirmGiven || fixtures !== undefined)) {
    throw new ServeUsageError("--port, --confirm and --fixtures are not for --nats: the agent listens on no port, and its confirm-gated tools ask for approval in tasks only");
  }
  let nats: NatsServeArgs | undefined;
  let bridge: BridgeArgs | undefined;
  try {
    if (mode === "nats") nats = readNatsArgs(natsPairs, env);
    if (bridging) bridge = readBridgeArgs(bridgePairs, natsPairs, env);
  } catch (err) {
    if (err instanceof NatsArgsError) throw new ServeUsageError(err.message);
    throw err;
  }
  if (confirmGiven && confirm === undefined) throw new ServeUsageError(mode === "a2a" ? `--confirm with --a2a must be one of ${A2A_CONFIRM_MODES.join(", ")}` : `--confirm must be one of ${CLI_CONFIRM_MODES.join(", ")}`);
  if (mode === "a2a" && fixtures !== undefined) throw new ServeUsageError("--fixtures and --no-fixtures are for MCP; the A2A agent serves the toolkit's tools only");
  if (mode !== "a2a" && tck) throw new ServeUsageError("--tck is for --a2a: it makes the A2A agent behave as the A2A TCK expects");
  if (mode !== "a2a" && defaultSkill !== undefined) throw new ServeUsageError("--default-skill is for --a2a: it names the tool a text-only A2A message runs");
  return {
    mode,
    port: port ?? (mode === "a2a" ? DEFAULT_A2A_PORT : DEFAULT_SERVE_PORT),
    ...(toolkitPath !== undefined ? { toolkitPath } : {}),
    ...confirmOf(mode, confirm),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(fixtures !== undefined ? { fixtures } : {}),
    ...(tck ? { tck } : {}),
    ...(defaultSkill !== undefined ? { defaultSkill } : {}),
    ...(nats ? { nats } : {}),
    ...(bridge ? { bridge, fixtures: false } : {}),
  };
}

/** Reads the toolkit file (bare, or a saved workspace document); issues go to stderr, and undefined means it cannot be served. */
async function loadToolkit(path: string, deps: ServeDeps): Promise<Toolkit | undefined> {
  let text: string;
  try {
    text = await readFile(resolve(deps.cwd, path), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    deps.stderr(`patchbay serve: cannot read ${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}\n`);
    return undefined;
  }
  const ext = extname(path).toLowerCase();
  const read = readToolkitFile(text, ext === ".json" ? "json" : ext === ".yaml" || ext === ".yml" ? "yaml" : undefined, path);
  for (const issue of read.issues) deps.stderr(`${path}: ${issue.severity} at ${issue.pointer || "(the toolkit)"}: ${issue.message}\n`);
  if (!read.toolkit) deps.stderr(`patchbay serve: ${path} cannot be served\n`);
  return read.toolkit;
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));

/** Serves until the client goes away (stdio) or the signal aborts; resolves with the exit code. */
export async function runServe(args: ServeArgs, deps: ServeDeps): Promise<number> {
  let toolkit: Toolkit | undefined = DEMO_TOOLKIT;
  if (args.toolkitPath !== undefined) toolkit = await loadToolkit(args.toolkitPath, deps);
  else if (args.bridge) toolkit = (await import("./serve-bridge.ts")).BRIDGE_TOOLKIT;
  if (!toolkit) return 1;
  if (args.mode === "a2a") return runA2aServe(toolkit, args, deps);
  if (args.mode === "nats") {
    // The NATS client and the schema packs load only for this mode.
    const { runNatsServe } = await import("./serve-nats.ts");
    return runNatsServe(toolkit, args, args.nats ?? { servers: "nats://127.0.0.1:4222" }, deps);
  }
  if (!args.bridge) return serveMcp(toolkit, args, deps);
  const { startBridge } = await import("./serve-bridge.ts");
  // On stdio, stdout carries only MCP messages.
  const started = await startBridge(args.bridge, toolkit, deps, args.mode === "stdio" ? deps.stderr : deps.stdout);
  if (typeof started === "number") return started;
  try {
    return await serveMcp(toolkit, args, deps, started.bridge);
  } finally {
    await started.close();
  }
}

async function serveMcp(toolkit: Toolkit, args: ServeArgs, deps: ServeDeps, bridge?: FiskBridge): Promise<number> {
  const settings = {
    ...(args.confirmMode ? { confirmMode: args.confirmMode } : {}),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    ...(args.fixtures !== undefined ? { fixtures: args.fixtures } : {}),
    ...(bridge ? { bridge } : {}),
  };
  if (args.mode === "stdio") {
    const context = createServingContext({
      toolkit,
      scheduler: systemScheduler(),
      logger: deps.logger,
      runner: nodeCommandRunner(),
      version: VERSION,
      randomBytes: (bytes) => randomFillSync(bytes),
      wallNow: Date.now,
      ...settings,
    });
    const serving = await serveStdio(context, deps.stdio);
    deps.logger.info("serving over MCP on stdio", { toolkit: toolkit.name, tools: context.tools.size, fixtures: context.fixtureTools.length });
    await Promise.race([serving.closed, aborted(deps.signal)]);
    await serving.close();
    return 0;
  }
  let serving;
  try {
    serving = await startMcpServing({ toolkit, port: args.port, logger: deps.logger, ...settings });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "EADDRINUSE" ? `port ${args.port} is already in use; choose another with --port <n> (0 picks a free one)` : (error as Error).message;
    deps.stderr(`patchbay serve: cannot listen on 127.0.0.1:${args.port}: ${why}\n`);
    return 1;
  }
  deps.stdout(`Serving ${toolkit.name} over MCP (Streamable HTTP) at ${serving.url}\n`);
  await aborted(deps.signal);
  deps.logger.info("stopping");
  await serving.close();
  return 0;
}
