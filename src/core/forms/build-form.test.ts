import { describe, expect, it } from "vitest";
import { buildFormModel } from "./build-form.ts";
import type { ArrayNode, ChoiceNode, EditorOnlyNode, EnumNode, FormNode, ObjectNode } from "./form-model.ts";

const rootOf = (schema: unknown): FormNode => buildFormModel(schema).root;

function as<K extends FormNode["kind"]>(node: FormNode | undefined, kind: K): Extract<FormNode, { kind: K }> {
  expect(node?.kind).toBe(kind);
  return node as Extract<FormNode, { kind: K }>;
}

const member = (node: FormNode, name: string): FormNode => {
  const property = as(node, "object").properties.find((p) => p.name === name);
  expect(property, `member ${name}`).toBeDefined();
  return (property as { node: FormNode }).node;
};

describe("buildFormModel: plain types", () => {
  it("reads an object's members in order with required markers, titles and help text", () => {
    const root = as(
      rootOf({
        type: "object",
        properties: {
          name: { type: "string", title: "Full name", description: "  As on the card.  " },
          age: { type: "integer", minimum: 0, maximum: 150 },
          ok: { type: "boolean" },
        },
        required: ["name"],
      }),
      "object",
    );
    expect(root.properties.map((p) => [p.name, p.required, p.node.kind])).toEqual([
      ["name", true, "string"],
      ["age", false, "number"],
      ["ok", false, "boolean"],
    ]);
    expect(root.properties[0]?.node).toMatchObject({ title: "Full name", description: "As on the card." });
    expect(root.properties[1]?.node).toMatchObject({ integer: true, minimum: 0, maximum: 150 });
    expect(root.closed).toBe(false);
    expect(root.note).toBeUndefined();
  });

  it("keeps string formats, lengths and patterns, and number bounds of both drafts", () => {
    const root = rootOf({
      properties: {
        email: { type: "string", format: "email", minLength: 3, maxLength: 80, pattern: "^.+@.+$" },
        ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.01 },
        old: { type: "number", minimum: 5, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: true },
      },
    });
    expect(member(root, "email")).toMatchObject({ kind: "string", format: "email", minLength: 3, maxLength: 80, pattern: "^.+@.+$" });
    expect(member(root, "ratio")).toMatchObject({ kind: "number", integer: false, exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.01 });
    expect(member(root, "old")).toMatchObject({ minimum: undefined, exclusiveMinimum: 5, maximum: undefined, exclusiveMaximum: 9 });
  });

  it("infers the type from the keywords when `type` is missing", () => {
    const root = rootOf({ properties: { s: { minLength: 1 }, n: { maximum: 3 }, a: { items: { type: "string" } }, o: { properties: {} } } });
    expect(as(root, "object").properties.map((p) => p.node.kind)).toEqual(["string", "number", "array", "object"]);
  });

  it("keeps defaults, readOnly and deprecated", () => {
    const node = member(rootOf({ properties: { n: { type: "integer", default: 3, readOnly: true, deprecated: true } } }), "n");
    expect(node).toMatchObject({ hasDefault: true, default: 3, readOnly: true, deprecated: true });
    expect(member(rootOf({ properties: { s: { type: "string", default: null } } }), "s")).toMatchObject({ hasDefault: true, default: null });
  });

  it("cuts very long help text", () => {
    const node = buildFormModel({ type: "string", description: "x".repeat(50) }, { maxDescription: 10 }).root;
    expect(node.description).toBe(`${"x".repeat(9)}…`);
  });

  it("reads an object without members as an empty object field", () => {
    expect(rootOf({ type: "object" })).toMatchObject({ kind: "object", properties: [], closed: false });
    expect(rootOf({ type: "object", additionalProperties: false })).toMatchObject({ kind: "object", closed: true });
  });
});

describe("buildFormModel: nullable, enums and constants", () => {
  it("reads type lists with null and OpenAPI `nullable` as nullable fields", () => {
    const root = rootOf({ properties: { a: { type: ["string", "null"] }, b: { type: "integer", nullable: true }, c: { type: "null" } } });
    expect(member(root, "a")).toMatchObject({ kind: "string", nullable: true });
    expect(member(root, "b")).toMatchObject({ kind: "number", nullable: true });
    expect(member(root, "c")).toMatchObject({ kind: "null" });
  });

  it("collapses anyOf [x, null] to a nullable x that keeps the outer words", () => {
    const node = member(
      rootOf({ properties: { tag: { description: "Optional tag", default: null, anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] } } }),
      "tag",
    );
    expect(node).toMatchObject({ kind: "enum", nullable: true, description: "Optional tag", hasDefault: true, default: null });
    expect((node as EnumNode).options.map((o) => o.value)).toEqual(["a", "b"]);
  });

  it("reads enums with labels from enumNames, and mixed values as JSON", () => {
    const a = as(member(rootOf({ properties: { a: { enum: ["x", "y"], enumNames: ["Ex", "Why"] } } }), "a"), "enum");
    expect(a.options).toEqual([
      { value: "x", label: "Ex" },
      { value: "y", label: "Why" },
    ]);
    const b = as(member(rootOf({ properties: { b: { enum: [1, null, { k: 1 }] } } }), "b"), "enum");
    expect(b.options.map((o) => o.label)).toEqual(["1", "null", '{"k":1}']);
    expect(b.isConst).toBe(false);
  });

  it("reads const as a one-option enum", () => {
    expect(member(rootOf({ properties: { k: { const: "circle" } } }), "k")).toMatchObject({ kind: "enum", isConst: true, options: [{ value: "circle", label: "circle" }] });
  });

  it("reads a union of titled constants as one labelled enum", () => {
    const node = as(
      member(rootOf({ properties: { size: { type: "string", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] } } }), "size"),
      "enum",
    );
    expect(node.options).toEqual([
      { value: "s", label: "Small" },
      { value: "l", label: "Large" },
    ]);
  });

  it("sends an empty enum to the editor", () => {
    expect(member(rootOf({ properties: { e: { enum: [] } } }), "e")).toMatchObject({ kind: "editor", reason: "its enum lists no values, so no value is valid" });
  });
});

describe("buildFormModel: arrays", () => {
  it("reads nested arrays of objects with their bounds", () => {
    const root = rootOf({
      properties: {
        rows: {
          type: "array",
          minItems: 1,
          maxItems: 5,
          uniqueItems: true,
          items: { type: "object", properties: { cells: { type: "array", items: { type: "number" } } } },
        },
      },
    });
    const rows = as(member(root, "rows"), "array");
    expect(rows).toMatchObject({ minItems: 1, maxItems: 5, uniqueItems: true });
    const cells = as(member(rows.items, "cells"), "array");
    expect(cells.items.kind).toBe("number");
  });

  it("sends tuples and free-form items to the editor, saying why", () => {
    const root = rootOf({
      properties: {
        t: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
        t7: { type: "array", items: [{ type: "string" }] },
        any: { type: "array" },
      },
    });
    expect((member(root, "t") as EditorOnlyNode).reason).toBe("it is a tuple (prefixItems): each position has its own schema");
    expect(member(root, "t7").kind).toBe("editor");
    expect((member(root, "any") as EditorOnlyNode).reason).toBe("its items are edited in the editor: it accepts any JSON value, which only the editor can take");
  });
});

describe("buildFormModel: editor-only parts", () => {
  it.each([
    [{ not: { type: "string" } }, "it uses `not`, which a form cannot express"],
    [{ if: { type: "string" }, then: { minLength: 1 } }, "it uses if/then/else, so its shape depends on the value"],
    [{ type: "object", patternProperties: { "^x-": { type: "string" } } }, "its members have free-form names (patternProperties), which a form cannot list"],
    [{ type: "object", additionalProperties: { type: "number" } }, "its members have free-form names (additionalProperties), which a form cannot list"],
    [{}, "it accepts any JSON value, which only the editor can take"],
    [true, "it accepts any JSON value, which only the editor can take"],
    [false, "its schema is `false`, which allows no value"],
    [{ type: "date" }, 'its type "date" is not a JSON Schema type'],
    [{ oneOf: [{ type: "string" }], anyOf: [{ type: "number" }] }, "it has both oneOf and anyOf"],
    [{ oneOf: "nope" }, "its oneOf is not a list of schemas"],
    [{ $dynamicRef: "#meta" }, "it uses a dynamic reference ($dynamicRef), which a form cannot follow"],
    [{ $ref: "https://example.com/remote.json" }, 'the reference "https://example.com/remote.json" points outside this schema, and remote schemas are not fetched'],
    [{ $ref: "#/$defs/missing" }, 'the reference "#/$defs/missing" names nothing in this schema'],
  ])("%j is editor only", (schema, reason) => {
    const node = member(rootOf({ properties: { x: schema } }), "x");
    expect(node).toMatchObject({ kind: "editor", reason });
  });

  it("keeps the title and help text of an editor-only field", () => {
    expect(member(rootOf({ properties: { x: { title: "Extra", description: "Anything", not: {} } } }), "x")).toMatchObject({
      kind: "editor",
      title: "Extra",
      description: "Anything",
    });
  });

  it("lists declared members and notes the free-form rest", () => {
    const root = as(rootOf({ properties: { a: { type: "string" } }, patternProperties: { "^x": {} }, additionalProperties: { type: "string" }, required: ["a", "zz"] }), "object");
    expect(root.properties.map((p) => p.name)).toEqual(["a"]);
    expect(root.note).toBe(
      "Members whose names match its patternProperties are edited in the editor. Further members (additionalProperties) are edited in the editor. It requires members it does not describe: zz.",
    );
  });
});

describe("buildFormModel: unions", () => {
  const shapes = {
    $defs: {
      circle: { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"] },
      square: { type: "object", title: "Square", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind", "side"] },
      Blob: { type: "object", properties: { size: { type: "number" } } },
    },
    type: "object",
    properties: { shape: { oneOf: [{ $ref: "#/$defs/circle" }, { $ref: "#/$defs/square" }, { $ref: "#/$defs/Blob" }, { type: "string" }] } },
  };

  it("offers variants labelled by title, discriminator, reference name or type", () => {
    const shape = as(member(rootOf(shapes), "shape"), "choice");
    expect(shape.keyword).toBe("oneOf");
    expect(shape.variants.map((v) => v.label)).toEqual(["kind: circle", "Square", "Blob", "string"]);
    expect(shape.variants.map((v) => v.node.kind)).toEqual(["object", "object", "object", "string"]);
  });

  it("folds the keywords beside the union into every variant", () => {
    const node = as(
      rootOf({
        type: "object",
        description: "Either way",
        properties: { id: { type: "string" } },
        required: ["id"],
        anyOf: [{ properties: { a: { type: "number" } } }, { properties: { b: { type: "boolean" } } }],
      }),
      "choice",
    );
    expect(node).toMatchObject({ keyword: "anyOf", description: "Either way" });
    const [first, second] = node.variants.map((v) => as(v.node, "object"));
    expect(first?.properties.map((p) => [p.name, p.required])).toEqual([
      ["id", true],
      ["a", false],
    ]);
    expect(second?.properties.map((p) => p.name)).toEqual(["id", "b"]);
    expect(first?.description).toBeUndefined();
  });

  it("reads a type list as a choice of types", () => {
    const node = as(member(rootOf({ properties: { v: { type: ["string", "number", "null"], minimum: 1 } } }), "v"), "choice");
    expect(node).toMatchObject({ keyword: "type", nullable: true });
    expect(node.variants.map((v) => [v.label, v.node.kind])).toEqual([
      ["string", "string"],
      ["number", "number"],
    ]);
    expect(node.variants[1]?.node).toMatchObject({ minimum: 1, nullable: false });
  });

  it("keeps a union of several shapes and null as a nullable choice", () => {
    const node = as(member(rootOf({ properties: { v: { oneOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] } } }), "v"), "choice");
    expect(node.nullable).toBe(true);
    expect(node.variants.map((v) => v.label)).toEqual(["string", "integer"]);
  });

  it("labels variants that differ only in what they require", () => {
    const node = as(
      rootOf({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, oneOf: [{ required: ["a"] }, { required: ["b"] }] }),
      "choice",
    );
    expect(node.variants.map((v) => v.label)).toEqual(["with a", "with b"]);
  });

  it("makes duplicate labels unique", () => {
    const node = as(member(rootOf({ properties: { v: { anyOf: [{ type: "string" }, { type: "string", format: "uri" }] } } }), "v"), "choice");
    expect(node.variants.map((v) => v.label)).toEqual(["string (1)", "string (2)"]);
  });

  it("reads a union at the root (several argument shapes)", () => {
    const node = as(rootOf({ oneOf: [{ type: "object", properties: { q: { type: "string" } } }, { type: "object", properties: { id: { type: "integer" } } }] }), "choice");
    expect(node.variants).toHaveLength(2);
  });
});

describe("buildFormModel: $ref and allOf", () => {
  it("follows $ref into $defs and definitions, with sibling keywords winning", () => {
    const root = rootOf({
      $defs: { addr: { type: "object", description: "An address", properties: { city: { type: "string" } }, required: ["city"] } },
      definitions: { n: { type: "integer" } },
      properties: { home: { $ref: "#/$defs/addr", description: "Where you live" }, count: { $ref: "#/definitions/n" } },
    });
    const home = as(member(root, "home"), "object");
    expect(home.description).toBe("Where you live");
    expect(home.properties).toMatchObject([{ name: "city", required: true, node: { kind: "string" } }]);
    expect(member(root, "count")).toMatchObject({ kind: "number", integer: true });
  });

  it("reuses one definition in several places (not a cycle)", () => {
    const root = rootOf({ $defs: { a: { type: "string" } }, properties: { x: { $ref: "#/$defs/a" }, y: { allOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }] } } });
    expect(member(root, "x").kind).toBe("string");
    expect(member(root, "y").kind).toBe("string");
  });

  it("cuts a recursive schema at the cycle and says why", () => {
    const root = rootOf({
      $defs: { node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
      type: "object",
      properties: { tree: { $ref: "#/$defs/node" } },
    });
    const tree = as(member(root, "tree"), "object");
    expect(member(tree, "name").kind).toBe("string");
    expect(member(tree, "children")).toMatchObject({
      kind: "editor",
      reason: 'its items are edited in the editor: it refers back to a schema that contains it ("node"), a recursive schema a form cannot unfold',
    });
  });

  it("cuts a reference to the root and reference loops", () => {
    const self = rootOf({ type: "object", properties: { again: { $ref: "#" } } });
    expect(member(self, "again")).toMatchObject({ kind: "editor", reason: expect.stringContaining("recursive schema") });
    const loop = rootOf({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } });
    expect(member(loop, "x")).toMatchObject({ kind: "editor", reason: expect.stringContaining("recursive schema") });
    const viaAllOf = rootOf({ $defs: { a: { allOf: [{ $ref: "#/$defs/a" }] } }, properties: { x: { $ref: "#/$defs/a" } } });
    expect(member(viaAllOf, "x").kind).toBe("editor");
  });

  it("merges allOf members: properties, required, and tighter bounds", () => {
    const root = rootOf({
      $defs: { base: { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] } },
      allOf: [
        { $ref: "#/$defs/base" },
        { properties: { id: { maxLength: 10, minLength: 3 }, extra: { type: "boolean" } }, required: ["extra"] },
        { type: "object", additionalProperties: false },
      ],
    });
    const object = as(root, "object");
    expect(object.properties.map((p) => [p.name, p.required])).toEqual([
      ["id", true],
      ["extra", true],
    ]);
    expect(member(object, "id")).toMatchObject({ kind: "string", minLength: 3, maxLength: 10 });
    expect(object.closed).toBe(true);
  });

  it("intersects types, enums and bounds across allOf", () => {
    const node = member(rootOf({ properties: { n: { allOf: [{ type: ["number", "string"], minimum: 1, maximum: 10 }, { type: "integer", minimum: 2, maximum: 20 }] } } }), "n");
    expect(node).toMatchObject({ kind: "number", integer: true, minimum: 2, maximum: 10 });
    const e = as(member(rootOf({ properties: { e: { allOf: [{ enum: ["a", "b", "c"] }, { enum: ["b", "c", "d"] }] } } }), "e"), "enum");
    expect(e.options.map((o) => o.value)).toEqual(["b", "c"]);
  });

  it("sends contradictory allOf parts to the editor", () => {
    const root = rootOf({
      properties: {
        t: { allOf: [{ type: "string" }, { type: "number" }] },
        e: { allOf: [{ enum: ["a"] }, { enum: ["b"] }] },
        c: { allOf: [{ const: 1 }, { const: 2 }] },
        u: { allOf: [{ oneOf: [{ type: "string" }] }, { oneOf: [{ type: "number" }] }] },
      },
    });
    expect(member(root, "t")).toMatchObject({ kind: "editor", reason: "its allOf parts disagree on the type (string against number)" });
    expect(member(root, "e")).toMatchObject({ kind: "editor", reason: "its allOf parts allow no common value" });
    expect(member(root, "c")).toMatchObject({ kind: "editor", reason: "its allOf parts require different constant values" });
    expect(member(root, "u")).toMatchObject({ kind: "editor", reason: "its allOf parts combine several oneOf unions" });
  });

  it("keeps a union found in one allOf part", () => {
    const node = as(
      rootOf({ allOf: [{ type: "object", properties: { id: { type: "string" } } }, { oneOf: [{ properties: { a: { type: "number" } } }, { properties: { b: { type: "number" } } }] }] }),
      "choice",
    );
    expect(node.variants.map((v) => as(v.node, "object").properties.map((p) => p.name))).toEqual([
      ["id", "a"],
      ["id", "b"],
    ]);
  });

  it("keeps a member named __proto__ as a member", () => {
    const root = as(rootOf(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}')), "object");
    expect(root.properties.map((p) => p.name)).toEqual(["__proto__"]);
    const merged = as(rootOf(JSON.parse('{"allOf":[{"properties":{"__proto__":{"type":"string"}}},{"properties":{"__proto__":{"minLength":2}}}]}')), "object");
    expect(merged.properties[0]).toMatchObject({ name: "__proto__", node: { kind: "string", minLength: 2 } });
  });
});

describe("buildFormModel: a realistic MCP tool schema", () => {
  it("builds every part of a Zod-generated schema with $ref reuse, nullable enums and a discriminated union", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: { money: { type: "object", properties: { amount: { type: "number" }, currency: { type: "string", enum: ["EUR", "USD"] } }, required: ["amount", "currency"], additionalProperties: false } },
      properties: {
        total: { $ref: "#/definitions/money" },
        lines: { type: "array", items: { type: "object", properties: { price: { $ref: "#/definitions/money" }, qty: { type: "integer", minimum: 1, default: 1 } }, required: ["price"] } },
        status: { anyOf: [{ type: "string", enum: ["open", "paid"] }, { type: "null" }] },
        payment: {
          oneOf: [
            { type: "object", properties: { method: { type: "string", const: "card" }, last4: { type: "string" } }, required: ["method"] },
            { type: "object", properties: { method: { type: "string", const: "cash" } }, required: ["method"] },
          ],
        },
      },
      required: ["total", "lines"],
      additionalProperties: false,
    };
    const model = buildFormModel(schema);
    const lines = as(member(model.root, "lines"), "array");
    expect(as(member(lines.items, "price"), "object").properties.map((p) => p.name)).toEqual(["amount", "currency"]);
    expect(member(model.root, "status")).toMatchObject({ kind: "enum", nullable: true });
    expect((member(model.root, "payment") as ChoiceNode).variants.map((v) => v.label)).toEqual(["method: card", "method: cash"]);
    expect((member(model.root, "total") as ObjectNode).closed).toBe(true);
    expect((lines as ArrayNode).items.kind).toBe("object");
    expect(model.nodeCount).toBeGreaterThan(10);
  });
});
