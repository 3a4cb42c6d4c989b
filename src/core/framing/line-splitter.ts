/** A line longer than this (no newline yet) is refused: the backend relays never send one, so it is a broken stream. */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/**
 * Splits decoded text chunks into lines. A line may span any number of chunks; a trailing "\r"
 * is dropped and blank lines are skipped.
 */
export class LineSplitter {
  #partial = "";

  /** The complete lines in `chunk`, keeping the unfinished tail for the next call. */
  push(chunk: string): string[] {
    const text = this.#partial + chunk;
    const parts = text.split("\n");
    this.#partial = parts.pop() ?? "";
    if (this.#partial.length > MAX_LINE_CHARS) {
      const size = this.#partial.length;
      this.#partial = "";
      throw new RangeError(`relay stream line exceeds ${MAX_LINE_CHARS} characters without a newline (${size} so far)`);
    }
    return clean(parts);
  }

  /** What is left once the stream ended: a last line without a newline, if any. */
  finish(): string[] {
    const rest = this.#partial;
    this.#partial = "";
    return clean([rest]);
  }
}

function clean(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (trimmed.trim() !== "") out.push(trimmed);
  }
  return out;
}
