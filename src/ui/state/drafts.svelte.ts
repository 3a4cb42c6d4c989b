import { onDestroy, untrack } from "svelte";
import { isJsonObject } from "../../core/json/json-object.ts";
import { DraftStore, fitsShape, memoryDraftStorage, type DraftRead, type DraftStorage } from "../../core/persist/drafts.ts";

/** How far Serve read each surface's frames: kept and cleared with the Traffic log it fed. */
export const SERVED_CURSORS_DRAFT = "serve.cursors";

/** Quiet time after the last change before a draft is written. */
const SAVE_DELAY_MS = 250;

interface PendingWrite {
  readonly timer: ReturnType<typeof setTimeout>;
  readonly data: () => unknown;
}

/**
 * The page's drafts: one store over the browser storage main.ts hands it (memory until then, so
 * tests and server-side code keep nothing), the names held, and the last problem writing one.
 */
export class Drafts {
  /** Drafts held in the storage now. */
  names = $state.raw<readonly string[]>([]);
  /** Why the last write failed (a full storage), until one succeeds. */
  problem = $state<string | null>(null);

  /** Counts the clears: a save timed before the last one must not bring a cleared draft back. */
  generation = 0;

  #store = new DraftStore(memoryDraftStorage(), () => 0);
  // Writes waiting for a quiet moment; nothing shows them, so they are not reactive.
  readonly #pending: Record<string, PendingWrite> = Object.create(null) as Record<string, PendingWrite>;

  /** Keep drafts in `storage` from now on (the browser's sessionStorage, in main.ts). */
  use(storage: DraftStorage, wallNow: () => number): void {
    this.#store = new DraftStore(storage, wallNow);
    this.names = this.#store.names();
  }

  read(name: string): DraftRead {
    return this.#store.read(name);
  }

  /** Writes now; returns whether it was kept. */
  save(name: string, data: unknown): boolean {
    this.#cancel(name);
    const result = this.#store.write(name, data);
    // Saving from an effect must not make that effect depend on the list of names.
    untrack(() => {
      this.problem = result.ok ? null : `Could not keep the ${name} draft: ${result.reason}`;
      if (result.ok && !this.names.includes(name)) this.names = [...this.names, name].sort();
    });
    return result.ok;
  }

  /** Writes after a quiet moment; `data` is read then, so a burst of changes costs one write. */
  schedule(name: string, data: () => unknown): void {
    this.#cancel(name);
    this.#pending[name] = { timer: setTimeout(() => this.save(name, data()), SAVE_DELAY_MS), data };
  }

  /** Writes the scheduled drafts now (all of them, or the one named): the page or its owner is going away. */
  flush(only?: string): void {
    for (const [name, pending] of Object.entries(this.#pending)) if (only === undefined || name === only) this.save(name, pending.data());
  }

  /** Writes one piece of a big draft (see DraftStore.writePart); a refusal is the page's problem. */
  savePart(name: string, index: number, tag: string, text: string): boolean {
    const result = this.#store.writePart(name, index, tag, text);
    if (!result.ok) untrack(() => (this.problem = `Could not keep the ${name} draft: ${result.reason}`));
    return result.ok;
  }

  readParts(name: string, tag: string, count: number): { ok: true; text: string } | { ok: false; reason: string } {
    return this.#store.readParts(name, tag, count);
  }

  removeParts(name: string, from: number): void {
    this.#store.removeParts(name, from);
  }

  remove(name: string): void {
    this.#cancel(name);
    this.#store.remove(name);
    untrack(() => (this.names = this.names.filter((n) => n !== name)));
  }

  /** Forgets every saved draft; what is on the page stays until it is changed again. */
  clear(): number {
    for (const name of Object.keys(this.#pending)) this.#cancel(name);
    this.generation++;
    const n = this.#store.clear();
    this.names = [];
    this.problem = null;
    return n;
  }

  #cancel(name: string): void {
    const pending = this.#pending[name];
    if (pending) clearTimeout(pending.timer);
    delete this.#pending[name];
  }
}

/** The one set of drafts of this page. */
export const drafts = new Drafts();

/** Stops the effects with the component being set up, if any; otherwise the caller owns `stop`. */
function tieToComponent(stop: () => void): () => void {
  try {
    onDestroy(stop);
  } catch {
    // Made outside a component (app-wide state, tests): it lives as long as the page.
  }
  return stop;
}

/**
 * Restores a draft through `restore`, then saves `snapshot()` whenever what it reads changes.
 * `snapshot` returning undefined saves nothing (nothing worth keeping right now).
 */
export function keepDraft(name: string, snapshot: () => unknown, restore: (data: unknown) => void, store: Drafts = drafts): () => void {
  const read = store.read(name);
  if (read.kind === "ok") restore(read.data);
  let first = true;
  const stop = $effect.root(() => {
    $effect(() => {
      const value = snapshot();
      if (first) return void (first = false);
      if (value !== undefined) store.schedule(name, () => value);
    });
  });
  // A workbench opened again right away reads what was typed last, not a write still waiting.
  return tieToComponent(() => {
    stop();
    store.flush(name);
  });
}

/** The named fields of `target` as plain JSON. */
export function fieldsOf<T extends object>(target: T, keys: readonly (keyof T & string)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = $state.snapshot(target[key]);
  return out;
}

/** Copies each saved field that still has the shape of the field it goes into; returns those copied. */
export function restoreFields<T extends object>(target: T, keys: readonly (keyof T & string)[], data: unknown): string[] {
  if (!isJsonObject(data)) return [];
  const copied: string[] = [];
  for (const key of keys) {
    if (!(key in data) || !fitsShape($state.snapshot(target[key]), data[key])) continue;
    target[key] = data[key] as T[typeof key];
    copied.push(key);
  }
  return copied;
}

/**
 * Keeps the listed fields of a form across reloads. List only what may be stored: never a
 * password, token, seed or creds text.
 */
export function keepFields<T extends object>(target: T, name: string, keys: readonly (keyof T & string)[], store: Drafts = drafts): () => void {
  return keepDraft(name, () => fieldsOf(target, keys), (data) => restoreFields(target, keys, data), store);
}

/** Asks the browser to confirm leaving the page while `dirty()` holds; returns the remover. */
export function warnBeforeLeaving(dirty: () => boolean): () => void {
  if (typeof window === "undefined") return () => {};
  const listener = (event: BeforeUnloadEvent) => {
    if (!dirty()) return;
    event.preventDefault();
    // Older engines show the prompt only when returnValue is set.
    event.returnValue = "";
  };
  window.addEventListener("beforeunload", listener);
  return () => window.removeEventListener("beforeunload", listener);
}
