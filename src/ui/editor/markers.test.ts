import { describe, expect, it } from "vitest";
import { levelOf, problemOffset, textProblems, toMonacoMarkers } from "./markers.ts";

// Monaco's MarkerSeverity values.
const SCALE = { Hint: 1, Info: 2, Warning: 4, Error: 8 };
const TEXT = '{\n  "name": 5,\n  "extra": true\n}';

describe("editor markers", () => {
  it("turns pointer markers into Monaco marker data with numeric severities", () => {
    const data = toMonacoMarkers(
      TEXT,
      [
        { pointer: "/name", message: "must be string" },
        { pointer: "/extra", message: "not allowed", key: true, severity: "warning" },
        { pointer: "", message: "root", severity: "info" },
      ],
      SCALE,
    );
    expect(data).toEqual([
      { startLineNumber: 2, startColumn: 11, endLineNumber: 2, endColumn: 12, message: "must be string", severity: 8, source: "/name" },
      { startLineNumber: 3, startColumn: 3, endLineNumber: 3, endColumn: 10, message: "not allowed", severity: 4, source: "/extra" },
      { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 2, message: "root", severity: 2, source: "/" },
    ]);
  });

  it("maps Monaco severities back to levels, hints counting as info", () => {
    expect([8, 4, 2, 1].map((s) => levelOf(s, SCALE))).toEqual(["error", "warning", "info", "info"]);
  });

  it("reports the syntax error and the markers without Monaco, sorted by position", () => {
    const broken = '{\n  "name": 5,\n  "extra" true\n}';
    expect(textProblems(broken, [{ pointer: "/name", message: "must be string" }])).toEqual([
      { line: 2, column: 11, message: "must be string", severity: "error" },
      { line: 3, column: 11, message: "Unexpected 't': expected ':' after the property name", severity: "error" },
    ]);
    expect(textProblems(TEXT, [])).toEqual([]);
  });

  it("finds a problem's offset for a plain textarea caret", () => {
    const offset = problemOffset(TEXT, { line: 3, column: 3, message: "", severity: "error" });
    expect(TEXT.slice(offset, offset + 7)).toBe('"extra"');
  });
});
