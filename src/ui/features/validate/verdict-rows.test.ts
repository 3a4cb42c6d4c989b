import { describe, expect, it } from "vitest";
import type { VerdictRow } from "./validation-protocol.ts";
import { addCounts, emptyCounts, filterRows, isRowFilter, issueMarkers, positionOf } from "./verdict-rows.ts";

const rows: VerdictRow[] = [
  { index: 0, place: "a", status: "valid", family: "mcp" },
  { index: 2, place: "b", status: "invalid", family: "a2a" },
  { index: 5, place: "c", status: "error-response", family: "fisk-ai" },
  { index: 7, place: "d", status: "unparseable" },
  { index: 9, place: "e", status: "unrecognised" },
];

describe("verdict rows", () => {
  it("filters by problems or one status; a valid error response is not a problem", () => {
    expect(filterRows(rows, "all")).toBe(rows);
    expect(filterRows(rows, "problems").map((r) => r.index)).toEqual([2, 7, 9]);
    expect(filterRows(rows, "error-response").map((r) => r.index)).toEqual([5]);
    expect(isRowFilter("problems")).toBe(true);
    expect(isRowFilter("unparseable")).toBe(true);
    expect(isRowFilter("bogus")).toBe(false);
  });

  it("finds a message's position in a filtered list", () => {
    const problems = filterRows(rows, "problems");
    expect(positionOf(problems, 7)).toBe(1);
    expect(positionOf(problems, 5)).toBe(-1);
    expect(positionOf([], 0)).toBe(-1);
    expect(positionOf(rows, 9)).toBe(4);
  });

  it("adds counts into a new object", () => {
    const first = addCounts(emptyCounts(), rows.slice(0, 2));
    const second = addCounts(first, rows.slice(2));
    expect(first.byStatus.invalid).toBe(1);
    expect(first.byStatus["error-response"]).toBe(0);
    expect(second.byStatus).toEqual({ valid: 1, "error-response": 1, invalid: 1, unrecognised: 1, unparseable: 1 });
    expect(second.byFamily).toEqual({ mcp: 1, a2a: 1, "fisk-ai": 1 });
  });

  it("turns issues into editor markers, on the key for extra properties, leaving syntax errors to the editor", () => {
    expect(
      issueMarkers([
        { pointer: "/a", message: "bad", severity: "error", source: "schema", keyword: "type" },
        { pointer: "/x", message: "extra", severity: "error", source: "schema", keyword: "additionalProperties" },
        { pointer: "/id", message: "odd", severity: "warning", source: "rule", rule: "r" },
        { pointer: "", message: "Not JSON", severity: "error", source: "syntax", line: 1, column: 2 },
      ]),
    ).toEqual([
      { pointer: "/a", message: "bad", severity: "error" },
      { pointer: "/x", message: "extra", severity: "error", key: true },
      { pointer: "/id", message: "odd", severity: "warning" },
    ]);
  });
});
