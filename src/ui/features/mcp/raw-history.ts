export const HISTORY_ENTRIES = 50;
export const HISTORY_CHARS = 4 * 1024 * 1024;

/**
 * Raw messages sent, newest last, recalled like a shell's history: older and newer walk it, and
 * walking past the newest brings back what was being typed. Bounded by count and by total size.
 */
export class RawHistory {
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #entries: string[] = [];
  #chars = 0;
  /** Position while walking; entries.length means "the draft". */
  #at = 0;
  #draft = "";

  constructor(maxEntries = HISTORY_ENTRIES, maxChars = HISTORY_CHARS) {
    this.#maxEntries = maxEntries;
    this.#maxChars = maxChars;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Oldest first. */
  entries(): readonly string[] {
    return this.#entries;
  }

  /** Adds a sent message (a repeat of the newest is not added twice) and ends any walk. */
  push(text: string): void {
    if (this.#entries.at(-1) !== text && text.length <= this.#maxChars) {
      this.#entries.push(text);
      this.#chars += text.length;
      while (this.#entries.length > this.#maxEntries || this.#chars > this.#maxChars) this.#chars -= this.#entries.shift()!.length;
    }
    this.#at = this.#entries.length;
    this.#draft = "";
  }

  /** The message before the one shown, or undefined at the oldest; `current` is kept as the draft when a walk starts. */
  older(current: string): string | undefined {
    if (this.#at === 0) return undefined;
    if (this.#at === this.#entries.length) this.#draft = current;
    this.#at--;
    return this.#entries[this.#at];
  }

  /** The message after the one shown, the draft past the newest, or undefined when not walking. */
  newer(): string | undefined {
    if (this.#at >= this.#entries.length) return undefined;
    this.#at++;
    return this.#at === this.#entries.length ? this.#draft : this.#entries[this.#at];
  }
}

/**
 * Which way an arrow key walks the history: Up on the first line, Down on the last, with no
 * selection and no modifier; any other key edits the text as usual.
 */
export function recallKey(
  key: { readonly key: string; readonly altKey: boolean; readonly ctrlKey: boolean; readonly metaKey: boolean; readonly shiftKey: boolean },
  text: string,
  selectionStart: number,
  selectionEnd: number,
): "older" | "newer" | null {
  if (key.altKey || key.ctrlKey || key.metaKey || key.shiftKey || selectionStart !== selectionEnd) return null;
  if (key.key === "ArrowUp") return text.slice(0, selectionStart).includes("\n") ? null : "older";
  if (key.key === "ArrowDown") return text.includes("\n", selectionEnd) ? null : "newer";
  return null;
}
