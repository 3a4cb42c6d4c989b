import type { Override, Verdict } from "../../../core/validation/types.ts";
import { type CheckJob, type FrameVerdict, frameVerdict } from "./raw-frame-check.ts";

/** What the queue needs from the validation worker; `ValidationClient` is one. */
export interface FrameChecker {
  /** With `session`, judged after the frames asked about earlier under that name. */
  validateOne(text: string, override?: Override, session?: string): Promise<Verdict>;
}

/** Schedules one flush of results; tests pass their own. */
export type Defer = (run: () => void) => void;

export const MAX_QUEUED = 500;
export const MAX_IN_FLIGHT = 8;
export const FLUSH_MS = 50;

const later: Defer = (run) => void setTimeout(run, FLUSH_MS);

let sessions = 0;
const nextSession = (): string => `frames-${++sessions}`;

/**
 * Frames waiting for the validation worker. At most MAX_IN_FLIGHT are with the worker at once and
 * MAX_QUEUED wait; a frame arriving at a full queue is not validated and is counted, so a flood
 * costs a number on screen instead of a growing backlog. Verdicts are handed over in batches, at
 * most one per FLUSH_MS, so the page re-renders per batch rather than per frame. Frames go to the
 * worker in order, into one validation session until `clear`, so a call is checked against the
 * tools listed before it and a result against the call it answers.
 */
export class CheckQueue {
  readonly #checker: FrameChecker;
  readonly #deliver: (verdicts: ReadonlyMap<number, FrameVerdict>) => void;
  readonly #defer: Defer;
  readonly #maxQueued: number;
  #queue: CheckJob[] = [];
  #head = 0;
  #inFlight = 0;
  #ready = new Map<number, FrameVerdict>();
  #flushing = false;
  #generation = 0;
  #session = nextSession();

  constructor(
    checker: FrameChecker,
    deliver: (verdicts: ReadonlyMap<number, FrameVerdict>) => void,
    options: { readonly defer?: Defer; readonly maxQueued?: number } = {},
  ) {
    this.#checker = checker;
    this.#deliver = deliver;
    this.#defer = options.defer ?? later;
    this.#maxQueued = options.maxQueued ?? MAX_QUEUED;
  }

  /** Frames waiting or with the worker. */
  get pending(): number {
    return this.#queue.length - this.#head + this.#inFlight;
  }

  /** True when a frame added now would not be validated. */
  get full(): boolean {
    return this.#queue.length - this.#head >= this.#maxQueued;
  }

  /** Queues a frame; false when the queue is full and the frame will not be validated. */
  add(job: CheckJob): boolean {
    if (this.full) return false;
    this.#queue.push(job);
    this.#pump();
    return true;
  }

  /** Drops everything waiting and starts a new session; answers still coming for earlier frames are ignored. */
  clear(): void {
    this.#generation++;
    this.#session = nextSession();
    this.#queue = [];
    this.#head = 0;
    this.#inFlight = 0;
    this.#ready = new Map();
  }

  #pump(): void {
    while (this.#inFlight < MAX_IN_FLIGHT && this.#head < this.#queue.length) {
      const job = this.#queue[this.#head++]!;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      this.#inFlight++;
      const generation = this.#generation;
      void this.#check(job).then((verdict) => {
        if (generation !== this.#generation) return;
        this.#inFlight--;
        this.#ready.set(job.seq, verdict);
        this.#schedule();
        this.#pump();
      });
    }
  }

  async #check(job: CheckJob): Promise<FrameVerdict> {
    try {
      const verdicts = await Promise.all(job.texts.map((text) => this.#one(text, job)));
      return frameVerdict(job, verdicts);
    } catch (error) {
      return { status: "not-checked", reason: `Not checked: ${(error as Error).message}` };
    }
  }

  async #one(text: string, job: CheckJob): Promise<Verdict> {
    const session = this.#session;
    const verdict = await this.#checker.validateOne(text, job.override, session);
    return verdict.status === "unrecognised" && job.fallback ? this.#checker.validateOne(text, job.fallback, session) : verdict;
  }

  #schedule(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    this.#defer(() => {
      this.#flushing = false;
      if (this.#ready.size === 0) return;
      const ready = this.#ready;
      this.#ready = new Map();
      this.#deliver(ready);
    });
  }
}
