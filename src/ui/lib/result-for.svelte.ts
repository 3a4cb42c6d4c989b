/**
 * What a workbench shows for an input (a result, an error, a problem), held with the input it
 * answers, named by a key. Once the input on screen has another key the answer is stale: views
 * say so, or drop it, rather than present it as the answer to what is on screen now.
 */
export class ResultFor<T> {
  #held = $state.raw<{ readonly value: T; readonly key: string } | null>(null);
  readonly #current: () => string;

  /** `current` names the input on screen now. */
  constructor(current: () => string) {
    this.#current = current;
  }

  /** Holds `value` as the answer to the input named `key`: by default the input as it is now. */
  set(value: T, key: string = this.#current()): void {
    this.#held = { value, key };
  }

  clear(): void {
    this.#held = null;
  }

  /** The key of the input as it is now, to give `set` once an answer to it arrives. */
  key(): string {
    return this.#current();
  }

  /** The answer held, stale or not; null when there is none. */
  get value(): T | null {
    return this.#held ? this.#held.value : null;
  }

  /** True when an answer is held and the input has changed since it was asked. */
  get stale(): boolean {
    const held = this.#held;
    return held !== null && held.key !== this.#current();
  }
}

/** A key naming an input made of several parts. */
export function inputKey(...parts: readonly unknown[]): string {
  return JSON.stringify(parts);
}
