import { describe, expect, it } from "vitest";
import { inlineRefs } from "./inline-refs.ts";

const doc = (definitions: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ $id: "urn:test", definitions, ...extra });

describe("inlineRefs", () => {
  it("writes out a non-recursive definition, also through a chain of them", () => {
    const out = inlineRefs(doc({ A: { properties: { b: { $ref: "#/definitions/B" } } }, B: { properties: { c: { $ref: "#/definitions/C" } } }, C: { type: "string" } }), "definitions");
    expect((out.definitions as Record<string, unknown>).A).toEqual({ properties: { b: { properties: { c: { type: "string" } } } } });
  });

  it("keeps the $ref of a definition that reaches itself, directly or through another", () => {
    const out = inlineRefs(doc({ Tree: { properties: { kids: { items: { $ref: "#/definitions/Tree" } } } }, Ping: { $ref: "#/definitions/Pong" }, Pong: { items: { $ref: "#/definitions/Ping" } }, Use: { items: { $ref: "#/definitions/Tree" } } }), "definitions");
    const defs = out.definitions as Record<string, unknown>;
    expect(defs.Tree).toEqual({ properties: { kids: { items: { $ref: "#/definitions/Tree" } } } });
    expect(defs.Ping).toEqual({ $ref: "#/definitions/Pong" });
    expect(defs.Use).toEqual({ items: { $ref: "#/definitions/Tree" } });
  });

  it("keeps a $ref whose siblings assert, and writes out one whose siblings only annotate", () => {
    const out = inlineRefs({ $id: "urn:t", $defs: { S: { type: "string" }, A: { $ref: "#/$defs/S", maxLength: 3 }, B: { $ref: "#/$defs/S", description: "x" } } }, "$defs");
    const defs = out.$defs as Record<string, unknown>;
    expect(defs.A).toEqual({ $ref: "#/$defs/S", maxLength: 3 });
    expect(defs.B).toEqual({ type: "string" });
  });

  it("keeps a draft-07 $ref whose siblings assert: ajv applies them there too", () => {
    const out = inlineRefs(doc({ S: { type: "string" }, A: { $ref: "#/definitions/S", maxLength: 3 } }), "definitions");
    expect((out.definitions as Record<string, unknown>).A).toEqual({ $ref: "#/definitions/S", maxLength: 3 });
  });

  it("leaves data alone: a $ref inside const, enum, default or examples is no reference", () => {
    const out = inlineRefs(doc({ S: { type: "string" }, A: { const: { $ref: "#/definitions/S" } } }), "definitions");
    expect((out.definitions as Record<string, unknown>).A).toEqual({ const: { $ref: "#/definitions/S" } });
  });

  it("returns the document untouched when references resolve other than by name in the container", () => {
    for (const d of [doc({ A: { $id: "urn:other" } }), doc({ A: { $ref: "other.json#/x" } }), doc({ A: { $ref: "#/definitions/Missing" } }), { $id: "urn:none" }]) {
      expect(inlineRefs(d, "definitions")).toBe(d);
    }
  });

  it("keeps the $ref of a definition too large to copy into every use", () => {
    const big = { enum: Array.from({ length: 20_000 }, (_, i) => `value-${i}`) };
    const out = inlineRefs(doc({ Big: big, A: { items: { $ref: "#/definitions/Big" } } }), "definitions");
    expect((out.definitions as Record<string, unknown>).A).toEqual({ items: { $ref: "#/definitions/Big" } });
  });
});
