import { describe, expect, it } from "vitest";
import type { SchemaDraft } from "../validation/types.ts";
import { jsonEqual, SchemaInclusion, type SchemaSide } from "./schema-inclusion.ts";

type Defs = Record<string, unknown>;

function side(defs: Defs, draft: SchemaDraft = "draft-07", assertFormats = false): SchemaSide {
  return { document: { [draft === "2020-12" ? "$defs" : "definitions"]: defs }, draft, assertFormats };
}

/** Whether definition `name` of `a` is proven to accept no value definition `name` of `b` refuses. */
function includes(a: SchemaSide, b: SchemaSide, name = "M"): boolean {
  const def = (s: SchemaSide) => (s.document[s.draft === "2020-12" ? "$defs" : "definitions"] as Defs)[name];
  return new SchemaInclusion(a, b).includes(def(a), def(b));
}

const ref = (name: string, draft: SchemaDraft = "draft-07") => ({ $ref: `#/${draft === "2020-12" ? "$defs" : "definitions"}/${name}` });
const object = (properties: Defs, required: string[] = [], extra: Defs = {}) => ({ type: "object", properties, required, ...extra });

describe("SchemaInclusion", () => {
  it("proves a newer definition with an extra optional member within the older, not the other way", () => {
    const older = side({ M: object({ x: { type: "string" } }, ["x"]) });
    const newer = side({ M: object({ x: { type: "string" }, y: { type: "number" } }, ["x"]) });
    expect(includes(newer, older)).toBe(true);
    // An older message may carry y as anything; the newer refuses a string there.
    expect(includes(older, newer)).toBe(false);
  });

  it("needs every member b requires to be required by a", () => {
    const one = side({ M: object({ x: { type: "string" } }, ["x"]) });
    const two = side({ M: object({ x: { type: "string" }, y: { type: "string" } }, ["x", "y"]) });
    expect(includes(two, one)).toBe(true);
    expect(includes(one, two)).toBe(false);
  });

  it("reads types with integer inside number", () => {
    const t = (type: unknown) => side({ M: { type } });
    expect(includes(t("integer"), t("number"))).toBe(true);
    expect(includes(t("number"), t("integer"))).toBe(false);
    expect(includes(t(["string", "integer"]), t(["number", "string"]))).toBe(true);
    expect(includes(t(["string", "null"]), t("string"))).toBe(false);
    expect(includes(side({ M: { const: 3 } }), t("integer"))).toBe(true);
    expect(includes(side({ M: { const: 3.5 } }), t("integer"))).toBe(false);
    expect(includes(side({ M: {} }), t("string"))).toBe(false);
  });

  it("compares consts and enums by value", () => {
    const e = (values: unknown[]) => side({ M: { enum: values } });
    expect(includes(e(["a"]), e(["a", "b"]))).toBe(true);
    expect(includes(e(["a", "b"]), e(["a"]))).toBe(false);
    expect(includes(side({ M: { const: { k: [1] } } }), e([{ k: [1] }]))).toBe(true);
    expect(includes(side({ M: { const: "a" } }), side({ M: { const: "b" } }))).toBe(false);
  });

  it("accepts closed objects only from a definition closed within them", () => {
    const closed = side({ M: object({ x: {}, y: {} }, [], { additionalProperties: false }) });
    const narrower = side({ M: object({ x: {} }, [], { additionalProperties: false }) });
    const open = side({ M: object({ x: {} }) });
    expect(includes(narrower, closed)).toBe(true);
    expect(includes(closed, narrower)).toBe(false);
    expect(includes(open, closed)).toBe(false);
    // A member a forbids needs nothing of b.
    expect(includes(narrower, side({ M: object({ y: { type: "string" } }) }))).toBe(true);
  });

  it("fits a into one branch of b's anyOf, or each of a's branches into one", () => {
    const text = object({ type: { const: "text" }, text: { type: "string" } }, ["type", "text"]);
    const image = object({ type: { const: "image" }, data: { type: "string" } }, ["type", "data"]);
    const audio = object({ type: { const: "audio" }, data: { type: "string" } }, ["type", "data"]);
    const two = side({ Text: text, Image: image, M: { anyOf: [ref("Text"), ref("Image")] } });
    const three = side({ Text: text, Image: image, Audio: audio, M: { anyOf: [ref("Text"), ref("Image"), ref("Audio")] } });
    expect(includes(two, three)).toBe(true);
    expect(includes(three, two)).toBe(false);
    expect(includes(side({ M: text }), two)).toBe(true);
  });

  it("follows recursive references", () => {
    const tree = (extra: Defs) => side({ M: object({ children: { type: "array", items: ref("M") }, ...extra }) });
    expect(includes(tree({ name: { type: "string" } }), tree({}))).toBe(true);
    expect(includes(tree({}), tree({ name: { type: "string" } }))).toBe(false);
    // Two recursive definitions that differ below the recursion: the assumption made on the way in does not carry it.
    const deep = (leaf: string) => side({ M: object({ next: ref("M"), leaf: { type: leaf } }) });
    expect(includes(deep("string"), deep("number"))).toBe(false);
    expect(includes(deep("integer"), deep("number"))).toBe(true);
  });

  it("takes allOf apart on either side", () => {
    const base = object({ jsonrpc: { const: "2.0" } }, ["jsonrpc"]);
    const composed = side({ Base: base, M: { allOf: [ref("Base"), object({ method: { const: "ping" } }, ["method"])] } });
    const flat = side({ M: object({ jsonrpc: { const: "2.0" }, method: { const: "ping" } }, ["jsonrpc", "method"]) });
    expect(includes(flat, composed)).toBe(true);
    expect(includes(composed, flat)).toBe(true);
  });

  it("reads $ref siblings as loosely as it may on a's side under draft-07, and strictly on b's", () => {
    const target = { Base: object({ x: { type: "string" } }) };
    const withSibling = (draft: SchemaDraft) => side({ ...target, M: { ...ref("Base", draft), required: ["x"] } }, draft);
    const needsX = (draft: SchemaDraft) => side({ ...target, M: object({ x: { type: "string" } }, ["x"]) }, draft);
    // draft-07 may ignore the sibling, so it proves nothing on a's side.
    expect(includes(withSibling("draft-07"), needsX("draft-07"))).toBe(false);
    expect(includes(withSibling("2020-12"), needsX("2020-12"))).toBe(true);
    expect(includes(needsX("draft-07"), withSibling("draft-07"))).toBe(true);
  });

  it("counts formats only where b asserts them", () => {
    const date = (assert: boolean) => side({ M: { type: "string", format: "date-time" } }, "draft-07", assert);
    const plain = (assert: boolean) => side({ M: { type: "string" } }, "draft-07", assert);
    expect(includes(plain(false), date(false))).toBe(true);
    expect(includes(plain(true), date(true))).toBe(false);
    expect(includes(date(true), date(true))).toBe(true);
    expect(includes(date(false), date(true))).toBe(false);
  });

  it("holds bounds at least as tight", () => {
    const len = (min: number) => side({ M: { type: "string", minLength: min } });
    expect(includes(len(3), len(1))).toBe(true);
    expect(includes(len(1), len(3))).toBe(false);
  });

  it("proves nothing from a keyword it does not reason about, or a reference that leaves the definitions", () => {
    const named = side({ M: { type: "object", propertyNames: { pattern: "^a" } } });
    expect(includes(named, named)).toBe(false);
    expect(includes(side({ M: { type: "object" } }), side({ M: { type: "object", $ref: "other.json#/x" } }))).toBe(false);
    expect(includes(side({ M: { $id: "x", type: "string" } }), side({ M: { type: "string" } }))).toBe(false);
  });

  it("takes false and true schemas for what they are", () => {
    expect(includes(side({ M: false }), side({ M: { type: "string" } }))).toBe(true);
    expect(includes(side({ M: { type: "string" } }), side({ M: true }))).toBe(true);
    expect(includes(side({ M: true }), side({ M: false }))).toBe(false);
  });
});

describe("jsonEqual", () => {
  it("ignores member order and nothing else", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});
