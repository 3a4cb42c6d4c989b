import { describe, expect, it } from "vitest";
import { definitionContainer, definitionNode, localRefTarget, pointerTarget } from "./schema-document.ts";

const doc = { $defs: { "a/b": { type: "string" }, "c~d": { anyOf: [{ type: "null" }, { type: "number" }] }, "sp ace": true } };

describe("schema document lookups", () => {
  it("name the container of each draft and find definitions by name, own ones only", () => {
    expect(definitionContainer("2020-12")).toBe("$defs");
    expect(definitionContainer("draft-07")).toBe("definitions");
    expect(definitionNode({ document: doc, draft: "2020-12" }, "a/b")).toEqual({ type: "string" });
    expect(definitionNode({ document: doc, draft: "2020-12" }, "toString")).toBeUndefined();
    expect(definitionNode({ document: doc, draft: "draft-07" }, "a/b")).toBeUndefined();
  });

  it("follow a pointer's escapes and array indexes", () => {
    expect(pointerTarget(doc, "/$defs/a~1b/type")).toBe("string");
    expect(pointerTarget(doc, "/$defs/c~0d/anyOf/1")).toEqual({ type: "number" });
    expect(pointerTarget(doc, "")).toBe(doc);
    expect(pointerTarget(doc, "/$defs/missing/type")).toBeUndefined();
    expect(() => pointerTarget(doc, "no-slash")).toThrow();
  });

  it("resolve a local $ref's URI fragment, and nothing for a reference without one", () => {
    expect(localRefTarget(doc, "#/$defs/sp%20ace")).toBe(true);
    expect(localRefTarget(doc, "#/$defs/a~1b")).toEqual({ type: "string" });
    expect(localRefTarget(doc, "#")).toBe(doc);
    expect(localRefTarget(doc, "other.json")).toBeUndefined();
    expect(localRefTarget(doc, "#/$defs/nothing")).toBeUndefined();
  });
});
