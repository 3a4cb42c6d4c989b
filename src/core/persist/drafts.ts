/**
 * Drafts: what the user was in the middle of (form fields, editor text, the open tab, the wire
 * log) kept in the browser's key-value storage so a reload loses nothing. Each draft is its own
 * key holding a small versioned envelope, so a newer Patchbay can refuse what it cannot read
 * instead of restoring it wrong. Secrets are never given to this store; callers pick the fields.
 */
import { isJsonObject } from "../json/json-object.ts";

/** The part of the Web Storage interface drafts use (sessionStorage, localStorage, a Map in tests). */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

export const DRAFT_FORMAT = "patchbay.draft";
export const DRAFT_VERSION = 1;
const PREFIX = "patchbay.draft.";
/** Pieces of a big draft, written one at a time so no single write blocks the page for long. */
const PART_PREFIX = "patchbay.draft-part.";

export type DraftRead =
  | { readonly kind: "none" }
  | { readonly kind: "ok"; readonly data: unknown; readonly savedAt: number }
  /** Present but not usable: not JSON, not a draft, or written by a newer version. Left as it is. */
  | { readonly kind: "unreadable"; readonly reason: string };

export type DraftWrite = { readonly ok: true; readonly chars: number } | { readonly ok: false; readonly reason: string };

/** A storage that keeps everything in memory: the default where no browser storage is given. */
export function memoryDraftStorage(): DraftStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

/** Reads and writes drafts by name in an injected storage; never throws for what the storage holds. */
export class DraftStore {
  readonly #storage: DraftStorage;
  readonly #wallNow: () => number;

  constructor(storage: DraftStorage, wallNow: () => number) {
    this.#storage = storage;
    this.#wallNow = wallNow;
  }

  read(name: string): DraftRead {
    let text: string | null;
    try {
      text = this.#storage.getItem(PREFIX + name);
    } catch (err) {
      return { kind: "unreadable", reason: `the browser refused to read it: ${(err as Error).message}` };
    }
    if (text === null) return { kind: "none" };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return { kind: "unreadable", reason: `it is not JSON (${(err as Error).message})` };
    }
    if (!isJsonObject(raw) || raw.format !== DRAFT_FORMAT || !("data" in raw)) {
      return { kind: "unreadable", reason: `it is not a ${DRAFT_FORMAT} envelope` };
    }
    const version = raw.version;
    if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
      return { kind: "unreadable", reason: "it has no valid version number" };
    }
    if (version > DRAFT_VERSION) {
      return { kind: "unreadable", reason: `it is version ${version}, newer than this Patchbay understands (${DRAFT_VERSION})` };
    }
    const savedAt = typeof raw.savedAt === "number" ? raw.savedAt : 0;
    return { kind: "ok", data: raw.data, savedAt };
  }

  /** Saves `data` (JSON-serialisable) under `name`; a full storage is reported, not thrown. */
  write(name: string, data: unknown): DraftWrite {
    if (data === undefined) return { ok: false, reason: "a draft needs a value" };
    const text = JSON.stringify({ format: DRAFT_FORMAT, version: DRAFT_VERSION, savedAt: this.#wallNow(), data });
    try {
      this.#storage.setItem(PREFIX + name, text);
      return { ok: true, chars: text.length };
    } catch (err) {
      return { ok: false, reason: `the browser's storage refused ${text.length} characters: ${(err as Error).message}` };
    }
  }

  remove(name: string): void {
    try {
      this.#storage.removeItem(PREFIX + name);
    } catch {
      // Nothing was stored that could be removed.
    }
    this.removeParts(name, 0);
  }

  /**
   * Piece `index` of draft `name`, tagged with the write it belongs to (`tag`), as raw text: a
   * reader can tell a piece of another write from one of its own and refuse the mix.
   */
  writePart(name: string, index: number, tag: string, text: string): DraftWrite {
    try {
      this.#storage.setItem(`${PART_PREFIX}${name}.${index}`, `${tag}\n${text}`);
      return { ok: true, chars: text.length };
    } catch (err) {
      return { ok: false, reason: `the browser's storage refused ${text.length} characters: ${(err as Error).message}` };
    }
  }

  /** Pieces 0..count-1 of `name` joined, if all are there and all belong to the write `tag`. */
  readParts(name: string, tag: string, count: number): { ok: true; text: string } | { ok: false; reason: string } {
    const pieces: string[] = [];
    for (let i = 0; i < count; i++) {
      let raw: string | null;
      try {
        raw = this.#storage.getItem(`${PART_PREFIX}${name}.${i}`);
      } catch (err) {
        return { ok: false, reason: `the browser refused to read it: ${(err as Error).message}` };
      }
      if (raw === null) return { ok: false, reason: `piece ${i + 1} of ${count} is missing` };
      const cut = raw.indexOf("\n");
      if (cut < 0 || raw.slice(0, cut) !== tag) return { ok: false, reason: `piece ${i + 1} of ${count} belongs to another save (the page went away while writing it)` };
      pieces.push(raw.slice(cut + 1));
    }
    return { ok: true, text: pieces.join("") };
  }

  /** Removes the pieces of `name` from `from` on. */
  removeParts(name: string, from: number): void {
    const prefix = `${PART_PREFIX}${name}.`;
    try {
      const doomed: string[] = [];
      for (let i = 0; i < this.#storage.length; i++) {
        const key = this.#storage.key(i);
        if (key?.startsWith(prefix) && Number(key.slice(prefix.length)) >= from) doomed.push(key);
      }
      for (const key of doomed) this.#storage.removeItem(key);
    } catch {
      // What could not be listed could not have been read back either.
    }
  }

  /** Names of the drafts held now. */
  names(): string[] {
    const out: string[] = [];
    try {
      for (let i = 0; i < this.#storage.length; i++) {
        const key = this.#storage.key(i);
        if (key?.startsWith(PREFIX)) out.push(key.slice(PREFIX.length));
      }
    } catch {
      return out;
    }
    return out.sort();
  }

  /** Removes every draft and its pieces (nothing else in the storage); returns how many drafts there were. */
  clear(): number {
    const names = this.names();
    for (const name of names) this.remove(name);
    try {
      const orphans: string[] = [];
      for (let i = 0; i < this.#storage.length; i++) {
        const key = this.#storage.key(i);
        if (key?.startsWith(PART_PREFIX)) orphans.push(key);
      }
      for (const key of orphans) this.#storage.removeItem(key);
    } catch {
      // Nothing more can be removed from a storage that refuses to list.
    }
    return names.length;
  }
}

/**
 * Whether `value` has the shape of `template`: the same JSON type; for an object, every key of the
 * template present with a value of its shape; for an array, every element shaped like the
 * template's first one; a null template takes null or any scalar. A draft restores only into
 * fields it still fits.
 */
export function fitsShape(template: unknown, value: unknown): boolean {
  // A field that is null today (nothing chosen yet) may hold any scalar when saved.
  if (template === null) return value === null || (typeof value !== "object" && value !== undefined);
  if (value === null) return false;
  if (Array.isArray(template)) {
    if (!Array.isArray(value)) return false;
    const first: unknown = template[0];
    return first === undefined || value.every((v) => fitsShape(first, v));
  }
  if (isJsonObject(template)) {
    if (!isJsonObject(value)) return false;
    return Object.keys(template).every((k) => k in value && fitsShape(template[k], value[k]));
  }
  return typeof template === typeof value && !Array.isArray(value) && !isJsonObject(value);
}
