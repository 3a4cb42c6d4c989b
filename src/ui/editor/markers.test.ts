import { describe, expect, it } from "vitest";
import { levelOf, problemOffset, shownMarkers, textProblems, toMonacoMarkers } from "./markers.ts";

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

  it("reports a syntax error alone without Monaco, else the markers sorted by position", () => {
    const broken = '{\n  "name": 5,\n  "extra" true\n}';
    const markers = [{ pointer: "/extra", message: "not allowed" }, { pointer: "/name", message: "must be string" }];
    expect(textProblems(broken, markers)).toEqual([
      { line: 3, column: 11, message: "Unexpected 't': expected ':' after the property name", severity: "error" },
    ]);
    expect(textProblems(TEXT, markers)).toEqual([
      { line: 2, column: 11, message: "must be string", severity: "error" },
      { line: 3, column: 12, message: "not allowed", severity: "error" },
    ]);
    expect(textProblems(TEXT, [])).toEqual([]);
  });

  it("shows Monaco's syntax errors alone while the text does not parse, and schema problems only when asked", () => {
    // As Monaco's JSON language reports {"a": 2, "b": }: 516 is "Value expected", 0 a schema problem.
    const syntax = { owner: "json", code: "516", message: "Value expected" };
    const schema = { owner: "json", code: "0", message: 'Missing property "b".' };
    const ours = { owner: "patchbay", message: "must be string" };
    expect(shownMarkers([schema, syntax, ours], true)).toEqual([syntax]);
    expect(shownMarkers([schema, ours], true)).toEqual([schema, ours]);
    expect(shownMarkers([schema, ours], false)).toEqual([ours]);
    // A duplicate key (520) is a warning about text that parses, not a syntax error.
    const duplicate = { owner: "json", code: { value: "520" }, message: "Duplicate object key" };
    expect(shownMarkers([duplicate, ours], true)).toEqual([duplicate, ours]);
  });

  it("finds a problem's offset for a plain textarea caret", () => {
    const offset = problemOffset(TEXT, { line: 3, column: 3, message: "", severity: "error" });
    expect(TEXT.slice(offset, offset + 7)).toBe('"extra"');
  });
});
