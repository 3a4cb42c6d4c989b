import { describe, expect, it } from "vitest";
import { pointerMarkers } from "./pointer-markers.ts";

const TEXT = ['{', '  "name": 5,', '  "params": {', '    "x": 1', "  }", "}"].join("\n");

describe("pointerMarkers", () => {
  it("places a value error at its range with Monaco's field names", () => {
    const [m] = pointerMarkers(TEXT, [{ pointer: "/name", message: "must be string" }]);
    expect(m).toEqual({
      startLineNumber: 2,
      startColumn: 11,
      endLineNumber: 2,
      endColumn: 12,
      message: "must be string",
      severity: "error",
      pointer: "/name",
      found: true,
    });
  });

  it("marks the key when asked (additional properties)", () => {
    const [m] = pointerMarkers(TEXT, [{ pointer: "/params/x", message: "must NOT have additional properties", key: true, severity: "warning" }]);
    expect(m).toMatchObject({ startLineNumber: 4, startColumn: 5, endColumn: 8, severity: "warning", found: true });
  });

  it("marks only the opening bracket of a multi-line container", () => {
    const [whole, params] = pointerMarkers(TEXT, [
      { pointer: "", message: "must have required property 'id'" },
      { pointer: "/params", message: "bad" },
    ]);
    expect(whole).toMatchObject({ startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 2 });
    expect(params).toMatchObject({ startLineNumber: 3, startColumn: 13, endLineNumber: 3, endColumn: 14 });
  });

  it("puts a missing member on its nearest ancestor, flagged as not found", () => {
    const [m] = pointerMarkers(TEXT, [{ pointer: "/params/y", message: "missing y", severity: "info" }]);
    expect(m).toMatchObject({ startLineNumber: 3, startColumn: 13, found: false, severity: "info" });
  });

  it("keeps a problem with a malformed pointer, at the document start, with the reason", () => {
    const [m] = pointerMarkers(`\n  ${TEXT}`, [{ pointer: "params", message: "oops" }]);
    expect(m).toMatchObject({ startLineNumber: 2, startColumn: 3, found: false });
    expect(m!.message).toMatch(/^oops \(JSON pointer "params" must be empty or start with "\/"\)$/);
  });

  it("returns one marker per problem, in order", () => {
    const problems = [
      { pointer: "/params/x", message: "a" },
      { pointer: "/name", message: "b" },
    ];
    expect(pointerMarkers(TEXT, problems).map((m) => [m.message, m.startLineNumber])).toEqual([
      ["a", 4],
      ["b", 2],
    ]);
    expect(pointerMarkers(TEXT, [])).toEqual([]);
  });
});
