import type { WireEntry } from "../../src/core/wire/index.ts";

/**
 * How long after the step that sent it a frame's late answers are still told apart. A step's
 * requests end with it or within their own limits (a task's cancel, which the step waits on
 * only briefly), and a reply stream ends when its step stops listening; this leaves room for a
 * slow connection without letting the ids of a long session pile up.
 */
export const LATE_ANSWER_MS = 30_000;

/**
 * The correlation ids of what earlier steps on one connection sent, each kept until no late
 * answer to it can still come. Ids are kept in the order they were sent and all live equally
 * long, so the oldest go first and pruning stops at the first one still live.
 */
export class EarlierSends {
  readonly #until = new Map<string, number>();

  get size(): number {
    return this.#until.size;
  }

  has(id: string): boolean {
    return this.#until.has(id);
  }

  /** Forgets ids whose time is up at `now`. */
  prune(now: number): void {
    for (const [id, until] of this.#until) {
      if (until >= now) break;
      this.#until.delete(id);
    }
  }

  add(id: string, now: number): void {
    this.#until.set(id, now + LATE_ANSWER_MS);
  }
}

/**
 * A step's own frames: what it sent, and what came in, less late answers to what earlier steps
 * sent (a task's cancel that outlasted the brief wait its step gave it is answered during the
 * next step). The step's sends join `earlier` as of `now`, the step's end.
 */
export function ownEntries(earlier: EarlierSends, window: readonly WireEntry[], now: number): WireEntry[] {
  earlier.prune(now);
  const own = window.filter((e) => e.direction === "out" || e.correlationId === undefined || !earlier.has(e.correlationId));
  for (const e of window) if (e.direction === "out" && e.correlationId !== undefined) earlier.add(e.correlationId, now);
  return own;
}
