import type { MethodEntry } from "./catalog.ts";

/**
 * The open requests of one batch by id, oldest first, forgetting the oldest beyond a bound.
 *
 * Requests are first listed in order and put in the map only when something asks (a lookup, a
 * forget, the size), in the order they came, so the map ends as it would have: a capture whose
 * requests are never answered, or answered under ids of a type A2A has none open under (MCP's
 * numbers beside A2A's strings), costs a list append per request rather than a hash-table insert.
 * It counts its number and string ids, listed and open, so those other answers skip the map.
 */
export class PendingRequests {
  readonly #open = new Map<string | number, MethodEntry>();
  readonly #limit: number;
  /** Ids of each type listed or open: a repeated id is counted once it is indexed. */
  #numbers = 0;
  #strings = 0;
  /**
   * Remembered, not yet in the map, as id and entry pairs in one list (one append per request);
   * at most `limit` pairs, so memory stays bounded.
   */
  #listed: (string | number | MethodEntry)[] = [];
  /**
   * One iterator kept for evictions: everything before it was evicted, so its next key is the
   * oldest. A fresh keys().next() would walk every deleted slot before the first live one.
   */
  #oldest: Iterator<string | number> | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    this.#index();
    return this.#open.size;
  }

  get(id: unknown): MethodEntry | undefined {
    if (typeof id === "number") {
      if (this.#numbers === 0) return undefined;
    } else if (typeof id !== "string" || this.#strings === 0) return undefined;
    this.#index();
    return this.#open.get(id);
  }

  /** Remembers an open request as the newest; a repeated id moves to the end, so the oldest is forgotten first. */
  remember(id: string | number, entry: MethodEntry): void {
    this.#listed.push(id, entry);
    if (typeof id === "number") this.#numbers++;
    else this.#strings++;
    if (this.#listed.length >= 2 * this.#limit) this.#index();
  }

  forget(id: unknown): void {
    this.#index();
    if (typeof id === "number") {
      if (this.#open.delete(id)) this.#numbers--;
    } else if (typeof id === "string") {
      if (this.#open.delete(id)) this.#strings--;
    }
  }

  /** Puts the listed requests in the map, in order, with the evictions they would have caused. */
  #index(): void {
    const listed = this.#listed;
    if (listed.length === 0) return;
    this.#listed = [];
    for (let i = 0; i < listed.length; i += 2) this.#insert(listed[i] as string | number, listed[i + 1] as MethodEntry);
  }

  #insert(id: string | number, entry: MethodEntry): void {
    const size = this.#open.size;
    this.#open.set(id, entry);
    // A new id grew the map and is already last, counted when listed: the usual case costs one lookup, not two.
    if (this.#open.size === size) {
      this.#open.delete(id);
      this.#open.set(id, entry);
      // A repeated id was counted twice, once open and once listed.
      if (typeof id === "number") this.#numbers--;
      else this.#strings--;
    }
    if (this.#open.size > this.#limit) {
      const oldest = (this.#oldest ??= this.#open.keys()).next();
      if (!oldest.done) this.#drop(oldest.value);
    }
  }

  #drop(id: string | number): void {
    if (this.#open.delete(id)) {
      if (typeof id === "number") this.#numbers--;
      else this.#strings--;
    }
  }
}
