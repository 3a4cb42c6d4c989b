/**
 * Running a collection: its steps in order, each resolved, handed to its protocol's executor
 * under a time limit, judged by its assertions and mined for captures that later steps use.
 * A step that cannot run is reported and the run goes on; a stop skips what is left.
 */
import { evaluateAssertion } from "./assertions.ts";
import { readPointer } from "./body-pointer.ts";
import type { Assertion, Collection, HarnessProtocol, Step } from "./collection-types.ts";
import { DEFAULT_FRAME_TEXT_LIMIT, keptFrames, type Scrub, scrubOutcome, scrubResults } from "./run-frames.ts";
import type { AssertionResult, Executors, ResolvedStep, RunOptions, RunReport, RunTotals, StepObservation, StepReport } from "./run-types.ts";
import { resolveStep, scrubSecrets } from "./variables.ts";

/** How long a step that was told to stop may take before the runner gives up waiting for it. */
export const STOP_GRACE_MS = 2_000;

const STOPPED = "the run was stopped";

interface RunState {
  readonly collection: Collection;
  readonly executors: Executors;
  readonly options: RunOptions;
  readonly variables: Readonly<Record<string, string>>;
  /** Values captured so far, unscrubbed: later steps need them as they are. */
  readonly captured: Record<string, string>;
  readonly scrub: Scrub;
}

function put(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function stepIndexes(collection: Collection, only: readonly number[] | undefined): number[] {
  if (only === undefined) return collection.steps.map((_, i) => i);
  for (const i of only) {
    if (!Number.isInteger(i) || i < 0 || i >= collection.steps.length) {
      throw new RangeError(`step index ${String(i)} is out of range: the collection has ${collection.steps.length} steps`);
    }
  }
  return [...new Set(only)].sort((a, b) => a - b);
}

function variablesOf(collection: Collection, environment: string | undefined): Readonly<Record<string, string>> {
  if (environment === undefined) return {};
  if (!Object.hasOwn(collection.environments, environment)) {
    const names = Object.keys(collection.environments);
    throw new Error(`no environment '${environment}' in the collection (${names.length > 0 ? `environments: ${names.join(", ")}` : "it has none"})`);
  }
  return collection.environments[environment]!;
}

function baseOf(state: RunState, step: Step, index: number): Pick<StepReport, "index" | "name" | "protocol" | "target"> {
  const { targets } = state.options;
  const spec = targets && Object.hasOwn(targets, step.target) ? targets[step.target] : Object.hasOwn(state.collection.targets, step.target) ? state.collection.targets[step.target] : undefined;
  const protocol: HarnessProtocol = spec?.protocol ?? step.action.protocol;
  return { index, name: step.name, protocol, target: step.target };
}

type Executed = { readonly obs: StepObservation } | { readonly error: string };

/** Runs the step under its time limit and the run's stop signal; waits a grace period after aborting. */
async function execute(state: RunState, resolved: ResolvedStep): Promise<Executed> {
  const { scheduler, signal } = state.options;
  const executor = state.executors[resolved.target.protocol];
  if (!executor) return { error: `no ${resolved.target.protocol} executor in this run, so the step cannot run` };
  const controller = new AbortController();
  let why: "timeout" | "stopped" | null = null;
  let cancelGrace = (): void => {};
  let giveUp = (): void => {};
  const abandoned = new Promise<"abandoned">((resolve) => (giveUp = () => resolve("abandoned")));
  const abort = (reason: "timeout" | "stopped"): void => {
    if (why !== null) return;
    why = reason;
    controller.abort(new Error(reason === "timeout" ? `timed out after ${resolved.timeoutMs} ms` : STOPPED));
    cancelGrace = scheduler.after(STOP_GRACE_MS, giveUp);
  };
  const cancelTimer = scheduler.after(resolved.timeoutMs, () => abort("timeout"));
  const onStop = (): void => abort("stopped");
  if (signal?.aborted) onStop();
  else signal?.addEventListener("abort", onStop, { once: true });
  const running = Promise.resolve().then(() => executor.run(resolved, { signal: controller.signal }));
  // Once abandoned, a late rejection must not surface as unhandled.
  running.catch(() => undefined);
  try {
    const result = await Promise.race([running, abandoned]);
    if (result !== "abandoned") return { obs: result };
    return { error: why === "timeout" ? `timed out after ${resolved.timeoutMs} ms, and the step did not stop when told to` : "stopped, and the step did not stop when told to" };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (why === "stopped") return { error: "stopped" };
    if (why === "timeout") return { error: `timed out after ${resolved.timeoutMs} ms: ${message}` };
    return { error: message };
  } finally {
    cancelTimer();
    cancelGrace();
    signal?.removeEventListener("abort", onStop);
  }
}

/** Assertions judged, then captures taken; a capture with nothing at its pointer fails the step. */
function judge(state: RunState, step: Step, assert: readonly Assertion[], obs: StepObservation): { results: AssertionResult[]; captured: Record<string, string> } {
  const results = assert.map((a) => evaluateAssertion(a, obs));
  const captured: Record<string, string> = {};
  for (const [name, pointer] of Object.entries(step.capture ?? {})) {
    const read = readPointer(obs.body, pointer);
    if (!read.found) {
      results.push({ assertion: { kind: "exists", pointer }, passed: false, message: `capture '${name}': ${read.reason}` });
      continue;
    }
    const value = typeof read.value === "string" ? read.value : (JSON.stringify(read.value) ?? "null");
    put(state.captured, name, value);
    put(captured, name, state.scrub(value));
  }
  return { results, captured };
}

async function runStep(state: RunState, index: number): Promise<StepReport> {
  const { collection, options, scrub } = state;
  const step = collection.steps[index]!;
  const base = baseOf(state, step, index);
  const errored = (error: string): StepReport => ({ ...base, status: "error", assertions: [], frames: [], captured: {}, error: scrub(error) });
  const resolved = resolveStep(collection, index, {
    environment: options.environment ?? null,
    variables: state.variables,
    secrets: options.secrets ?? {},
    captured: state.captured,
    ...(options.targets ? { targets: options.targets } : {}),
  });
  if (!resolved.ok) return errored(resolved.error);
  if (resolved.step.target.protocol !== step.action.protocol) {
    return errored(`step '${step.name}': target '${step.target}' is ${resolved.step.target.protocol} but the step's action is ${step.action.protocol}`);
  }
  const executed = await execute(state, resolved.step);
  if ("error" in executed) return errored(executed.error);
  const { obs } = executed;
  const { results, captured } = judge(state, step, resolved.assert, obs);
  const status = results.every((r) => r.passed) ? "passed" : "failed";
  const keep = options.keepFrames !== "failed" || status === "failed";
  return {
    ...base,
    status,
    assertions: scrubResults(results, scrub),
    outcome: scrubOutcome(obs.outcome, scrub),
    latencyMs: obs.latencyMs,
    frames: keep ? keptFrames(obs.frames, scrub, options.frameTextLimit ?? DEFAULT_FRAME_TEXT_LIMIT) : [],
    captured,
  };
}

function totalsOf(steps: readonly StepReport[]): RunTotals {
  const count = (status: StepReport["status"]) => steps.filter((s) => s.status === status).length;
  return { steps: steps.length, passed: count("passed"), failed: count("failed"), errors: count("error"), skipped: count("skipped") };
}

/**
 * Runs the collection (or the steps in `only`, with `captured` seeded) and reports every step.
 * Executors are closed at the end whatever happens. Rejects only for a bad environment name or
 * step index, before any step runs.
 */
export async function runCollection(collection: Collection, executors: Executors, options: RunOptions): Promise<RunReport> {
  const started = options.now();
  const startedAt = new Date(options.wallNow()).toISOString();
  const steps: StepReport[] = [];
  try {
    const indexes = stepIndexes(collection, options.only);
    const secretValues = Object.values(options.secrets ?? {});
    const captured: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.captured ?? {})) put(captured, name, value);
    const state: RunState = {
      collection,
      executors,
      options,
      variables: variablesOf(collection, options.environment),
      captured,
      scrub: (text) => scrubSecrets(text, secretValues),
    };
    const total = indexes.length;
    for (const index of indexes) {
      const step = collection.steps[index]!;
      let report: StepReport;
      if (options.signal?.aborted) {
        report = { ...baseOf(state, step, index), status: "skipped", assertions: [], frames: [], captured: {}, error: STOPPED };
      } else {
        options.onEvent?.({ type: "step-start", index, name: step.name, total });
        report = await runStep(state, index);
      }
      steps.push(report);
      options.onEvent?.({ type: "step-end", report, total });
    }
  } finally {
    await Promise.allSettled(Object.values(executors).map(async (executor) => executor?.close()));
  }
  return {
    format: "patchbay.run",
    version: 1,
    collection: collection.name,
    environment: options.environment ?? null,
    startedAt,
    durationMs: options.now() - started,
    stopped: options.signal?.aborted ?? false,
    steps,
    totals: totalsOf(steps),
  };
}
