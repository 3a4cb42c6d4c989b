import type { MethodEntry } from "./catalog.ts";

/**
 * The open requests of one batch by id, oldest first, forgetting the oldest beyond a bound. It
 * counts its number and string ids: a mixed capture's other protocol answers with ids of a type
 * A2A has none open under (MCP's numbers beside A2A's strings), and those lookups then skip a
 * large map, whose probes miss the cache.
 */
export class PendingRequests {
  readonly #open = new Map<string | number, MethodEntry>();
  readonly #limit: number;
  #numbers = 0;
  #strings = 0;
  /**
   * One iterator kept for evictions: everything before it was evicted, so its next key is the
   * oldest. A fresh keys().next() would walk every deleted slot before the first live one.
   */
  #oldest: Iterator<string | number> | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#open.size;
  }

  get(id: unknown): MethodEntry | undefined {
    if (typeof id === "number") return this.#numbers === 0 ? undefined : this.#open.get(id);
    if (typeof id === "string") return this.#strings === 0 ? undefined : this.#open.get(id);
    return undefined;
  }

  /** Remembers an open request as the newest; a repeated id moves to the end, so the oldest is forgotten first. */
  remember(id: string | number, entry: MethodEntry): void {
    const size = this.#open.size;
    this.#open.set(id, entry);
    // A new id grew the map and is already last: the usual case costs one lookup, not two.
    if (this.#open.size === size) {
      this.#open.delete(id);
      this.#open.set(id, entry);
    } else if (typeof id === "number") this.#numbers++;
    else this.#strings++;
    if (this.#open.size > this.#limit) {
      const oldest = (this.#oldest ??= this.#open.keys()).next();
      if (!oldest.done) this.forget(oldest.value);
    }
  }

  forget(id: unknown): void {
    if (typeof id === "number") {
      if (this.#open.delete(id)) this.#numbers--;
    } else if (typeof id === "string") {
      if (this.#open.delete(id)) this.#strings--;
    }
  }
}
