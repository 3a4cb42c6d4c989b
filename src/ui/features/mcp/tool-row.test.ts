import { describe, expect, it } from "vitest";
import { lintMarker, toolTitle } from "./tool-row.ts";

describe("tool rows", () => {
  it("shows title, else annotations.title, but not one that repeats the name", () => {
    expect(toolTitle({ name: "echo", title: "Echo Tool", annotations: { title: "Other" } })).toBe("Echo Tool");
    expect(toolTitle({ name: "echo", annotations: { title: "Echo (annotated)" } })).toBe("Echo (annotated)");
    expect(toolTitle({ name: "echo", title: "echo" })).toBeUndefined();
    expect(toolTitle({ name: "echo", title: " " })).toBeUndefined();
    expect(toolTitle({ name: "echo" })).toBeUndefined();
  });

  it("marks a row with its errors and warnings, not its notes", () => {
    expect(lintMarker({ error: 0, warning: 0, info: 4 })).toBeUndefined();
    expect(lintMarker({ error: 0, warning: 1, info: 4 })).toEqual({ level: "warning", count: 1, label: "lint: 1 warning" });
    expect(lintMarker({ error: 2, warning: 3, info: 0 })).toEqual({ level: "error", count: 5, label: "lint: 2 errors, 3 warnings" });
  });
});
