/**
 * `patchbay run <collection>`: a collection's steps against their targets, headless, through the
 * same core runner and executors as the page's runner. One line per step, the failing assertions
 * under it, a summary; JUnit XML and a JSON report on request. Exits 0 when every step passed,
 * 1 when one failed, could not run or the run was stopped, 2 on a usage error or a collection
 * that cannot be read.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { systemScheduler } from "../../src/core/env/index.ts";
import { decodeCollectionFile, junitXml, runCollection, type Collection, type Executors, type RunReport, type StepReport, type TargetSpec } from "../../src/core/harness/index.ts";
import { DocumentError } from "../../src/core/persist/document-store.ts";
import { CallUsageError, needs } from "./call-options.ts";

export interface RunArgs {
  readonly collection: string;
  readonly environment?: string;
  /** Target name → the URL, command or server given for it. */
  readonly targets: Readonly<Record<string, string>>;
  readonly steps: readonly string[];
  readonly junit?: string;
  readonly json?: string;
  readonly workspace: string;
  /** Which steps' frames the reports keep: the failed ones (default) or all. */
  readonly frames: "all" | "failed";
}

export interface RunDeps {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly signal?: AbortSignal;
  /** How help names this command, for the usage hint. */
  readonly program: string;
  readonly executors: () => Promise<Executors>;
}

export function parseRunArgs(args: readonly string[], workspace: string): RunArgs {
  const positional: string[] = [];
  const targets: Record<string, string> = {};
  const steps: string[] = [];
  let environment: string | undefined;
  let junit: string | undefined;
  let json: string | undefined;
  let ws = workspace;
  let frames: "all" | "failed" = "failed";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (example: string): string => {
      const v = args[++i];
      if (v === undefined || v === "") throw needs(arg, example);
      return v;
    };
    if (arg === "--env" || arg === "-e") environment = value("staging");
    else if (arg === "--junit") junit = value("reports/patchbay.xml");
    else if (arg === "--json") json = value("reports/patchbay.json");
    else if (arg === "--workspace") ws = value("~/.patchbay");
    else if (arg === "--step") steps.push(value("'list tools'"));
    else if (arg === "--frames") {
      const v = value("all");
      if (v !== "all" && v !== "failed") throw new CallUsageError(`--frames must be all or failed, got ${JSON.stringify(v)}`);
      frames = v;
    }
    else if (arg === "--target" || arg === "-t") {
      const v = value("everything=http://127.0.0.1:3001/mcp");
      const eq = v.indexOf("=");
      if (eq <= 0 || eq === v.length - 1) throw new CallUsageError(`${arg} needs NAME=VALUE (a target of the collection and its URL, command or server), got ${JSON.stringify(v)}`);
      targets[v.slice(0, eq)] = v.slice(eq + 1);
    } else if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith("-")) throw new CallUsageError(`unknown option '${arg}'`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new CallUsageError(`give one collection: a file, or the name of one in the workspace (got ${positional.length})`);
  return { collection: positional[0]!, ...(environment !== undefined ? { environment } : {}), targets, steps, ...(junit !== undefined ? { junit } : {}), ...(json !== undefined ? { json } : {}), workspace: ws, frames };
}

/** A name without a path or extension is a workspace collection; anything else a file. */
export function collectionPath(given: string, workspace: string, cwd: string): string {
  return /[/\\]|\.json$/i.test(given) ? resolve(cwd, given) : join(workspace, "collections", `${given}.json`);
}

/** The replacement spec for `--target NAME=VALUE`, by the protocol the collection gave it. */
export function overrideTarget(collection: Collection, name: string, value: string): TargetSpec {
  const target = collection.targets[name];
  if (!target) throw new CallUsageError(`--target ${name}: the collection has no target ${JSON.stringify(name)} (it has: ${Object.keys(collection.targets).join(", ")})`);
  if (target.protocol === "a2a") return { ...target, card: value };
  if (target.protocol === "nats") return { ...target, server: value };
  const { url: _url, command: _command, ...rest } = target;
  return /^https?:\/\//i.test(value) ? { ...rest, url: value } : { ...rest, command: value };
}

const MARK: Readonly<Record<StepReport["status"], string>> = { passed: "ok  ", failed: "FAIL", error: "ERR ", skipped: "skip" };

function stepLine(step: StepReport, total: number): string {
  const head = `${MARK[step.status]} ${step.index + 1}/${total} ${step.name} (${step.protocol} ${step.target})${step.latencyMs !== undefined ? ` ${Math.round(step.latencyMs)} ms` : ""}`;
  const lines = [head];
  // The outcome is worth a line unless a failed outcome assertion already names it.
  const outcomeNamed = step.assertions.some((a) => !a.passed && a.assertion.kind === "outcome");
  if (step.outcome && step.status !== "passed" && !outcomeNamed) lines.push(`       outcome: ${step.outcome.message}`);
  for (const a of step.assertions) if (!a.passed) lines.push(`       ${a.assertion.kind}: ${a.message}`);
  if (step.error) lines.push(`       ${step.error}`);
  return `${lines.join("\n")}\n`;
}

export function summaryLine(report: RunReport): string {
  const t = report.totals;
  const env = report.environment !== null ? ` (environment ${report.environment})` : "";
  return `${report.collection}${env}: ${t.steps} steps, ${t.passed} passed, ${t.failed} failed, ${t.errors} errors, ${t.skipped} skipped in ${(report.durationMs / 1000).toFixed(2)} s${report.stopped ? " (stopped)" : ""}\n`;
}

async function load(args: RunArgs, deps: RunDeps): Promise<Collection | string> {
  const path = collectionPath(args.collection, args.workspace, deps.cwd);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    return `cannot read the collection ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  try {
    return decodeCollectionFile(text, path);
  } catch (err) {
    if (err instanceof DocumentError) return err.message;
    throw err;
  }
}

async function writeReport(path: string, text: string, deps: RunDeps): Promise<boolean> {
  const full = resolve(deps.cwd, path);
  try {
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, text);
    return true;
  } catch (err) {
    deps.stderr(`patchbay run: cannot write ${full} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})\n`);
    return false;
  }
}

export async function runRun(args: RunArgs, deps: RunDeps): Promise<number> {
  const collection = await load(args, deps);
  if (typeof collection === "string") {
    deps.stderr(`patchbay run: ${collection}\n`);
    return 2;
  }
  let targets: Record<string, TargetSpec>;
  let only: number[] | undefined;
  try {
    if (args.environment !== undefined && !Object.hasOwn(collection.environments, args.environment)) {
      throw new CallUsageError(`--env ${args.environment}: the collection has no such environment (it has: ${Object.keys(collection.environments).join(", ") || "none"})`);
    }
    targets = Object.fromEntries(Object.entries(args.targets).map(([name, value]) => [name, overrideTarget(collection, name, value)]));
    only = args.steps.length > 0 ? args.steps.map((name) => {
      const index = collection.steps.findIndex((s) => s.name === name);
      if (index < 0) throw new CallUsageError(`--step ${JSON.stringify(name)}: no such step in ${collection.name}`);
      return index;
    }) : undefined;
  } catch (err) {
    if (err instanceof CallUsageError) {
      deps.stderr(`patchbay run: ${err.message}. Run '${deps.program} run --help' for usage.\n`);
      return 2;
    }
    throw err;
  }
  const secrets: Record<string, string> = {};
  for (const [name, spec] of Object.entries(collection.secrets ?? {})) {
    const value = deps.env[spec.env];
    if (value !== undefined && value !== "") secrets[name] = value;
  }
  deps.stderr(`collection ${collection.name}: ${only?.length ?? collection.steps.length} steps${args.environment !== undefined ? `, environment ${args.environment}` : ""}\n`);
  const report = await runCollection(collection, await deps.executors(), {
    ...(args.environment !== undefined ? { environment: args.environment } : {}),
    secrets,
    targets,
    keepFrames: args.frames,
    ...(only ? { only } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    now: () => performance.now(),
    wallNow: () => Date.now(),
    scheduler: systemScheduler(),
    onEvent: (event) => {
      if (event.type === "step-end") deps.stdout(stepLine(event.report, event.total));
    },
  });
  deps.stdout(summaryLine(report));
  let written = true;
  if (args.junit !== undefined) written = (await writeReport(args.junit, junitXml(report), deps)) && written;
  if (args.json !== undefined) written = (await writeReport(args.json, `${JSON.stringify(report, null, 2)}\n`, deps)) && written;
  const t = report.totals;
  return t.failed === 0 && t.errors === 0 && !report.stopped && written ? 0 : 1;
}
