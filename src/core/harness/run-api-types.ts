/** The /api/harness wire shapes, shared by the backend's run manager and the page's client. */
import type { TargetSpec } from "./collection-types.ts";
import type { RunReport, StepReport } from "./run-types.ts";

/** What starting a run takes: the collection as data, and what this run fills in. */
export interface RunStart {
  readonly collection: unknown;
  readonly environment?: string;
  /** Typed in the page; used for this run only and scrubbed from what it reports. */
  readonly secrets?: Readonly<Record<string, string>>;
  readonly targets?: Readonly<Record<string, TargetSpec>>;
  /** Step indexes to run (re-running one), with the values earlier steps captured. */
  readonly only?: readonly number[];
  readonly captured?: Readonly<Record<string, string>>;
}

/** A run as a polling reader sees it. */
export interface RunProgress {
  readonly id: string;
  readonly state: "running" | "done";
  readonly collection: string;
  readonly total: number;
  /** The step running now, when one is. */
  readonly current: { readonly index: number; readonly name: string } | null;
  /** Finished steps after the `after` the reader gave, in order. */
  readonly steps: readonly StepReport[];
  /** How many steps have finished; the next `after`. */
  readonly finished: number;
  readonly report: RunReport | null;
}
