import { inputKey, ResultFor } from "../../lib/result-for.svelte.ts";
import { failure } from "./start-fields.ts";

/**
 * What both served surfaces share: one start or stop at a time, errors in words, and status reads
 * that a later action outdates.
 */
export abstract class SurfaceActions<S> {
  busy = $state(false);
  /** Why a status read failed; not about anything the user typed. */
  #readError = $state<string | null>(null);
  /** The toolkit the last start was asked with: its error goes stale once the editor moves on. */
  #kit = $state.raw<{ readonly text: string } | undefined>(undefined);
  readonly #startError = new ResultFor<string>(() => inputKey(this.#kit?.text, this.startFields()));
  /** The editor text that was started, to tell the user when the editor has moved on. */
  startedText = $state<string | null>(null);

  // Bumped by every action, so a status read that started earlier cannot undo a later start or stop.
  #version = 0;

  protected abstract apply(status: S): void;
  /** The surface's own start options, as typed: a start's error answers them too. */
  protected abstract startFields(): unknown;

  /** Why the last start, stop or read failed, in words; null when none did. */
  get error(): string | null {
    return this.#readError ?? this.#startError.value;
  }

  /** Sets the error of a start (or stop) made with the fields as they are now. */
  set error(message: string | null) {
    this.#readError = null;
    if (message === null) this.#startError.clear();
    else this.#startError.set(message);
  }

  /** True when the editor or the start options changed since the start that failed. */
  get errorStale(): boolean {
    return this.#readError === null && this.#startError.stale;
  }

  /** Remembers the toolkit a start is asked with, for the staleness of its error. */
  protected asking(kit: { readonly text: string }): void {
    this.#kit = kit;
  }

  protected async read(what: string, op: () => Promise<S>): Promise<void> {
    const version = this.#version;
    try {
      const status = await op();
      if (version === this.#version) this.apply(status);
    } catch (err) {
      if (version === this.#version) this.#readError = failure(what, err);
    }
  }

  protected async act(action: string, op: () => Promise<S>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    const version = ++this.#version;
    try {
      const status = await op();
      if (version === this.#version) this.apply(status);
    } catch (err) {
      this.error = failure(action, err);
    } finally {
      this.busy = false;
    }
  }
}
