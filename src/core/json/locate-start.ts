import { arrayIndex, parsePointer } from "./pointer.ts";
import type { TextPosition } from "./positions.ts";

/**
 * Where a JSON pointer starts in text that JSON.parse accepts, found by skipping straight to it:
 * no tree, no line table. It answers as JsonLocator does (a duplicate key resolves to its last
 * occurrence; a pointer naming nothing resolves to its nearest existing ancestor's value), but
 * only the start, which is all an issue needs. Text that is not valid JSON needs JsonLocator.
 */

function skipSpace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
    else return pos;
  }
}

/** Offset just past the string whose opening quote is at `pos`. */
function skipString(text: string, pos: number): number {
  for (let i = pos + 1; ; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34 || Number.isNaN(c)) return i + 1;
  }
}

/** What may follow a number or literal: ",", "]", "}" and whitespace. */
const ENDS_SCALAR: ReadonlySet<number> = new Set([44, 93, 125, 32, 9, 10, 13]);

/** Offset just past the value starting at `pos`. */
function skipValue(text: string, pos: number): number {
  const first = text.charCodeAt(pos);
  if (first === 34) return skipString(text, pos);
  if (first !== 123 && first !== 91) {
    // A number or literal: it runs up to a delimiter.
    let i = pos;
    while (i < text.length && !ENDS_SCALAR.has(text.charCodeAt(i))) i++;
    return i;
  }
  let depth = 0;
  for (let i = pos; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = skipString(text, i) - 1;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** Whether the key whose quotes span [start, end) decodes to `token`; escapes are rare, so only they pay for decoding. */
function keyIs(text: string, start: number, end: number, token: string): boolean {
  const escape = text.indexOf("\\", start + 1);
  if (escape >= 0 && escape < end - 1) return JSON.parse(text.slice(start, end)) === token;
  return end - start - 2 === token.length && text.startsWith(token, start + 1);
}

/** The value and key offsets of the last member named `token` of the object at `pos`, or null. */
function member(text: string, pos: number, token: string): { value: number; key: number } | null {
  let found: { value: number; key: number } | null = null;
  let at = skipSpace(text, pos + 1);
  if (text.charCodeAt(at) === 125) return null;
  for (;;) {
    const keyEnd = skipString(text, at);
    const value = skipSpace(text, skipSpace(text, keyEnd) + 1);
    if (keyIs(text, at, keyEnd, token)) found = { value, key: at };
    at = skipSpace(text, skipValue(text, value));
    if (text.charCodeAt(at) !== 44) return found;
    at = skipSpace(text, at + 1);
  }
}

/** The offset of element `index` of the array at `pos`, or -1 when the array is shorter. */
function element(text: string, pos: number, index: number): number {
  let at = skipSpace(text, pos + 1);
  if (text.charCodeAt(at) === 93) return -1;
  for (let i = 0; ; i++) {
    if (i === index) return at;
    at = skipSpace(text, skipValue(text, at));
    if (text.charCodeAt(at) !== 44) return -1;
    at = skipSpace(text, at + 1);
  }
}

/** The 1-based line and column of an offset; line breaks are "\r\n", "\n" and a lone "\r", as in LineIndex. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Offset where `pointer` (or its nearest existing ancestor) starts; `key` targets a member's key. Throws JsonPointerSyntaxError for a malformed pointer. */
export function pointerStart(text: string, pointer: string, target: "value" | "key" = "value"): number {
  let at = skipSpace(text, 0);
  if (pointer === "") return at;
  let key = -1;
  for (const token of parsePointer(pointer)) {
    const c = text.charCodeAt(at);
    if (c === 123) {
      const found = member(text, at, token);
      if (!found) return at;
      at = found.value;
      key = found.key;
    } else if (c === 91) {
      const index = arrayIndex(token);
      const item = index === undefined ? -1 : element(text, at, index);
      if (item < 0) return at;
      at = item;
      key = -1;
    } else {
      return at;
    }
  }
  return target === "key" && key >= 0 ? key : at;
}
