import { JsonLocator } from "./locate.ts";
import { JsonPointerSyntaxError } from "./pointer.ts";

export type MarkerLevel = "error" | "warning" | "info";

/** A problem tied to a JSON pointer, as validators report them. */
export interface PointerProblem {
  readonly pointer: string;
  readonly message: string;
  readonly severity?: MarkerLevel;
  /** Mark the property key rather than its value (e.g. for "additional property" errors). */
  readonly key?: boolean;
}

/** A problem placed in the text, with Monaco's range field names (1-based, end exclusive). */
export interface PointerMarker {
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endLineNumber: number;
  readonly endColumn: number;
  readonly message: string;
  readonly severity: MarkerLevel;
  readonly pointer: string;
  /** False when the pointer names nothing in the text and the marker sits on its nearest ancestor. */
  readonly found: boolean;
}

/**
 * Places pointer problems in raw JSON text, scanning the text once for all of them. A container
 * spanning several lines is marked at its opening bracket only, so one error does not underline
 * a whole document. A malformed pointer is placed at the document start with the reason appended.
 */
export function pointerMarkers(text: string, problems: readonly PointerProblem[]): PointerMarker[] {
  if (problems.length === 0) return [];
  const locator = new JsonLocator(text);
  return problems.map((p) => {
    const severity = p.severity ?? "error";
    try {
      const at = locator.locate(p.pointer, { target: p.key ? "key" : "value" });
      const container = at.nodeType === "object" || at.nodeType === "array";
      const narrow = container && at.endLine > at.line;
      return {
        startLineNumber: at.line,
        startColumn: at.column,
        endLineNumber: narrow ? at.line : at.endLine,
        endColumn: narrow ? at.column + 1 : at.endColumn,
        message: p.message,
        severity,
        pointer: p.pointer,
        found: at.found,
      };
    } catch (err) {
      if (!(err instanceof JsonPointerSyntaxError)) throw err;
      const at = locator.locate("");
      return {
        startLineNumber: at.line,
        startColumn: at.column,
        endLineNumber: at.line,
        endColumn: at.column + 1,
        message: `${p.message} (${err.message})`,
        severity,
        pointer: p.pointer,
        found: false,
      };
    }
  });
}
