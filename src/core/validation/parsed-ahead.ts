import { parseJsonText, type ParseJsonResult } from "../json/index.ts";
import { outOfRange, type BatchItem } from "./split-result.ts";
import { unreadable } from "./report.ts";
import type { Override, Verdict } from "./types.ts";
import type { ValidationSession } from "./validation-session.ts";

/** At most this many messages are parsed ahead at a time... */
const BLOCK_MESSAGES = 64;
/** ...and no more than this many characters of them (bar one message), so large messages are not all held parsed at once. */
const BLOCK_CHARS = 1024 * 1024;

/**
 * A bulk run's items, each message's text parsed a block ahead of its validation. Parsing a few
 * dozen messages in a row, then validating them, keeps each stage's code and tables (JSON.parse's
 * string-table lookups of member names above all) warm in the processor's caches: interleaved
 * with validation, JSON.parse ran about a quarter slower than in a loop of its own. The parse is
 * the same parseJsonText a single message gets, so verdicts do not change. Items are meant to be
 * asked for in order; asking out of order parses a new block from there.
 */
export class ParsedAhead {
  readonly #count: number;
  readonly #itemAt: (index: number) => BatchItem;
  readonly #items: BatchItem[] = [];
  /** By slot, the parse of a readable item's text (an unreadable item's slot is not read). */
  readonly #parsed: (ParseJsonResult | undefined)[] = [];
  /** The index of the block's first item, and how many it holds. */
  #start = 0;
  #size = 0;

  constructor(count: number, itemAt: (index: number) => BatchItem) {
    this.#count = count;
    this.#itemAt = itemAt;
  }

  /** Item `index` (as itemAt gives it), from the block that holds it. */
  item(index: number): BatchItem {
    return this.#items[this.#slot(index)]!;
  }

  /** The verdict on item `index`: an unreadable item is unparseable, as validateItem says; `override` as in validateText. */
  validate(session: ValidationSession, index: number, override?: Override): Verdict {
    const slot = this.#slot(index);
    const item = this.#items[slot]!;
    return item.error === undefined ? session.validateParsed(item.text, this.#parsed[slot]!, override) : unreadable(item);
  }

  #slot(index: number): number {
    const slot = index - this.#start;
    if (slot >= 0 && slot < this.#size) return slot;
    this.#fill(index);
    return 0;
  }

  /** Reads and parses the block that starts at `index`. Slots past its end keep older values until overwritten; #size bounds every read. */
  #fill(index: number): void {
    if (!(Number.isInteger(index) && index >= 0 && index < this.#count)) throw outOfRange(index, this.#count);
    const items = this.#items;
    const parsed = this.#parsed;
    let chars = 0;
    let size = 0;
    for (let i = index; i < this.#count && size < BLOCK_MESSAGES && (size === 0 || chars < BLOCK_CHARS); i++, size++) {
      const item = this.#itemAt(i);
      items[size] = item;
      parsed[size] = item.error === undefined ? parseJsonText(item.text) : undefined;
      chars += item.text.length;
    }
    this.#start = index;
    this.#size = size;
  }
}
