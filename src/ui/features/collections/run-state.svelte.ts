import type { HarnessApi, RunProgress, RunStart } from "../../../core/backend/harness-api.ts";
import type { Scheduler } from "../../../core/env/index.ts";
import type { Collection, RunReport, StepReport } from "../../../core/harness/index.ts";
import { repeat } from "../serve/poller.ts";

export const POLL_MS = 250;
/** Full runs kept in this tab for comparing. */
export const KEPT_RUNS = 5;

export type HarnessPort = Pick<HarnessApi, "start" | "progress" | "stop">;

/** The merged captured values of a run's steps, in step order: what a re-run of one step starts with. */
export function capturedOf(steps: readonly StepReport[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const step of [...steps].sort((a, b) => a.index - b.index)) Object.assign(out, step.captured);
  return out;
}

/**
 * One collection's runs from the page: the environment and secrets to run with (secret values
 * live only here, never in a draft), the run going on (started on the backend, read by polling),
 * its step rows, a re-run of one step with what the last run captured, and the last full runs.
 */
export class RunState {
  environment = $state("");
  /** Secret values typed in, by secret name. */
  secrets = $state<Record<string, string>>({});
  runId = $state<string | null>(null);
  /** The run going on is a re-run of this step index. */
  rerunning = $state<number | null>(null);
  total = $state(0);
  finished = $state(0);
  current = $state.raw<{ readonly index: number; readonly name: string } | null>(null);
  /** The step reports on show, by step index: the last full run, with re-run steps replaced. */
  rows = $state.raw<readonly StepReport[]>([]);
  selected = $state(-1);
  /** Why Run (or Stop, or reading progress) failed, next to the Run button. */
  error = $state<string | null>(null);
  /** The last report the backend gave (a full run or a re-run), for export. */
  report = $state.raw<RunReport | null>(null);
  /** The name of the collection the rows came from. */
  ranFor = $state<string | null>(null);
  /** The last full runs, oldest first. */
  history = $state.raw<readonly RunReport[]>([]);

  readonly #api: HarnessPort;
  readonly #scheduler: Scheduler;
  readonly #collection: () => Collection | undefined;
  #stopPolling: (() => void) | undefined;

  constructor(api: HarnessPort, scheduler: Scheduler, collection: () => Collection | undefined) {
    this.#api = api;
    this.#scheduler = scheduler;
    this.#collection = collection;
  }

  get running(): boolean {
    return this.runId !== null;
  }

  /** The collection's environments; the chosen one, or the first. */
  get environments(): string[] {
    return Object.keys(this.#collection()?.environments ?? {});
  }
  get chosenEnvironment(): string | undefined {
    const names = this.environments;
    return names.includes(this.environment) ? this.environment : names[0];
  }

  /** The secrets the collection declares: name, the environment variable a headless run reads, the description. */
  get secretFields(): { name: string; env: string; description?: string }[] {
    return Object.entries(this.#collection()?.secrets ?? {}).map(([name, s]) => ({ name, env: s.env, ...(s.description !== undefined ? { description: s.description } : {}) }));
  }

  get selectedRow(): StepReport | undefined {
    return this.rows[this.selected];
  }

  select(index: number): void {
    if (index >= 0 && index < this.rows.length) this.selected = index;
  }

  async run(): Promise<void> {
    const collection = this.#collection();
    if (!collection) return this.#fail("the collection has problems: fix them before running it");
    await this.#start({ collection, ...this.#inputs(collection) }, null);
  }

  /** Runs one step again, with the values the steps on show captured. */
  async rerun(index: number): Promise<void> {
    const collection = this.#collection();
    if (!collection) return this.#fail("the collection has problems: fix them before running it");
    if (this.ranFor !== collection.name) return this.#fail(`the steps on show are from a run of "${this.ranFor ?? ""}": run "${collection.name}" first`);
    if (index < 0 || index >= collection.steps.length) return this.#fail(`the collection has no step ${index + 1} now`);
    await this.#start({ collection, ...this.#inputs(collection), only: [index], captured: capturedOf(this.rows) }, index);
  }

  async stop(): Promise<void> {
    const id = this.runId;
    if (id === null) return;
    try {
      await this.#api.stop(id);
    } catch (err) {
      this.#fail(`could not stop the run: ${(err as Error).message}`);
    }
  }

  /** Forgets what was shown for the last collection, and its secrets; a run going on is kept. */
  reset(): void {
    if (this.running) return;
    this.rows = [];
    this.selected = -1;
    this.report = null;
    this.error = null;
    this.secrets = {};
    this.ranFor = null;
  }

  /** Stops reading progress (the page is going away); the backend run carries on. */
  dispose(): void {
    this.#stopPolling?.();
    this.#stopPolling = undefined;
  }

  #inputs(collection: Collection): Pick<RunStart, "environment" | "secrets"> {
    const env = this.chosenEnvironment;
    const declared = Object.keys(collection.secrets ?? {});
    const typed = Object.entries(this.secrets).filter(([name, value]) => declared.includes(name) && value !== "");
    return { ...(env !== undefined ? { environment: env } : {}), ...(typed.length > 0 ? { secrets: Object.fromEntries(typed) } : {}) };
  }

  async #start(input: RunStart, rerun: number | null): Promise<void> {
    if (this.running) return;
    this.error = null;
    let id: string;
    try {
      id = await this.#api.start(input);
    } catch (err) {
      return this.#fail(`could not start the run: ${(err as Error).message}`);
    }
    this.runId = id;
    this.rerunning = rerun;
    this.total = input.only?.length ?? (input.collection as Collection).steps.length;
    this.finished = 0;
    this.current = null;
    if (rerun === null) {
      this.ranFor = (input.collection as Collection).name;
      this.rows = [];
      this.selected = -1;
    }
    this.#stopPolling = repeat(this.#scheduler, POLL_MS, () => this.#poll(id));
  }

  async #poll(id: string): Promise<void> {
    if (this.runId !== id) return;
    let progress: RunProgress;
    try {
      progress = await this.#api.progress(id, this.finished);
    } catch (err) {
      this.#fail(`lost the run: ${(err as Error).message}`);
      return this.#end();
    }
    if (this.runId !== id) return;
    this.total = progress.total;
    this.current = progress.current;
    this.finished += progress.steps.length;
    if (progress.steps.length > 0) this.#merge(progress.steps);
    if (progress.state === "done" && progress.report) this.#done(progress.report);
  }

  #merge(steps: readonly StepReport[]): void {
    if (this.rerunning === null) {
      this.rows = [...this.rows, ...steps];
      if (this.selected < 0) this.selected = this.rows.findIndex((s) => s.status === "failed" || s.status === "error");
      return;
    }
    const rows = [...this.rows];
    for (const step of steps) {
      const at = rows.findIndex((r) => r.index === step.index);
      if (at >= 0) rows[at] = step;
      else rows.push(step);
    }
    this.rows = rows.sort((a, b) => a.index - b.index);
  }

  #done(report: RunReport): void {
    this.report = report;
    if (this.rerunning === null) {
      // The report is the whole truth: rows read while polling may have missed none, but it decides.
      this.rows = report.steps;
      this.history = [...this.history, report].slice(-KEPT_RUNS);
    }
    this.#end();
  }

  #end(): void {
    this.dispose();
    this.runId = null;
    this.rerunning = null;
    this.current = null;
  }

  #fail(message: string): void {
    this.error = message;
  }
}
