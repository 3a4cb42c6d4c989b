/** Where one element of a top-level JSON array lies in the text. */
export interface ElementRange {
  readonly start: number;
  readonly end: number;
  /** 1-based line of `start`. */
  readonly line: number;
  /** 1-based column of `start` on that line. */
  readonly column: number;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * The elements of a top-level JSON array as text ranges, found in one pass without parsing, so a
 * large capture keeps each message's own text (and positions) and one broken element does not
 * stop the others. Null when the text is not a well-bracketed array; elements are not otherwise
 * checked here, each is parsed on its own later.
 */
export function topLevelElements(text: string): ElementRange[] | null {
  let i = 0;
  let line = 1;
  while (i < text.length && isSpace(text.charCodeAt(i))) if (text.charCodeAt(i++) === 10) line++;
  if (text.charCodeAt(i) !== 91) return null;
  i++;
  const ranges: ElementRange[] = [];
  let depth = 0;
  let start = -1;
  let startLine = line;
  let lineStart = 0;
  let startColumn = 1;
  let end = -1;
  const close = (): void => {
    if (start >= 0) ranges.push({ start, end: end + 1, line: startLine, column: startColumn });
    start = -1;
  };
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
    }
    if (isSpace(c)) continue;
    if (depth === 0 && (c === 44 || c === 93)) {
      // An empty element ("[1,,2]", "[1,]") is a syntax error the splitter must not paper over.
      if (start < 0 && (c === 44 || ranges.length > 0)) return null;
      close();
      if (c === 93) {
        for (i++; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return null;
        return ranges;
      }
      continue;
    }
    if (start < 0) {
      start = i;
      startLine = line;
      startColumn = i - lineStart + 1;
    }
    end = i;
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34) break;
        else if (s === 10) {
          line++;
          lineStart = i + 1;
        }
      }
      end = i;
    } else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) depth--;
  }
  return null;
}
