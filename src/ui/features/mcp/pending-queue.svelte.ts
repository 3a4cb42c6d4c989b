interface Waiting<P, A> {
  readonly pending: P;
  readonly resolve: (answer: A) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Requests the server is waiting on, answered one at a time in arrival order: `current` is the one
 * shown, later ones wait their turn. `onShow` runs whenever a different request (or none) comes up.
 */
export class PendingQueue<P, A> {
  current = $state.raw<P | null>(null);
  /** How many wait behind the current one. */
  waiting = $state(0);
  #queue: Waiting<P, A>[] = [];
  readonly #onShow: (next: P | null) => void;

  constructor(onShow: (next: P | null) => void = () => {}) {
    this.#onShow = onShow;
  }

  /** Queues a request; the promise settles when it is answered or refused. */
  add(pending: P): Promise<A> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ pending, resolve, reject });
      if (this.#queue.length === 1) this.#show();
      else this.waiting = this.#queue.length - 1;
    });
  }

  /** Answers the current request and shows the next. */
  answer(answer: A): void {
    this.#settle((w) => w.resolve(answer));
  }

  /** Refuses the current request (its promise rejects) and shows the next. */
  refuse(error: Error): void {
    this.#settle((w) => w.reject(error));
  }

  /** Settles every request at once, for when the connection goes away. */
  clear(settle: { readonly answer: A } | { readonly error: Error }): void {
    const queue = this.#queue;
    this.#queue = [];
    this.#show();
    for (const w of queue) {
      if ("error" in settle) w.reject(settle.error);
      else w.resolve(settle.answer);
    }
  }

  #settle(how: (w: Waiting<P, A>) => void): void {
    const current = this.#queue.shift();
    if (!current) return;
    how(current);
    this.#show();
  }

  #show(): void {
    const next = this.#queue[0]?.pending ?? null;
    this.current = next;
    this.waiting = Math.max(0, this.#queue.length - 1);
    this.#onShow(next);
  }
}
