/**
 * A step's time limit and stop, as one signal: it aborts when the step's own limit runs out or
 * when the runner aborts the step, and says which. The runner aborts at the same limit (its timer
 * starts a moment earlier), so an abort that comes at the limit is a timeout, not a stop.
 */
import type { ExecutorContext } from "../../src/core/harness/run-types.ts";
import { untilAborted } from "../../src/core/events/index.ts";

/** An abort this close to the limit is the limit's. */
const AT_LIMIT_MS = 100;

export interface StepLimit {
  readonly signal: AbortSignal;
  /** performance.now() when the step started. */
  readonly startedAt: number;
  /** Why the step was stopped, or null while it runs. */
  why(): "timeout" | "cancelled" | null;
  /** What is left of the limit, at least 1 ms. */
  remainingMs(): number;
  dispose(): void;
}

export function stepLimit(ctx: ExecutorContext, timeoutMs: number): StepLimit {
  const startedAt = performance.now();
  const controller = new AbortController();
  let why: "timeout" | "cancelled" | null = null;
  const stop = (reason: "timeout" | "cancelled"): void => {
    if (why !== null) return;
    why = reason;
    controller.abort(new Error(reason === "timeout" ? `the step's time limit of ${timeoutMs} ms was reached` : "the step was stopped"));
  };
  const timer = setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = (): void => stop(performance.now() - startedAt >= timeoutMs - AT_LIMIT_MS ? "timeout" : "cancelled");
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    startedAt,
    why: () => why,
    remainingMs: () => Math.max(1, Math.round(timeoutMs - (performance.now() - startedAt))),
    dispose: () => {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    },
  };
}

export class StepStoppedError extends Error {
  override readonly name = "StepStoppedError";
}

/** The promise, or a StepStoppedError as soon as the signal aborts (the promise is left to settle alone). */
export function unlessStopped<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return untilAborted(promise, signal, () => new StepStoppedError("stopped"));
}

/** Waits at most `ms` for the promise; never rejects. */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
