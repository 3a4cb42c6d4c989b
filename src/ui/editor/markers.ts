import { LineIndex, parseJsonText, pointerMarkers, type MarkerLevel, type PointerProblem } from "../../core/json/index.ts";

/** Owner of the markers this app places; Monaco's JSON language uses its own ("json"). */
export const MARKER_OWNER = "patchbay";

/** A marker prop: a problem at a JSON pointer. */
export type EditorMarker = PointerProblem;

/** One row of the Problems list. */
export interface Problem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly severity: MarkerLevel;
}

/** Monaco's MarkerSeverity values; passed in so this module never loads Monaco. */
export interface SeverityScale {
  readonly Error: number;
  readonly Warning: number;
  readonly Info: number;
}

/** Marker data as monaco.editor.setModelMarkers expects it. */
export interface MonacoMarkerData {
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endLineNumber: number;
  readonly endColumn: number;
  readonly message: string;
  readonly severity: number;
  readonly source: string;
}

/** Places pointer markers in the text as Monaco marker data. */
export function toMonacoMarkers(text: string, markers: readonly EditorMarker[], scale: SeverityScale): MonacoMarkerData[] {
  const level = { error: scale.Error, warning: scale.Warning, info: scale.Info };
  return pointerMarkers(text, markers).map((m) => ({
    startLineNumber: m.startLineNumber,
    startColumn: m.startColumn,
    endLineNumber: m.endLineNumber,
    endColumn: m.endColumn,
    message: m.message,
    severity: level[m.severity],
    source: m.pointer === "" ? "/" : m.pointer,
  }));
}

/** Monaco severity number back to a level (hints count as info). */
export function levelOf(severity: number, scale: SeverityScale): MarkerLevel {
  if (severity >= scale.Error) return "error";
  if (severity >= scale.Warning) return "warning";
  return "info";
}

export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Owner of the markers Monaco's JSON language places (syntax and schema). */
export const JSON_OWNER = "json";

/** The codes of the JSON language service's parse errors; its schema problems have other codes. */
const PARSE_ERROR_CODES = new Set([257, 258, 259, 260, 261, 262, 513, 514, 515, 516, 517, 518, 519, 521, 528]);

/** The part of a Monaco marker that says who placed it and why. */
export interface MarkerOrigin {
  readonly owner: string;
  readonly code?: string | { readonly value: string } | undefined;
}

export function isParseError(marker: MarkerOrigin): boolean {
  const code = typeof marker.code === "object" ? marker.code.value : marker.code;
  return marker.owner === JSON_OWNER && code !== undefined && PARSE_ERROR_CODES.has(Number(code));
}

/**
 * The markers worth showing. While the text does not parse, its syntax errors show alone: schema
 * problems and the app's markers describe a parse that failed. `schemaDiagnostics: false` keeps
 * the schema for completion and hover only, for editors whose owner judges the text itself.
 */
export function shownMarkers<M extends MarkerOrigin>(markers: readonly M[], schemaDiagnostics: boolean): M[] {
  if (markers.some(isParseError)) return markers.filter(isParseError);
  return schemaDiagnostics ? [...markers] : markers.filter((m) => m.owner !== JSON_OWNER || isParseError(m));
}

/**
 * Problems computed without Monaco, for the loading placeholder and the textarea fallback:
 * the JSON syntax error (from core's scanner) alone, else the pointer markers.
 */
export function textProblems(text: string, markers: readonly EditorMarker[]): Problem[] {
  const problems: Problem[] = [];
  const parsed = parseJsonText(text);
  if (!parsed.ok) return [{ line: parsed.line, column: parsed.column, message: parsed.message, severity: "error" }];
  for (const m of pointerMarkers(text, markers)) {
    problems.push({ line: m.startLineNumber, column: m.startColumn, message: m.message, severity: m.severity });
  }
  return sortProblems(problems);
}

/** Offset of a problem in the text, for moving a plain textarea's caret there. */
export function problemOffset(text: string, problem: Problem): number {
  return new LineIndex(text).offset(problem.line, problem.column);
}
