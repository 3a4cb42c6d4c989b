/**
 * Conformance runs started from the page: the MCP conformance suite against an MCP URL, the A2A
 * TCK against an agent. One run at a time per kind, each in its own process group (so Stop ends
 * npx, Node 22, bash and pytest together), spawned without a shell from argument lists. Reading
 * a run (GET) never starts anything; its output is kept as a bounded tail.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { Logger } from "../../src/core/env/environment.ts";
import { parseMcpConformanceOutput } from "../../src/core/harness/conformance-output.ts";
import { MCP_REQUIREMENTS, type ConformanceProblem, type ConformanceRunSummary, type ConformanceRunView, type ConformanceState, type McpRequirements, type TckScope } from "../../src/core/harness/conformance-run-types.ts";
import { checkTargetUrl, tckTarget, type ConformanceKind } from "../../src/core/harness/conformance-target.ts";
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";
import { mcpLaunch, tckLaunch, type Launch, type ToolPaths } from "./conformance-tools.ts";
import { mcpFinish, node22Problem, OutputTail, tckFinish, type Finished } from "./conformance-finish.ts";

export type { ConformanceRunView };

export interface ConformanceRunnerOptions {
  readonly paths: ToolPaths;
  readonly logger: Logger;
  readonly newId: () => string;
  /** A run still going after this long is stopped; default 20 minutes. */
  readonly timeoutMs?: number;
}

const KEPT_RUNS = 8;
const VIEW_CHARS = 64 * 1024;
const KILL_GRACE_MS = 3_000;
const DEFAULT_TIMEOUT_MS = 20 * 60_000;
const SCOPES: readonly TckScope[] = ["mandatory", "all"];

interface RunRecord {
  readonly id: string;
  readonly kind: ConformanceKind;
  readonly url: string;
  readonly target: string;
  readonly scope: TckScope | null;
  readonly requirements: McpRequirements | null;
  readonly startedAt: number;
  readonly tail: OutputTail;
  readonly dirs: readonly string[];
  readonly launch: Launch;
  child: ChildProcess | null;
  state: ConformanceState;
  finishedAt: number | null;
  exitCode: number | null;
  problem: ConformanceProblem | null;
  finished: Finished | null;
  stopping: ConformanceProblem | "user" | null;
  ended: Promise<void>;
}

interface RunBody {
  readonly url: string;
  readonly scope: TckScope | null;
  readonly requirements: McpRequirements | null;
}

function readBody(kind: ConformanceKind, body: unknown): RunBody {
  const allowed = kind === "mcp" ? ["url", "requirements"] : ["url", "scope"];
  const optional = kind === "a2a" ? ' (and optionally "scope": "mandatory" or "all")' : ` (and optionally "requirements": ${MCP_REQUIREMENTS.map((r) => `"${r}"`).join(" or ")})`;
  if (!isJsonObject(body)) throw new HttpError(400, "invalid_body", `expected a JSON object such as {"url": "…"}${optional}`);
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw new HttpError(400, "invalid_body", `unknown field ${JSON.stringify(unknown.slice(0, 100))}; expected ${allowed.join(", ")}`);
  const checked = checkTargetUrl(kind, body.url);
  if (!checked.ok) throw new HttpError(400, "invalid_url", checked.problem);
  if (kind === "mcp") {
    const requirements = body.requirements ?? MCP_REQUIREMENTS[0];
    if (!MCP_REQUIREMENTS.includes(requirements as McpRequirements)) {
      throw new HttpError(400, "invalid_body", `"requirements" must be ${MCP_REQUIREMENTS.map((r) => `"${r}"`).join(" or ")}: the protocol revision whose required scenarios run`);
    }
    return { url: checked.url, scope: null, requirements: requirements as McpRequirements };
  }
  const scope = body.scope ?? "mandatory";
  if (!SCOPES.includes(scope as TckScope)) throw new HttpError(400, "invalid_body", '"scope" must be "mandatory" (the TCK\'s mandatory set) or "all" (mandatory and optional)');
  return { url: checked.url, scope: scope as TckScope, requirements: null };
}

export class ConformanceRunner {
  readonly #options: ConformanceRunnerOptions;
  readonly #runs = new Map<string, RunRecord>();
  /** The kinds with a run going on or being set up. */
  readonly #busy = new Map<ConformanceKind, string>();

  constructor(options: ConformanceRunnerOptions) {
    this.#options = options;
  }

  /** Starts a run; 400 for a bad body, 409 while one of this kind runs, 503 for a missing prerequisite. */
  async start(kind: ConformanceKind, body: unknown): Promise<ConformanceRunView> {
    const { url, scope, requirements } = readBody(kind, body);
    const target = kind === "a2a" ? tckTarget(url) : { ok: true as const, url };
    if (!target.ok) throw new HttpError(400, "invalid_url", target.problem);
    const busy = this.#busy.get(kind);
    if (busy !== undefined) throw new HttpError(409, "run_in_progress", `a ${kind === "mcp" ? "MCP conformance" : "A2A TCK"} run is going on (${busy}); stop it or wait for it to finish`);
    const id = this.#options.newId();
    this.#busy.set(kind, id);
    const dirs: string[] = [];
    try {
      const out = await mkdtemp(join(tmpdir(), `patchbay-conformance-${kind}-`));
      dirs.push(out);
      let launch: Launch;
      if (kind === "mcp") launch = mcpLaunch(this.#options.paths, target.url, out, requirements ?? MCP_REQUIREMENTS[0]!);
      else {
        const tck = await mkdtemp(join(tmpdir(), "patchbay-a2a-tck-"));
        dirs.push(tck);
        launch = await tckLaunch(this.#options.paths, target.url, scope ?? "mandatory", out, tck);
      }
      const record = this.#record(id, kind, url, target.url, { scope, requirements }, dirs, launch);
      record.ended = this.#drive(record).catch(async (err: unknown) => {
        record.problem = { code: "spawn_failed", message: `the run could not be started: ${(err as Error).message}` };
        await this.#finish(record, null, undefined, false);
      });
      return this.#view(record);
    } catch (err) {
      this.#busy.delete(kind);
      await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
      throw err;
    }
  }

  view(id: string): ConformanceRunView {
    return this.#view(this.#get(id));
  }

  /** The run's view once it has ended (at once for one that has). */
  async whenEnded(id: string): Promise<ConformanceRunView> {
    const record = this.#get(id);
    await record.ended;
    return this.#view(record);
  }

  /** The runs kept, newest last, without their output. */
  list(): ConformanceRunSummary[] {
    return [...this.#runs.values()].map((r) => ({ id: r.id, kind: r.kind, url: r.url, state: r.state, passed: r.finished?.passed ?? null }));
  }

  /** Ends the run's whole process group; a finished run is left as it is. */
  stop(id: string): ConformanceRunView {
    const record = this.#get(id);
    this.#kill(record, "user");
    return this.#view(record);
  }

  /** Stops every run and waits for each to end. */
  async close(): Promise<void> {
    const running = [...this.#runs.values()].filter((r) => r.state === "running");
    for (const r of running) this.#kill(r, { code: "backend_closed", message: "the backend shut down during the run" });
    await Promise.all(running.map((r) => r.ended));
  }

  #get(id: string): RunRecord {
    const record = this.#runs.get(id);
    if (!record) throw new HttpError(404, "unknown_run", `no conformance run ${JSON.stringify(id.slice(0, 100))}; runs are kept until ${KEPT_RUNS} newer ones finish or the backend restarts`);
    return record;
  }

  #record(id: string, kind: ConformanceKind, url: string, target: string, sets: Pick<RunBody, "scope" | "requirements">, dirs: string[], launch: Launch): RunRecord {
    const record: RunRecord = { id, kind, url, target, ...sets, startedAt: Date.now(), tail: new OutputTail(), dirs, launch, child: null, state: "running", finishedAt: null, exitCode: null, problem: null, finished: null, stopping: null, ended: Promise.resolve() };
    this.#runs.set(id, record);
    const done = [...this.#runs.values()].filter((r) => r.state !== "running");
    for (const old of done.slice(0, Math.max(0, this.#runs.size - KEPT_RUNS))) this.#runs.delete(old.id);
    return record;
  }

  /** Finds Node 22 first where needed, then runs the tool; resolves once the run has ended and been read. */
  async #drive(record: RunRecord): Promise<void> {
    const { launch } = record;
    const limitMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const after = limitMs >= 60_000 ? `${Math.round(limitMs / 60_000)} minutes` : `${Math.round(limitMs / 1000)} seconds`;
    const timer = setTimeout(() => this.#kill(record, { code: "timeout", message: `the run was stopped after ${after}, the time a run may take` }), limitMs);
    try {
      let command = launch.command;
      if (launch.findNode) {
        const found = await this.#exec(record, launch.findNode.command, launch.findNode.args);
        const path = found.stdout.trim().split(/\r?\n/).at(-1) ?? "";
        if (record.stopping !== null) return await this.#finish(record, found.code, undefined, false);
        if (found.error || found.code !== 0 || !isAbsolute(path) || !existsSync(path)) {
          record.problem = node22Problem(record.tail.text, found.code, found.error);
          return await this.#finish(record, found.code, undefined, false);
        }
        command = path;
      }
      const main = await this.#exec(record, command ?? "", launch.args);
      await this.#finish(record, main.code, main.error, true);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One process in its own group, its output into the run's tail. */
  #exec(record: RunRecord, command: string, args: readonly string[]): Promise<{ code: number | null; error?: Error; stdout: string }> {
    this.#options.logger.info("conformance run step", { id: record.id, kind: record.kind, command });
    const child = spawn(command, [...args], { stdio: ["ignore", "pipe", "pipe"], env: record.launch.env, detached: true });
    record.child = child;
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      if (stdout.length < 64 * 1024) stdout += text;
      record.tail.append(text);
    });
    child.stderr?.on("data", (chunk: Buffer) => record.tail.append(chunk.toString("utf8")));
    return new Promise((done) => {
      let settled = false;
      const end = (code: number | null, error?: Error) => {
        if (settled) return;
        settled = true;
        record.child = null;
        done({ code, stdout, ...(error ? { error } : {}) });
      };
      child.once("error", (err) => end(null, err));
      child.once("close", (code) => end(code));
    });
  }

  async #finish(record: RunRecord, code: number | null, spawnError: Error | undefined, read: boolean): Promise<void> {
    record.exitCode = code;
    try {
      if (spawnError) record.problem = spawnProblem(record.launch, spawnError);
      else if (read && record.stopping !== "user") {
        const out = record.dirs[0]!;
        const finished = record.kind === "mcp" ? await mcpFinish(record.tail.text, code, out) : await tckFinish(record.tail.text, code, out, record.scope ?? "mandatory");
        record.finished = finished;
        record.problem = finished.problem;
      }
      if (record.stopping !== null && record.stopping !== "user") record.problem = record.stopping;
    } catch (err) {
      record.problem = { code: "results_unreadable", message: `the results could not be read: ${(err as Error).message}` };
    } finally {
      await Promise.all(record.dirs.map((d) => rm(d, { recursive: true, force: true })));
      record.state = record.stopping === "user" ? "stopped" : record.problem ? "failed" : "done";
      record.finishedAt = Date.now();
      if (this.#busy.get(record.kind) === record.id) this.#busy.delete(record.kind);
      this.#options.logger.info("conformance run ended", { id: record.id, kind: record.kind, state: record.state, exitCode: code });
    }
  }

  #kill(record: RunRecord, why: ConformanceProblem | "user"): void {
    if (record.state !== "running" || record.stopping !== null) return;
    // Between two steps there is no process: the next one is then never started.
    record.stopping = why;
    const child = record.child;
    if (!child) return;
    const signal = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // The group is gone already.
      }
    };
    signal("SIGTERM");
    const hard = setTimeout(() => signal("SIGKILL"), KILL_GRACE_MS);
    void record.ended.then(() => clearTimeout(hard));
  }

  #view(r: RunRecord): ConformanceRunView {
    const live = r.kind === "mcp" && r.state === "running" ? parseMcpConformanceOutput(r.tail.text) : null;
    const mcp = r.finished?.mcp ?? null;
    const progress = r.kind !== "mcp" ? null : live ? { started: live.started.length, planned: live.planned } : mcp ? { started: mcp.started.length, planned: mcp.planned } : null;
    return {
      id: r.id,
      kind: r.kind,
      url: r.url,
      target: r.target,
      scope: r.scope,
      requirements: r.requirements,
      state: r.state,
      startedAt: new Date(r.startedAt).toISOString(),
      finishedAt: r.finishedAt === null ? null : new Date(r.finishedAt).toISOString(),
      exitCode: r.exitCode,
      output: r.tail.last(VIEW_CHARS),
      outputDropped: r.tail.dropped + Math.max(0, r.tail.text.length - VIEW_CHARS),
      progress,
      problem: r.problem,
      mcp,
      a2a: r.finished?.a2a ?? null,
      passed: r.state === "done" ? (r.finished?.passed ?? null) : null,
    };
  }
}

function spawnProblem(launch: Launch, err: Error): ConformanceProblem {
  const command = launch.command ?? "Node 22";
  if ((err as NodeJS.ErrnoException).code === "ENOENT") return { code: "spawn_failed", message: `${command} is not on PATH; the run needs it` };
  return { code: "spawn_failed", message: `could not start ${command}: ${err.message}` };
}

