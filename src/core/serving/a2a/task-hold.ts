import type { Scheduler } from "../../env/scheduler.ts";

/** A wait of `ms` that a message can start again; `done` is false when the signal aborts first. */
export class Hold {
  readonly done: Promise<boolean>;
  readonly #scheduler: Scheduler;
  readonly #ms: number;
  #cancel: () => void = () => undefined;
  #resolve: (waited: boolean) => void = () => undefined;

  constructor(scheduler: Scheduler, ms: number, signal: AbortSignal) {
    this.#scheduler = scheduler;
    this.#ms = ms;
    let settle: (waited: boolean) => void = () => undefined;
    this.done = new Promise<boolean>((resolve) => (settle = resolve));
    const onAbort = () => {
      this.#cancel();
      finish(false);
    };
    const finish = (waited: boolean) => {
      signal.removeEventListener("abort", onAbort);
      settle(waited);
    };
    this.#resolve = finish;
    if (signal.aborted) {
      finish(false);
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    this.restart();
  }

  restart(): void {
    this.#cancel();
    this.#cancel = this.#scheduler.after(this.#ms, () => this.#resolve(true));
  }
}
