/**
 * Values by string key, the last few found by comparing keys rather than hashing them. JSON.parse
 * interns only short strings, so a method name or protocol id longer than that arrives as a
 * fresh string, and a Map would compute its hash on every message. Comparing it with a handful of
 * recent keys costs less: most differ in length, the rest within a few characters.
 */
export class RecentStrings<V> {
  readonly #keys: string[] = [];
  readonly #values: V[] = [];
  readonly #size: number;
  /** The slot the next new key replaces, once every slot is taken. */
  #next = 0;

  constructor(size = 8) {
    this.#size = size;
  }

  get(key: string): V | undefined {
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return this.#values[i];
    return undefined;
  }

  /** The value for `key` among the recent keys, else what `lookup` finds, kept as recent unless undefined. */
  through(key: string, lookup: (key: string) => V | undefined): V | undefined {
    let value = this.get(key);
    if (value === undefined) {
      value = lookup(key);
      // Not among the recent keys, as get just found: no second scan.
      if (value !== undefined) this.#add(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== key) continue;
      this.#values[i] = value;
      return;
    }
    this.#add(key, value);
  }

  /** A key not yet held: into a free slot, else over the oldest. */
  #add(key: string, value: V): void {
    const keys = this.#keys;
    if (keys.length < this.#size) {
      keys.push(key);
      this.#values.push(value);
      return;
    }
    keys[this.#next] = key;
    this.#values[this.#next] = value;
    this.#next = (this.#next + 1) % this.#size;
  }

  clear(): void {
    this.#keys.length = 0;
    this.#values.length = 0;
    this.#next = 0;
  }
}
