import { LineIndex } from "./positions.ts";
import { DEFAULT_MAX_DEPTH, scanJson } from "./scanner.ts";

/** Outcome of parsing raw JSON text: the value, or the first syntax error with its position. */
export type ParseJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number; readonly offset: number };

/**
 * Whether the text holds more than `limit` opening brackets, strings included: going deeper than
 * the limit takes that many. Counted with indexOf, which runs natively, so the usual message (a
 * handful of brackets) costs almost nothing beside JSON.parse.
 */
function bracketsOver(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf("{"); i >= 0; i = text.indexOf("{", i + 1)) if (++count > limit) return true;
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) if (++count > limit) return true;
  return false;
}

/**
 * Whether brackets outside strings ever nest deeper than `maxDepth`. One pass over the
 * characters with no allocation; exact for valid JSON, and for invalid JSON it does not matter,
 * because the scanner then has the final word.
 */
function nestsDeeperThan(text: string, maxDepth: number): boolean {
  if (text.length <= maxDepth || !bracketsOver(text, maxDepth)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > maxDepth) return true;
    } else if (c === 93 || c === 125) {
      depth--;
    } else if (c === 34) {
      // Skip the string: up to the next quote that is not escaped.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34) break;
      }
    }
  }
  return false;
}

function scannedFailure(text: string, maxDepth: number): ParseJsonResult | null {
  const { error } = scanJson(text, maxDepth);
  if (!error) return null;
  const { line, column } = new LineIndex(text).position(error.offset);
  return { ok: false, message: error.message, line, column, offset: error.offset };
}

/** The value of JSON text, or undefined when it is not JSON: for text that is only read from, never reported on. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Parses JSON text, reporting a syntax error at a 1-based line and column found by our own
 * scanner (engine error messages differ between browsers and Node, and some carry no position).
 * Valid text costs one bracket-depth pass plus the native JSON.parse; the scanner only runs to
 * explain a failure or a nesting past the limit.
 */
export function parseJsonText(text: string, maxDepth = DEFAULT_MAX_DEPTH): ParseJsonResult {
  if (nestsDeeperThan(text, maxDepth)) {
    const failure = scannedFailure(text, maxDepth);
    if (failure) return failure;
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    const failure = scannedFailure(text, maxDepth);
    if (failure) return failure;
    // The scanner accepts exactly what JSON.parse does, so this is a safety net only.
    return { ok: false, message: (err as Error).message, line: 1, column: 1, offset: 0 };
  }
}
