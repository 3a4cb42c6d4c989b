import { describe, expect, it } from "vitest";
import { buildFormModel } from "./build-form.ts";
import type { ChoiceNode, FormNode } from "./form-model.ts";
import { fits, matchScore, pickVariant } from "./variant-match.ts";

const choice = (schema: unknown): ChoiceNode => {
  const root = buildFormModel(schema).root;
  expect(root.kind).toBe("choice");
  return root as ChoiceNode;
};

const shapes = choice({
  oneOf: [
    { title: "Circle", type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"] },
    { title: "Square", type: "object", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind", "side"] },
    { title: "Name", type: "string" },
    { title: "Sizes", type: "array", items: { type: "integer" } },
  ],
});

describe("pickVariant", () => {
  it("picks by the discriminating constant even when other members point elsewhere", () => {
    expect(pickVariant(shapes, { kind: "square", r: 1 })).toEqual({ index: 1, fits: true });
    expect(pickVariant(shapes, { kind: "circle" })).toEqual({ index: 0, fits: true });
  });

  it("picks by the members present when there is no discriminator", () => {
    expect(pickVariant(shapes, { side: 3 })).toEqual({ index: 1, fits: true });
    expect(pickVariant(shapes, { r: 3 })).toEqual({ index: 0, fits: true });
  });

  it("picks by JSON type", () => {
    expect(pickVariant(shapes, "x")).toEqual({ index: 2, fits: true });
    expect(pickVariant(shapes, [1, 2])).toEqual({ index: 3, fits: true });
  });

  it("takes the first variant for an absent value and says when nothing fits", () => {
    expect(pickVariant(shapes, undefined)).toEqual({ index: 0, fits: true });
    expect(pickVariant(shapes, true)).toEqual({ index: 0, fits: false });
    expect(pickVariant(shapes, { kind: "triangle" })).toMatchObject({ fits: false });
  });

  it("prefers a closed variant that has no stray members", () => {
    const closed = choice({
      anyOf: [
        { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
        { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, additionalProperties: false },
      ],
    });
    expect(pickVariant(closed, { a: "x", b: "y" }).index).toBe(1);
    expect(pickVariant(closed, { a: "x" }).index).toBe(0);
  });

  it("tells integers from numbers", () => {
    const numbers = choice({ type: ["integer", "number"] });
    // 1.5 is no integer; 2 fits both, and the first wins.
    expect(pickVariant(numbers, 1.5)).toEqual({ index: 1, fits: true });
    expect(pickVariant(numbers, 2)).toEqual({ index: 0, fits: true });
  });
});

describe("fits and matchScore", () => {
  const node = (schema: unknown): FormNode => buildFormModel(schema).root;

  it("checks the JSON type only, and accepts null on nullable fields", () => {
    expect(fits(node({ type: "string" }), "a")).toBe(true);
    expect(fits(node({ type: "string" }), 1)).toBe(false);
    expect(fits(node({ type: ["string", "null"] }), null)).toBe(true);
    expect(fits(node({ type: "integer" }), 1.5)).toBe(false);
    expect(fits(node({ enum: [1, { a: 1 }] }), { a: 1 })).toBe(true);
    expect(fits(node({ enum: [1] }), 2)).toBe(false);
    expect(fits(node({ type: "object" }), [])).toBe(false);
    expect(fits(node({ type: "array", items: { type: "string" } }), [1])).toBe(true);
    expect(fits(node({ type: "null" }), null)).toBe(true);
    expect(fits(node({ not: {} }), 123)).toBe(true);
    expect(fits(node({ type: "boolean" }), undefined)).toBe(true);
  });

  it("rates a matching constant above a merely matching type", () => {
    expect(matchScore(node({ const: "a" }), "a")).toBeGreaterThan(matchScore(node({ type: "string" }), "a"));
    expect(matchScore(node({ type: "string" }), 5)).toBe(Number.NEGATIVE_INFINITY);
  });
});
