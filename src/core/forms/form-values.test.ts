import { describe, expect, it } from "vitest";
import { buildFormModel } from "./build-form.ts";
import type { ChoiceNode, FormNode } from "./form-model.ts";
import { fillDefaults, getAt, initialValue, insertItem, moveItem, removeAt, setAt, switchVariant, toJsonText } from "./form-values.ts";

const model = (schema: unknown): FormNode => buildFormModel(schema).root;

describe("initialValue", () => {
  it("starts from defaults, else the simplest value of each kind, for required and defaulted members only", () => {
    const root = model({
      type: "object",
      properties: {
        name: { type: "string" },
        count: { type: "integer", default: 3 },
        ratio: { type: "number", exclusiveMinimum: 0.5 },
        level: { type: "integer", exclusiveMinimum: 2, maximum: 10 },
        low: { type: "integer", minimum: 20, maximum: 10 },
        flag: { type: "boolean" },
        color: { enum: ["red", "green"] },
        kind: { const: "box" },
        nothing: { type: "null" },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        nested: { type: "object", properties: { inner: { type: "string", default: "x" }, skip: { type: "string" } } },
        optional: { type: "string" },
        free: {},
        freeDefault: { default: { any: [1] } },
      },
      required: ["name", "ratio", "level", "low", "flag", "color", "kind", "nothing", "tags", "nested", "free"],
    });
    expect(initialValue(root)).toEqual({
      name: "",
      count: 3,
      ratio: 1.5,
      level: 3,
      low: 10,
      flag: false,
      color: "red",
      kind: "box",
      nothing: null,
      tags: ["", ""],
      nested: { inner: "x" },
      freeDefault: { any: [1] },
    });
  });

  it("gives each call its own copy of a default", () => {
    const node = model({ type: "object", default: { list: [1] } });
    const a = initialValue(node) as { list: number[] };
    a.list.push(2);
    expect(initialValue(node)).toEqual({ list: [1] });
  });

  it("starts a union with its first variant and a nullable field with its own kind", () => {
    expect(initialValue(model({ oneOf: [{ type: "object", properties: { k: { const: "a" } }, required: ["k"] }, { type: "string" }] }))).toEqual({ k: "a" });
    expect(initialValue(model({ type: ["integer", "null"] }))).toBe(0);
    expect(initialValue(model({ anyOf: [{ type: "string" }, { type: "null" }], default: null }))).toBeNull();
  });
});

describe("fillDefaults", () => {
  const root = model({
    type: "object",
    properties: {
      a: { type: "string", default: "A" },
      b: { type: "number" },
      c: { type: "object", properties: { d: { type: "boolean", default: true } } },
      items: { type: "array", items: { type: "object", properties: { q: { type: "integer", default: 1 } } } },
    },
    required: ["b"],
  });

  it("adds absent required and defaulted members and keeps everything present, unknown members included", () => {
    expect(fillDefaults(root, { a: "mine", c: {}, items: [{}, { q: 5 }], extra: [1, 2] })).toEqual({ a: "mine", b: 0, c: { d: true }, items: [{ q: 1 }, { q: 5 }], extra: [1, 2] });
  });

  it("fills into the variant the value was written for", () => {
    const choice = model({
      oneOf: [
        { type: "object", properties: { kind: { const: "a" }, x: { type: "number", default: 1 } } },
        { type: "object", properties: { kind: { const: "b" }, y: { type: "number", default: 2 } } },
      ],
    });
    expect(fillDefaults(choice, { kind: "b" })).toEqual({ kind: "b", y: 2 });
  });
});

describe("path operations", () => {
  const value = { a: { b: [1, { c: "x" }] }, keep: true };

  it("reads values at paths", () => {
    expect(getAt(value, ["a", "b", 1, "c"])).toBe("x");
    expect(getAt(value, [])).toBe(value);
    expect(getAt(value, ["a", "missing", 0])).toBeUndefined();
    expect(getAt(value, ["a", "b", "0"])).toBeUndefined();
    expect(getAt({}, ["constructor"])).toBeUndefined();
  });

  it("sets a value without touching the original or the other members", () => {
    const next = setAt(value, ["a", "b", 1, "c"], "y");
    expect(next).toEqual({ a: { b: [1, { c: "y" }] }, keep: true });
    expect(value.a.b[1]).toEqual({ c: "x" });
  });

  it("creates missing containers and replaces a wrong-typed one on the way", () => {
    expect(setAt({}, ["list", 0, "name"], "n")).toEqual({ list: [{ name: "n" }] });
    expect(setAt({ o: "text" }, ["o", "k"], 1)).toEqual({ o: { k: 1 } });
    expect(setAt([1, 2], [9], 3)).toEqual([1, 2, 3]);
  });

  it("sets and keeps members named __proto__ as plain members", () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "other": 2}') as unknown;
    const next = setAt(parsed, ["__proto__", "x"], 5) as Record<string, unknown>;
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(toJsonText(next)).toBe('{\n  "__proto__": {\n    "x": 5\n  },\n  "other": 2\n}');
    const fresh = setAt({}, ["__proto__"], { polluted: true }) as Record<string, unknown>;
    expect(Object.keys(fresh)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("removes a member or an item, and leaves the value alone when there is none", () => {
    expect(removeAt(value, ["keep"])).toEqual({ a: { b: [1, { c: "x" }] } });
    expect(removeAt(value, ["a", "b", 0])).toEqual({ a: { b: [{ c: "x" }] }, keep: true });
    expect(removeAt(value, ["a", "b", 1, "c"])).toEqual({ a: { b: [1, {}] }, keep: true });
    expect(removeAt(value, ["nope", "deeper"])).toBe(value);
    expect(removeAt(value, ["a", "b", 7])).toBe(value);
  });

  it("inserts, moves and bounds array items", () => {
    expect(insertItem(value, ["a", "b"], "new")).toEqual({ a: { b: [1, { c: "x" }, "new"] }, keep: true });
    expect(insertItem(value, ["a", "b"], "first", 0)).toMatchObject({ a: { b: ["first", 1, { c: "x" }] } });
    expect(insertItem({}, ["fresh"], 1)).toEqual({ fresh: [1] });
    expect(moveItem(value, ["a", "b"], 0, 1)).toEqual({ a: { b: [{ c: "x" }, 1] }, keep: true });
    expect(moveItem(value, ["a", "b"], 0, 5)).toBe(value);
    expect(moveItem(value, ["keep"], 0, 1)).toBe(value);
  });

  it("writes pretty JSON with two spaces", () => {
    expect(toJsonText({ a: [1, { b: null }] })).toBe('{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ]\n}');
    expect(toJsonText(undefined)).toBe("{}");
  });
});

describe("switchVariant", () => {
  const choice = model({
    oneOf: [
      { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" }, label: { type: "string" } }, required: ["kind", "r"] },
      { type: "object", properties: { kind: { const: "square" }, side: { type: "number" }, label: { type: "string" } }, required: ["kind", "side"] },
      { type: "string" },
    ],
  }) as ChoiceNode;

  it("sets the new discriminator, keeps shared and unknown members, drops the old variant's own", () => {
    expect(switchVariant(choice, { kind: "circle", r: 2, label: "L", note: "mine" }, 1)).toEqual({ kind: "square", side: 0, label: "L", note: "mine" });
  });

  it("starts a variant of another type afresh", () => {
    expect(switchVariant(choice, { kind: "circle", r: 2 }, 2)).toBe("");
    expect(switchVariant(choice, "text", 0)).toEqual({ kind: "circle", r: 0 });
    expect(switchVariant(choice, "text", 9)).toBe("text");
  });
});
