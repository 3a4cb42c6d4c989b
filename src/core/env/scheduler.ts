/**
 * Deferred work, injected like the clock so timeouts can be tested without waiting. `after`
 * returns a function that cancels the call if it has not run.
 */
export interface Scheduler {
  after(ms: number, run: () => void): () => void;
}

/** The runtime's timers. */
export function systemScheduler(): Scheduler {
  return {
    after(ms, run) {
      const handle = setTimeout(run, ms);
      return () => clearTimeout(handle);
    },
  };
}

/** A scheduler for tests: nothing runs until `advance` moves its time past the due time. */
export class ManualScheduler implements Scheduler {
  #now = 0;
  #next = 0;
  readonly #due = new Map<number, { at: number; run: () => void }>();

  after(ms: number, run: () => void): () => void {
    const id = this.#next++;
    this.#due.set(id, { at: this.#now + Math.max(0, ms), run });
    return () => this.#due.delete(id);
  }

  /** How many calls are waiting. */
  get pending(): number {
    return this.#due.size;
  }

  /** Moves time forward, running every call that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let first: [number, { at: number; run: () => void }] | undefined;
      for (const entry of this.#due) if (entry[1].at <= end && (!first || entry[1].at < first[1].at)) first = entry;
      if (!first) break;
      this.#due.delete(first[0]);
      this.#now = first[1].at;
      first[1].run();
    }
    this.#now = end;
  }
}
