/**
 * The collection runner's view of the backend's /api/harness routes: start a run, read its
 * progress, stop it. The answers are checked at the level the page relies on (the run's state,
 * counts and each step's status and name); a malformed one becomes a plain error.
 */
import type { RunProgress, RunStart } from "../harness/run-api-types.ts";
import type { RunReport, StepReport, StepStatus } from "../harness/index.ts";

export type { RunProgress, RunStart };
import type { BackendClient } from "./backend-client.ts";
import { Reader } from "./serve-api-read.ts";

const STATUSES: ReadonlySet<string> = new Set<StepStatus>(["passed", "failed", "error", "skipped"]);

function stepReport(r: Reader, v: unknown, path: string): StepReport {
  const o = r.obj(v, path);
  r.num(o, "index", path);
  r.str(o, "name", path);
  if (!STATUSES.has(String(o.status))) r.fail(`${path}.status`, "passed, failed, error or skipped");
  r.list(o, "assertions", path, (a, p) => r.obj(a, p));
  r.list(o, "frames", path, (f, p) => r.obj(f, p));
  return o as unknown as StepReport;
}

function progress(r: Reader, body: unknown): RunProgress {
  const o = r.obj(body, "");
  const state = o.state === "running" || o.state === "done" ? o.state : r.fail(".state", '"running" or "done"');
  const current = o.current === null ? null : r.obj(o.current, ".current");
  const report = o.report === null ? null : r.obj(o.report, ".report");
  if (report) r.list(report, "steps", ".report", (s, p) => stepReport(r, s, p));
  return {
    id: r.str(o, "id", ""),
    state,
    collection: r.str(o, "collection", ""),
    total: r.num(o, "total", ""),
    current: current ? { index: r.num(current, "index", ".current"), name: r.str(current, "name", ".current") } : null,
    steps: r.list(o, "steps", "", (s, p) => stepReport(r, s, p)),
    finished: r.num(o, "finished", ""),
    report: report as unknown as RunReport | null,
  };
}

export class HarnessApi {
  readonly #client: Pick<BackendClient, "call">;

  constructor(client: Pick<BackendClient, "call">) {
    this.#client = client;
  }

  async start(input: RunStart): Promise<string> {
    const body = await this.#client.call<unknown>("POST", "/harness/runs", input);
    const r = new Reader("POST /api/harness/runs");
    return r.str(r.obj(body, ""), "id", "");
  }

  /** The run's state and the steps that finished after the first `after`. */
  async progress(id: string, after: number): Promise<RunProgress> {
    if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`after must be a whole number of 0 or more, not ${after}`);
    const body = await this.#client.call<unknown>("GET", `/harness/runs/${encodeURIComponent(id)}?after=${after}`);
    return progress(new Reader("GET /api/harness/runs/:id"), body);
  }

  async stop(id: string): Promise<void> {
    await this.#client.call<unknown>("POST", `/harness/runs/${encodeURIComponent(id)}/stop`, {});
  }
}
