/** What a dropped or pasted file turned out to be. */
export type InputFormat = "json" | "json-array" | "jsonl" | "har" | "wirelog";

/** One message to validate, with where it came from. */
export interface BatchItem {
  /** File name, or "pasted". */
  readonly source: string;
  /** 0-based index of the message within its file, when the file holds several. */
  readonly position?: number;
  /** 1-based line in the file where the message starts, when that means something. */
  readonly line?: number;
  /** 1-based column on that line where the message starts (1 when absent). */
  readonly column?: number;
  /** Where inside a container it came from: "entry 3 response, event 2", "frame #12 nats in". */
  readonly label?: string;
  /** The message's own text. */
  readonly text: string;
  /** Set when the message cannot be read at all (not UTF-8, too large); it is then unparseable. */
  readonly error?: string;
}

/**
 * A file split into messages. Items are asked for by index: a large JSON Lines capture holds
 * offsets into its text and makes each item when asked, so a caller that keeps only verdicts
 * never holds a hundred thousand items at once.
 */
export interface SplitInput {
  readonly format: InputFormat;
  /** How many messages the file holds. */
  readonly count: number;
  /** Message `index`, 0-based; a RangeError outside 0 to count - 1. */
  item(index: number): BatchItem;
  /** Whole-file remarks: skipped frames, bodies that were not JSON. */
  readonly notes: string[];
}

/** A single message larger than this is refused with a clear reason instead of being parsed. */
export const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

export function batchItem(source: string, text: string, fields: Omit<BatchItem, "source" | "text"> = {}): BatchItem {
  if (text.length > MAX_MESSAGE_CHARS) {
    const mb = (text.length / 1024 / 1024).toFixed(1);
    return { source, text: "", ...fields, error: `The message is ${mb} M characters, over the ${MAX_MESSAGE_CHARS / 1024 / 1024} M this tool validates.` };
  }
  return { source, text, ...fields };
}

export function outOfRange(index: number, count: number): RangeError {
  return new RangeError(`There is no message #${index}: the input holds ${count}.`);
}

/** A split whose items were all made as it was read. */
export class ListedSplit implements SplitInput {
  readonly format: InputFormat;
  readonly notes: string[];
  readonly #items: readonly BatchItem[];

  constructor(format: InputFormat, items: readonly BatchItem[], notes: string[] = []) {
    this.format = format;
    this.#items = items;
    this.notes = notes;
  }

  get count(): number {
    return this.#items.length;
  }

  item(index: number): BatchItem {
    const found = this.#items[index];
    if (!found) throw outOfRange(index, this.count);
    return found;
  }
}

/** Every item of a split, for a caller that keeps them all. */
export function splitItems(split: SplitInput): BatchItem[] {
  return Array.from({ length: split.count }, (_, i) => split.item(i));
}
