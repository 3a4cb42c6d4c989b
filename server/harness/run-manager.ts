/**
 * Collection runs started from the page: one at a time, run by the same core runner and Node
 * executors as `patchbay run`, read back by polling (GET only reads). Secrets typed in the page
 * arrive in the start body, live only for that run and are scrubbed from what it reports.
 */
import { systemScheduler } from "../../src/core/env/index.ts";
import { parseCollection, runCollection, type Executors, type RunReport, type StepReport, type TargetSpec } from "../../src/core/harness/index.ts";
import type { RunProgress } from "../../src/core/harness/run-api-types.ts";
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";

/** Finished runs kept for reading back, newest last. */
const KEPT_RUNS = 8;
const MAX_SECRETS = 100;

interface RunRecord {
  readonly id: string;
  readonly collection: string;
  readonly total: number;
  readonly controller: AbortController;
  readonly steps: StepReport[];
  current: { index: number; name: string } | null;
  report: RunReport | null;
  failure: string | null;
}

export interface RunManagerDeps {
  readonly executors: () => Executors;
  readonly newId: () => string;
}

function stringMap(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) throw new HttpError(400, "invalid_body", `"${field}" must be an object of strings`);
  const out: Record<string, string> = {};
  const entries = Object.entries(value);
  if (entries.length > MAX_SECRETS * 10) throw new HttpError(400, "invalid_body", `"${field}" has too many entries`);
  for (const [k, v] of entries) {
    if (typeof v !== "string") throw new HttpError(400, "invalid_body", `"${field}.${k}" must be a string`);
    out[k] = v;
  }
  return out;
}

function indexes(value: unknown, steps: number): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((i) => !Number.isInteger(i) || (i as number) < 0 || (i as number) >= steps)) {
    throw new HttpError(400, "invalid_body", `"only" must be a non-empty list of step indexes from 0 to ${steps - 1}`);
  }
  return value as number[];
}

function targetsOf(value: unknown): Record<string, TargetSpec> | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value) || Object.values(value).some((t) => !isJsonObject(t))) throw new HttpError(400, "invalid_body", '"targets" must map target names to target objects');
  return value as Record<string, TargetSpec>;
}

export class RunManager {
  readonly #deps: RunManagerDeps;
  readonly #runs = new Map<string, RunRecord>();

  constructor(deps: RunManagerDeps) {
    this.#deps = deps;
  }

  /** Starts a run; 400 for a bad body or collection (every problem named), 409 while one runs. */
  start(body: unknown): { id: string } {
    if (!isJsonObject(body)) throw new HttpError(400, "invalid_body", 'expected a JSON object of the form {"collection": …}');
    const parsed = parseCollection(body.collection);
    if (!parsed.ok) {
      const shown = parsed.problems.slice(0, 20).map((p) => `${p.pointer || "/"}: ${p.message}`);
      const more = parsed.problems.length > shown.length ? `; and ${parsed.problems.length - shown.length} more` : "";
      throw new HttpError(400, "invalid_collection", `the collection is not valid: ${shown.join("; ")}${more}`);
    }
    const collection = parsed.collection;
    const environment = body.environment;
    if (environment !== undefined && (typeof environment !== "string" || !Object.hasOwn(collection.environments, environment))) {
      throw new HttpError(400, "unknown_environment", `no environment ${JSON.stringify(environment)} in the collection (it has: ${Object.keys(collection.environments).join(", ") || "none"})`);
    }
    const secrets = stringMap(body.secrets, "secrets");
    const captured = stringMap(body.captured, "captured");
    const only = indexes(body.only, collection.steps.length);
    const targets = targetsOf(body.targets);
    if ([...this.#runs.values()].some((r) => r.report === null && r.failure === null)) throw new HttpError(409, "run_active", "a collection is running; stop it or wait for it to finish");
    const record: RunRecord = { id: this.#deps.newId(), collection: collection.name, total: only?.length ?? collection.steps.length, controller: new AbortController(), steps: [], current: null, report: null, failure: null };
    this.#runs.set(record.id, record);
    this.#trim();
    void runCollection(collection, this.#deps.executors(), {
      ...(typeof environment === "string" ? { environment } : {}),
      ...(secrets ? { secrets } : {}),
      ...(captured ? { captured } : {}),
      ...(only ? { only } : {}),
      ...(targets ? { targets } : {}),
      signal: record.controller.signal,
      now: () => performance.now(),
      wallNow: () => Date.now(),
      scheduler: systemScheduler(),
      // The page shows every step's frames; a smaller cap keeps a long run's memory bounded.
      frameTextLimit: 64 * 1024,
      onEvent: (event) => {
        if (event.type === "step-start") record.current = { index: event.index, name: event.name };
        else {
          record.current = null;
          record.steps.push(event.report);
        }
      },
    }).then(
      (report) => {
        record.report = report;
      },
      (err: unknown) => {
        record.failure = (err as Error).message;
      },
    );
    return { id: record.id };
  }

  view(id: string, after: number): RunProgress {
    const record = this.#get(id);
    if (record.failure !== null) throw new HttpError(500, "run_failed", `the run failed: ${record.failure}`);
    return {
      id,
      state: record.report ? "done" : "running",
      collection: record.collection,
      total: record.total,
      current: record.current,
      steps: record.steps.slice(after),
      finished: record.steps.length,
      report: record.report,
    };
  }

  stop(id: string): { stopped: boolean } {
    const record = this.#get(id);
    const running = record.report === null;
    record.controller.abort();
    return { stopped: running };
  }

  /** Stops every run, for the backend closing. */
  close(): void {
    for (const record of this.#runs.values()) record.controller.abort();
  }

  #get(id: string): RunRecord {
    const record = this.#runs.get(id);
    if (!record) throw new HttpError(404, "unknown_run", `no run ${JSON.stringify(id)} (only the last ${KEPT_RUNS} are kept)`);
    return record;
  }

  #trim(): void {
    for (const [id, record] of this.#runs) {
      if (this.#runs.size <= KEPT_RUNS) break;
      if (record.report !== null || record.failure !== null) this.#runs.delete(id);
    }
  }
}
