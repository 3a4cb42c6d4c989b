import { topLevelElements } from "./array-split.ts";
import { batchItem, MAX_MESSAGE_CHARS, outOfRange, type BatchItem, type SplitInput } from "./split-result.ts";

/** Messages per block of the offset table: a block is 48 KB, small enough for the allocator to reuse. */
const BLOCK = 4096;

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
   * By position, in blocks of BLOCK messages, three numbers: where the message's text starts and
   * ends, and its 1-based line; a start of -1 marks a made item. Blocks rather than one table
   * sized up front: fresh memory costs a page fault per page written, and small blocks are
   * recycled memory.
   */
  readonly #blocks: Int32Array[] = [];
  #count = 0;
  /** Items that are not a plain line (a batch's elements, a refused line), by position. */
  readonly #made = new Map<number, BatchItem>();

  constructor(source: string, text: string) {
    this.#source = source;
    this.#text = text;
    for (let start = 0, n = 1; ; n++) {
      const newline = text.indexOf("\n", start);
      const next = newline < 0 ? text.length : newline;
      // A CR before the newline is no part of the line.
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
    const block = this.#blocks[Math.floor(index / BLOCK)]!;
    const at = 3 * (index % BLOCK);
    const start = block[at]!;
    if (start < 0) return this.#made.get(index)!;
    return { source: this.#source, text: this.#text.slice(start, block[at + 1]), position: index, line: block[at + 2]! };
  }

  #place(start: number, end: number, line: number): void {
    const slot = this.#count++ % BLOCK;
    if (slot === 0) this.#blocks.push(new Int32Array(3 * BLOCK));
    const block = this.#blocks[this.#blocks.length - 1]!;
    block[3 * slot] = start;
    block[3 * slot + 1] = end;
    block[3 * slot + 2] = line;
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
