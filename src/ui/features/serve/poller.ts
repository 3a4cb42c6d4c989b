import type { Scheduler } from "../../../core/env/index.ts";

/**
 * Runs `task` now and then `everyMs` after each run finishes, so slow answers never pile up;
 * returns the function that stops it (a run under way finishes, none follows).
 */
export function repeat(scheduler: Scheduler, everyMs: number, task: () => Promise<void>): () => void {
  let stopped = false;
  let cancel: (() => void) | undefined;
  const run = (): void => {
    cancel = undefined;
    if (stopped) return;
    void task()
      .catch(() => undefined)
      .then(() => {
        if (!stopped) cancel = scheduler.after(everyMs, run);
      });
  };
  run();
  return () => {
    stopped = true;
    cancel?.();
  };
}
