import { topLevelElements } from "./array-split.ts";
import { batchItem, MAX_MESSAGE_CHARS, outOfRange, type BatchItem, type SplitInput } from "./split-result.ts";

/**
 * JSON Lines as offsets into the text: three numbers per message, and each item made when asked
 * for. Validating a large capture then keeps no item alive past its message; kept items (an
 * object and a string each) cost more in garbage collection than the split itself.
 */
export class JsonlSplit implements SplitInput {
  readonly format = "jsonl";
  readonly notes: string[] = [];
  readonly #source: string;
  readonly #text: string;
  /**
   * By position, three numbers: where the line's text starts and ends, and its 1-based line; a
   * start of -1 marks a made item. Sized by a first count of the lines, so it grows only when a
   * line holds a batch of several messages.
   */
  #places: Int32Array;
  #count = 0;
  /** Items that are not a plain line (a batch's elements, a refused line), by position. */
  readonly #made = new Map<number, BatchItem>();

  constructor(source: string, text: string) {
    this.#source = source;
    this.#text = text;
    let lines = 1;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
    this.#places = new Int32Array(3 * lines);
    for (let start = 0, n = 1; ; n++) {
      const newline = text.indexOf("\n", start);
      const next = newline < 0 ? text.length : newline;
      const end = next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
      // A line opening with "{" is neither blank nor a batch: the usual case asks no more.
      if (text.charCodeAt(start) === 123 && end - start <= MAX_MESSAGE_CHARS) this.#place(start, end, n);
      else this.#unusual(start, end, n);
      if (newline < 0) break;
      start = newline + 1;
    }
  }

  get count(): number {
    return this.#count;
  }

  item(index: number): BatchItem {
    if (!(index >= 0 && index < this.#count && Number.isInteger(index))) throw outOfRange(index, this.#count);
    const places = this.#places;
    const start = places[3 * index]!;
    if (start < 0) return this.#made.get(index)!;
    return { source: this.#source, text: this.#text.slice(start, places[3 * index + 1]), position: index, line: places[3 * index + 2]! };
  }

  #place(start: number, end: number, line: number): void {
    const at = 3 * this.#count++;
    if (at >= this.#places.length) {
      const grown = new Int32Array(2 * this.#places.length);
      grown.set(this.#places);
      this.#places = grown;
    }
    const places = this.#places;
    places[at] = start;
    places[at + 1] = end;
    places[at + 2] = line;
  }

  /** A blank line, a batch, a line not opening with "{", or one over the size limit. */
  #unusual(start: number, end: number, n: number): void {
    const line = this.#text.slice(start, end);
    if (line.trim() === "") return;
    // A JSON-RPC batch on one line is several messages.
    const batch = line.trimStart().startsWith("[") ? topLevelElements(line) : null;
    if (batch && batch.length > 0 && batch.every((e) => line.charCodeAt(e.start) === 123)) {
      batch.forEach((e, k) => this.#keep(batchItem(this.#source, line.slice(e.start, e.end), { position: this.#count, line: n, column: e.column, label: `batch element ${k}` })));
      return;
    }
    if (end - start > MAX_MESSAGE_CHARS) this.#keep(batchItem(this.#source, line, { position: this.#count, line: n }));
    else this.#place(start, end, n);
  }

  #keep(made: BatchItem): void {
    this.#made.set(this.#count, made);
    this.#place(-1, 0, 0);
  }
}
