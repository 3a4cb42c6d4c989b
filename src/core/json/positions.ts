/** A 1-based line and column pair, columns counted in UTF-16 code units as editors do. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** A span of text as both offsets and 1-based line/column pairs (end is exclusive). */
export interface TextRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly offset: number;
  readonly length: number;
}

/**
 * Maps offsets to line/column. Line breaks are "\r\n", "\n" and a lone "\r", the same set editors
 * (Monaco included) split on, so a CRLF file reports the columns the user sees.
 */
export class LineIndex {
  readonly #starts: number[];
  readonly #length: number;

  constructor(text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.#starts = starts;
    this.#length = text.length;
  }

  /** Position of an offset; offsets are clamped into the text. */
  position(offset: number): TextPosition {
    const at = Math.max(0, Math.min(offset, this.#length));
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - this.#starts[lo]! + 1 };
  }

  /** Offset of a 1-based position; out-of-range values are clamped. */
  offset(line: number, column: number): number {
    const l = Math.max(1, Math.min(line, this.#starts.length));
    const start = this.#starts[l - 1]!;
    const next = l < this.#starts.length ? this.#starts[l]! : this.#length;
    return Math.min(start + Math.max(0, column - 1), next);
  }

  /** A range covering `length` code units from `offset`. */
  range(offset: number, length: number): TextRange {
    const start = this.position(offset);
    const end = this.position(offset + length);
    return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column, offset, length };
  }
}
