import { emptyStatusCounts, isFailure } from "../../../core/validation/report.ts";
import { FAMILIES, type Family, type Issue, type VerdictStatus } from "../../../core/validation/types.ts";
import type { EditorMarker } from "../../editor/index.ts";
import type { VerdictRow } from "./validation-protocol.ts";

export const STATUSES: readonly VerdictStatus[] = ["valid", "error-response", "invalid", "unrecognised", "unparseable"];

export const STATUS_LABELS: Readonly<Record<VerdictStatus, string>> = {
  valid: "Valid",
  "error-response": "Error response",
  invalid: "Invalid",
  unrecognised: "Unrecognised",
  unparseable: "Unparseable",
};

export const FAMILY_LABELS: Readonly<Record<Family, string>> = { mcp: "MCP", a2a: "A2A", "fisk-ai": "fisk-ai" };

export { FAMILIES };

/** Which rows the list shows. */
export type RowFilter = "all" | "problems" | VerdictStatus;

export function isRowFilter(value: string): value is RowFilter {
  return value === "all" || value === "problems" || (STATUSES as readonly string[]).includes(value);
}

export function filterRows(rows: readonly VerdictRow[], filter: RowFilter): readonly VerdictRow[] {
  if (filter === "all") return rows;
  if (filter === "problems") return rows.filter((r) => isFailure(r.status));
  return rows.filter((r) => r.status === filter);
}

/** Position of the row for message `index` in rows sorted by index, or -1. */
export function positionOf(rows: readonly VerdictRow[], index: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid]!.index;
    if (at === index) return mid;
    if (at < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export interface RowCounts {
  readonly byStatus: Record<VerdictStatus, number>;
  readonly byFamily: Record<Family, number>;
}

export function emptyCounts(): RowCounts {
  return { byStatus: emptyStatusCounts(), byFamily: { mcp: 0, a2a: 0, "fisk-ai": 0 } };
}

/** Counts with `rows` added, as a new object (the old one may be on screen). */
export function addCounts(counts: RowCounts, rows: readonly VerdictRow[]): RowCounts {
  const byStatus = { ...counts.byStatus };
  const byFamily = { ...counts.byFamily };
  for (const row of rows) {
    byStatus[row.status]++;
    if (row.family) byFamily[row.family]++;
  }
  return { byStatus, byFamily };
}

/**
 * The editor's markers for a verdict's issues. Syntax errors are left out: the editor finds
 * those itself, at the same place.
 */
export function issueMarkers(issues: readonly Issue[]): EditorMarker[] {
  return issues
    .filter((i) => i.source !== "syntax")
    .map((i) => ({
      pointer: i.pointer,
      message: i.message,
      severity: i.severity,
      ...((i.keyword === "additionalProperties" || i.keyword === "unevaluatedProperties") && { key: true }),
    }));
}

/** The file name a report downloads as. */
export function reportFileName(stamp: string): string {
  return `patchbay-validation-${stamp}.json`;
}
