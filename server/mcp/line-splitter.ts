/** Splits a byte stream into UTF-8 lines (without the "\n" or a trailing "\r"), bounded in length. */
import { StringDecoder } from "node:string_decoder";

export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export interface LineSplitter {
  write(chunk: Buffer): void;
  /** Deliver a last unterminated line, if any. */
  end(): void;
}

export function createLineSplitter(
  onLine: (line: string) => void,
  onOverflow: (chars: number) => void,
  maxChars = MAX_LINE_CHARS,
): LineSplitter {
  const decoder = new StringDecoder("utf8");
  let partial = "";
  // A line past the cap is discarded up to its newline, so the stream resynchronizes.
  let skipping = false;

  const deliver = (line: string) => {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text !== "") onLine(text);
  };

  function take(text: string): void {
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (skipping) {
        skipping = false;
        partial = "";
        continue;
      }
      const line = partial + piece;
      partial = "";
      deliver(line);
    }
    if (skipping) return;
    partial += text.slice(start);
    if (partial.length > maxChars) {
      onOverflow(partial.length);
      partial = "";
      skipping = true;
    }
  }

  return {
    write: (chunk) => take(decoder.write(chunk)),
    end() {
      take(decoder.end());
      if (!skipping && partial !== "") deliver(partial);
      partial = "";
    },
  };
}
