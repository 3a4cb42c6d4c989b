import { describe, expect, it } from "vitest";
import { RefResolver } from "./schema-refs.ts";

const address = { type: "object", properties: { city: { type: "string" } } };

describe("RefResolver", () => {
  it("follows 2020-12 $defs and draft-07 definitions pointers", () => {
    const root = { $defs: { address }, definitions: { old: { type: "string" } } };
    const r = new RefResolver(root);
    expect(r.resolve("#/$defs/address")).toEqual({ ok: true, schema: address, name: "address" });
    expect(r.resolve("#/definitions/old")).toMatchObject({ ok: true, name: "old" });
  });

  it("resolves '#' and '' to the root", () => {
    const root = { type: "object" };
    const r = new RefResolver(root);
    expect(r.resolve("#")).toMatchObject({ ok: true, schema: root });
    expect(r.resolve("")).toMatchObject({ ok: true, schema: root });
  });

  it("decodes ~0, ~1 and percent escapes in pointers", () => {
    const target = { type: "integer" };
    const r = new RefResolver({ $defs: { "a/b": { "c~d": { "e f": target } } } });
    expect(r.resolve("#/$defs/a~1b/c~0d/e%20f")).toMatchObject({ ok: true, schema: target, name: "e f" });
  });

  it("walks into arrays by index", () => {
    const target = { type: "boolean" };
    const r = new RefResolver({ anyOf: [{ type: "string" }, target] });
    expect(r.resolve("#/anyOf/1")).toMatchObject({ ok: true, schema: target });
    expect(r.resolve("#/anyOf/01")).toMatchObject({ ok: false });
  });

  it("finds $anchor and draft-07 '#name' ids", () => {
    const a = { $anchor: "point", type: "object" };
    const b = { $id: "#size", type: "number" };
    const r = new RefResolver({ $defs: { a, b } });
    expect(r.resolve("#point")).toMatchObject({ ok: true, schema: a, name: "point" });
    expect(r.resolve("#size")).toMatchObject({ ok: true, schema: b });
    expect(r.resolve("#nope")).toEqual({ ok: false, reason: 'the reference "#nope" names an anchor this schema does not define' });
  });

  it("resolves the root's own absolute id and embedded ids, never remote ones", () => {
    const item = { $id: "https://example.com/item.json", type: "object", $defs: { n: { type: "number" } } };
    const r = new RefResolver({ $id: "https://example.com/root.json", $defs: { item, s: { type: "string" } } });
    expect(r.resolve("https://example.com/root.json#/$defs/s")).toMatchObject({ ok: true, name: "s" });
    expect(r.resolve("https://example.com/item.json")).toMatchObject({ ok: true, schema: item });
    expect(r.resolve("https://example.com/item.json#/$defs/n")).toMatchObject({ ok: true, name: "n" });
    expect(r.resolve("https://elsewhere.example/x.json")).toEqual({
      ok: false,
      reason: 'the reference "https://elsewhere.example/x.json" points outside this schema, and remote schemas are not fetched',
    });
  });

  it("names missing targets, bad pointers and non-schemas plainly", () => {
    const r = new RefResolver({ $defs: { n: 5 } });
    expect(r.resolve("#/$defs/missing")).toEqual({ ok: false, reason: 'the reference "#/$defs/missing" names nothing in this schema' });
    expect(r.resolve("#/$defs/%E0%A4%A")).toEqual({ ok: false, reason: 'the reference "#/$defs/%E0%A4%A" is not a valid JSON pointer' });
    expect(r.resolve("#/$defs/~2")).toMatchObject({ ok: false, reason: expect.stringContaining("not a valid JSON pointer") });
    expect(r.resolve("#/$defs/n")).toEqual({ ok: false, reason: 'the reference "#/$defs/n" does not name a schema' });
  });

  it("never reaches the prototype chain", () => {
    const r = new RefResolver({ $defs: {} });
    expect(r.resolve("#/$defs/constructor")).toMatchObject({ ok: false });
    expect(r.resolve("#/__proto__")).toMatchObject({ ok: false });
  });

  it("does not index ids inside const, enum and default data", () => {
    const r = new RefResolver({ properties: { a: { const: { $anchor: "fake" } } } });
    expect(r.resolve("#fake")).toMatchObject({ ok: false });
  });

  it("indexes a very deep document without overflowing the stack", () => {
    let deep: Record<string, unknown> = { $anchor: "bottom" };
    for (let i = 0; i < 100_000; i++) deep = { properties: { x: deep } };
    const r = new RefResolver(deep);
    // Past the index depth the anchor is simply not found: a plain reason, no crash.
    expect(r.resolve("#bottom")).toMatchObject({ ok: false });
  });
});
