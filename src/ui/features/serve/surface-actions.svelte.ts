import { failure } from "./start-fields.ts";

/**
 * What both served surfaces share: one start or stop at a time, errors in words, and status reads
 * that a later action outdates.
 */
export abstract class SurfaceActions<S> {
  busy = $state(false);
  error = $state<string | null>(null);
  /** The editor text that was started, to tell the user when the editor has moved on. */
  startedText = $state<string | null>(null);

  // Bumped by every action, so a status read that started earlier cannot undo a later start or stop.
  #version = 0;

  protected abstract apply(status: S): void;

  protected async read(what: string, op: () => Promise<S>): Promise<void> {
    const version = this.#version;
    try {
      const status = await op();
      if (version === this.#version) this.apply(status);
    } catch (err) {
      if (version === this.#version) this.error = failure(what, err);
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
