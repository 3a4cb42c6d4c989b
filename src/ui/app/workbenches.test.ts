import { describe, expect, it } from "vitest";
import { initialTheme } from "./theme.ts";
import { WORKBENCHES, workbenchFromHash } from "./workbenches.ts";

describe("workbenches", () => {
  it("has the seven workbenches in order, each saying what it is for", () => {
    expect(WORKBENCHES.map((w) => w.id)).toEqual(["mcp", "a2a", "nats", "validate", "serve", "collections", "conformance", "traffic"]);
    for (const w of WORKBENCHES) expect(w.purpose.length).toBeGreaterThan(40);
  });

  it("routes from the hash and falls back to NATS", () => {
    expect(workbenchFromHash("#/traffic")).toBe("traffic");
    expect(workbenchFromHash("#traffic")).toBe("traffic");
    expect(workbenchFromHash("#/collections")).toBe("collections");
    expect(workbenchFromHash("#/nope")).toBe("mcp");
    expect(workbenchFromHash("")).toBe("mcp");
    expect(workbenchFromHash("", "serve")).toBe("serve");
    expect(workbenchFromHash("#/nats", "serve")).toBe("nats");
    expect(workbenchFromHash("", "../etc")).toBe("mcp");
  });
});

describe("theme", () => {
  const store = (v: string | null) => ({ getItem: () => v });
  it("prefers the saved theme, then the system", () => {
    expect(initialTheme(store("dark"), false)).toBe("dark");
    expect(initialTheme(store("light"), true)).toBe("light");
    expect(initialTheme(store(null), true)).toBe("dark");
    expect(initialTheme(store("purple"), false)).toBe("light");
  });
});
