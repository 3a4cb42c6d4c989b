import { LineIndex } from "./positions.ts";
import { DEFAULT_MAX_DEPTH, scanJson } from "./scanner.ts";

/** Outcome of parsing raw JSON text: the value, or the first syntax error with its position. */
export type ParseJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number; readonly offset: number };

/**
 * Parses JSON text, reporting a syntax error at a 1-based line and column found by our own
 * scanner (engine error messages differ between browsers and Node, and some carry no position).
 */
export function parseJsonText(text: string, maxDepth = DEFAULT_MAX_DEPTH): ParseJsonResult {
  const { error } = scanJson(text, maxDepth);
  if (error) {
    const { line, column } = new LineIndex(text).position(error.offset);
    return { ok: false, message: error.message, line, column, offset: error.offset };
  }
  // The scanner accepted it, so this only materialises the value (natively, and with
  // JSON.parse's duplicate-key rule).
  return { ok: true, value: JSON.parse(text) as unknown };
}
