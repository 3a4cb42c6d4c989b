import { describe, expect, it } from "vitest";
import { RecentStrings } from "./recent-strings.ts";

describe("RecentStrings", () => {
  it("finds a key by its text, whichever string object carries it", () => {
    const recent = new RecentStrings<number>(4);
    const key = JSON.parse('"io.choria.fisk-ai.v1.tool.request"') as string;
    recent.set(key, 1);
    expect(recent.get(JSON.parse('"io.choria.fisk-ai.v1.tool.request"') as string)).toBe(1);
    expect(recent.get("io.choria.fisk-ai.v1.tool.reply")).toBeUndefined();
    expect(recent.get("")).toBeUndefined();
  });

  it("keeps at most its size, replacing the oldest first, and updates a key in place", () => {
    const recent = new RecentStrings<string>(3);
    for (const k of ["a", "b", "c"]) recent.set(k, k.toUpperCase());
    recent.set("b", "B2");
    recent.set("d", "D");
    expect(["a", "b", "c", "d"].map((k) => recent.get(k))).toEqual([undefined, "B2", "C", "D"]);
    recent.set("e", "E");
    expect(["b", "c", "d", "e"].map((k) => recent.get(k))).toEqual([undefined, "C", "D", "E"]);
    recent.clear();
    expect(recent.get("e")).toBeUndefined();
  });
});
