/**
 * Finds where a JSON text first goes wrong. V8's JSON.parse names a position for some errors
 * but not for others ("Unexpected token 'x', …"), and a client deserves a line and column.
 */
class Stop {
  readonly at: number;
  constructor(at: number) {
    this.at = at;
  }
}

const WS = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const HEX = /^[0-9a-fA-F]{4}$/;

function scan(text: string): void {
  let i = 0;
  const n = text.length;
  const fail = (): never => {
    throw new Stop(i);
  };
  const ws = () => {
    while (i < n && WS.has(text[i] as string)) i++;
  };
  const digits = () => {
    const start = i;
    while (i < n && text[i]! >= "0" && text[i]! <= "9") i++;
    if (i === start) fail();
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= n) fail();
      const ch = text[i]!;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch < " ") fail();
      if (ch !== "\\") {
        i++;
        continue;
      }
      i++;
      const esc = text[i];
      if (esc !== undefined && ESCAPES.has(esc)) i++;
      else if (esc === "u" && HEX.test(text.slice(i + 1, i + 5))) i += 5;
      else fail();
    }
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const container = (close: string, member: () => void) => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      member();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail();
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{") {
      container("}", () => {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
      });
    } else if (ch === "[") container("]", value);
    else if (ch === '"') string();
    else if (ch === "t") literal("true");
    else if (ch === "f") literal("false");
    else if (ch === "n") literal("null");
    else if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) number();
    else fail();
  };
  value();
  ws();
  if (i < n) fail();
}

/** Offset of the first character where `text` stops being JSON; null if it parses (or nests too deep to tell). */
export function jsonErrorOffset(text: string): number | null {
  try {
    scan(text);
    return null;
  } catch (err) {
    if (err instanceof Stop) return err.at;
    return null;
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A one-line description of why `text` is not JSON: the parser's words plus line, column and position. */
export function describeJsonError(text: string, parserMessage: string): string {
  // V8 quotes the input back ("…" is not valid JSON); drop that so bodies are not echoed.
  const base = parserMessage
    .replace(/, ".*" is not valid JSON$/s, "")
    .replace(/ in JSON at position \d+.*$/s, "")
    // V8 quotes a control character raw ("Unexpected token '<newline>'"); keep the message on one line.
    .split("")
    .map((c) => (c < " " ? JSON.stringify(c).slice(1, -1) : c))
    .join("");
  const reported = /at position (\d+)/.exec(parserMessage);
  const offset = reported ? Number(reported[1]) : jsonErrorOffset(text);
  if (offset === null) return base;
  const { line, column } = lineColumn(text, offset);
  return `${base} at line ${line}, column ${column} (position ${offset})`;
}
