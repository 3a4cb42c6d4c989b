/**
 * Bounds concurrent tool calls. MCP callers wait for a slot (`acquire`); NATS callers are refused
 * at once when full (`tryAcquire`). A release is idempotent, so a slot is never freed twice.
 */
export class Semaphore {
  readonly #limit: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a concurrency limit must be a whole number of at least 1, not ${limit}`);
    this.#limit = limit;
  }

  get limit(): number {
    return this.#limit;
  }
  get active(): number {
    return this.#active;
  }
  get waiting(): number {
    return this.#waiting.length;
  }

  /** A release function, or undefined when every slot is taken. */
  tryAcquire(): (() => void) | undefined {
    if (this.#active >= this.#limit) return undefined;
    this.#active++;
    return this.#releaser();
  }

  /** Waits for a slot; rejects if the signal aborts first (the wait is then dropped). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error("cancelled while waiting for a free slot"));
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.#active++;
        resolve(this.#releaser());
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(grant);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(new Error("cancelled while waiting for a free slot"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#waiting.shift()?.();
    };
  }
}
