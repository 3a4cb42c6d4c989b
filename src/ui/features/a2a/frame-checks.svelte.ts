import { SvelteMap } from "svelte/reactivity";
import type { Override, Verdict } from "../../../core/validation/types.ts";
import type { Plan } from "./frame-plan.ts";

/** The validation engine's one-message check (the Validate workbench's worker). */
export type Validate = (text: string, override?: Override) => Promise<Verdict>;

/** Where one frame's check stands: with the engine, judged, or not checked and why. */
export type FrameCheck =
  | { readonly state: "checking" }
  | { readonly state: "not-checked"; readonly reason: string }
  | { readonly state: "judged"; readonly verdict: Verdict };

export interface CheckCounts {
  valid: number;
  /** Invalid, unrecognised or not JSON. */
  invalid: number;
  errorResponses: number;
  notChecked: number;
  checking: number;
}

/** The request body's key; answer frames are keyed by their index. */
export const REQUEST_KEY = -1;
/** Frames with the worker at once; the rest wait their turn. */
export const MAX_IN_FLIGHT = 4;
/** Frames waiting beyond this are not checked, so a flood costs a count, not a backlog. */
export const MAX_WAITING = 500;
/** Larger frames are shown but not checked: the worker would spend seconds on one. */
export const MAX_CHECKED_CHARS = 4 * 1024 * 1024;

interface Job {
  readonly key: number;
  readonly text: string;
  readonly override: Override | undefined;
}

/**
 * The verdicts of one exchange's frames. Checks run in the worker after the frames have been
 * shown, a few at a time, so a fast stream is never held up by its validation.
 */
export class FrameChecks {
  readonly #checks = new SvelteMap<number, FrameCheck>();
  readonly counts = $state<CheckCounts>({ valid: 0, invalid: 0, errorResponses: 0, notChecked: 0, checking: 0 });
  readonly #validate: Validate | undefined;
  readonly #waiting: Job[] = [];
  #inFlight = 0;

  constructor(validate: Validate | undefined) {
    this.#validate = validate;
  }

  get(key: number): FrameCheck | undefined {
    return this.#checks.get(key);
  }

  /** Checks `text` as `plan` says; a frame with no plan (a request without a body) is left alone. */
  add(key: number, text: string, plan: Plan | undefined): void {
    if (plan === undefined || this.#checks.has(key)) return;
    if (!plan.check) return this.#skip(key, plan.reason);
    if (!this.#validate) return this.#skip(key, "no validation engine here");
    if (text.length > MAX_CHECKED_CHARS) return this.#skip(key, `larger than the ${MAX_CHECKED_CHARS / 1024 / 1024} MB checked per frame`);
    if (this.#waiting.length >= MAX_WAITING) return this.#skip(key, `more than ${MAX_WAITING} frames were waiting for the validator`);
    this.#checks.set(key, { state: "checking" });
    this.counts.checking++;
    this.#waiting.push({ key, text, override: plan.override });
    this.#pump();
  }

  #skip(key: number, reason: string): void {
    this.#checks.set(key, { state: "not-checked", reason });
    this.counts.notChecked++;
  }

  #pump(): void {
    const validate = this.#validate;
    while (validate && this.#inFlight < MAX_IN_FLIGHT && this.#waiting.length > 0) {
      const job = this.#waiting.shift()!;
      this.#inFlight++;
      let pending: Promise<Verdict>;
      try {
        pending = validate(job.text, job.override);
      } catch (err) {
        pending = Promise.reject(err as Error);
      }
      pending.then(
        (verdict) => this.#land(job.key, verdict),
        (err: unknown) => this.#land(job.key, `the validator failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
  }

  #land(key: number, outcome: Verdict | string): void {
    this.#inFlight--;
    this.counts.checking--;
    if (typeof outcome === "string") this.#skip(key, outcome);
    else {
      this.#checks.set(key, { state: "judged", verdict: outcome });
      if (outcome.status === "valid") this.counts.valid++;
      else if (outcome.status === "error-response") this.counts.errorResponses++;
      else this.counts.invalid++;
    }
    this.#pump();
  }
}
