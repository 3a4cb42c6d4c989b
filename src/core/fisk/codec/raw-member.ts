/**
 * Finds the exact text of one top-level member of a JSON object, so an unknown event's block can
 * be re-emitted byte for byte. Runs only on text JSON.parse already accepted, so it skips values
 * by bracket counting outside strings instead of parsing them; one pass, no recursion.
 */

const QUOTE = 34;
const BACKSLASH = 92;

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The index just past the string that opens at `at` (which holds a quote). */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

/** The index just past the value that starts at `at`. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first !== 123 && first !== 91) {
    let i = at;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === 125 || c === 93 || isWs(c)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

function skipWs(text: string, at: number): number {
  let i = at;
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** A key token's value: escapes decoded the way JSON.parse decodes them. */
function keyOf(token: string): string | null {
  if (!token.includes("\\")) return token.slice(1, -1);
  try {
    const key: unknown = JSON.parse(token);
    return typeof key === "string" ? key : null;
  } catch {
    return null;
  }
}

/**
 * The raw text of the last member named `name` in the object `text` (the one JSON.parse and Go
 * both keep when a key repeats), or null when there is none.
 */
export function rawTopLevelMember(text: string, name: string): string | null {
  let at = skipWs(text, 0);
  if (text.charCodeAt(at) !== 123) return null;
  at = skipWs(text, at + 1);
  let found: string | null = null;
  while (at < text.length && text.charCodeAt(at) === QUOTE) {
    const keyEnd = stringEnd(text, at);
    const key = keyOf(text.slice(at, keyEnd));
    at = skipWs(text, keyEnd);
    if (text.charCodeAt(at) !== 58) return found;
    const start = skipWs(text, at + 1);
    const end = valueEnd(text, start);
    if (key === name) found = text.slice(start, end);
    at = skipWs(text, end);
    if (text.charCodeAt(at) !== 44) break;
    at = skipWs(text, at + 1);
  }
  return found;
}
