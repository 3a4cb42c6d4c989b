import { describe, expect, it } from "vitest";
import { buildFormModel } from "./build-form.ts";
import type { FormNode } from "./form-model.ts";
import { initialValue } from "./form-values.ts";
import { pickVariant } from "./variant-match.ts";

/** Every node of a model, depth first. */
function* nodes(node: FormNode): Generator<FormNode> {
  yield node;
  if (node.kind === "object") for (const p of node.properties) yield* nodes(p.node);
  if (node.kind === "array") yield* nodes(node.items);
  if (node.kind === "choice") for (const v of node.variants) yield* nodes(v.node);
}

const reasons = (root: FormNode): string[] => [...nodes(root)].flatMap((n) => (n.kind === "editor" ? [n.reason] : []));

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}

describe("hostile schemas meet a clear reason, never a hang", () => {
  it("stops nesting at the depth limit", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 5_000; i++) schema = { type: "object", properties: { deeper: schema } };
    const { value, ms } = timed(() => buildFormModel(schema));
    expect(reasons(value.root)).toEqual(["it is nested more than 24 levels deep"]);
    expect(ms).toBeLessThan(1_000);
  });

  it("stops at the field budget and notes the members left out", () => {
    const properties = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, { type: "string" }]));
    const { value, ms } = timed(() => buildFormModel({ type: "object", properties }));
    expect(value.nodeCount).toBe(2_000);
    expect(value.root.kind === "object" && value.root.properties.length).toBe(1_999);
    expect(value.root.kind === "object" && value.root.note).toBe("98001 more members are left to the editor: the schema is too large for a form.");
    expect(ms).toBeLessThan(2_000);
  });

  it("does not blow up on definitions that reference each other exponentially", () => {
    // Each level uses the one below ten times: 10^8 fields if unfolded.
    const $defs: Record<string, unknown> = { d0: { type: "string" } };
    for (let i = 1; i <= 8; i++) {
      $defs[`d${i}`] = { type: "object", properties: Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`m${k}`, { $ref: `#/$defs/d${i - 1}` }])) };
    }
    const { value, ms } = timed(() => buildFormModel({ $defs, $ref: "#/$defs/d8" }));
    expect(value.nodeCount).toBeLessThanOrEqual(2_000);
    const notes = [...nodes(value.root)].flatMap((n) => (n.kind === "object" && n.note !== undefined ? [n.note] : []));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((note) => note.endsWith("more members are left to the editor: the schema is too large for a form."))).toBe(true);
    expect(ms).toBeLessThan(2_000);
  });

  it("refuses a giant enum with the count", () => {
    const node = buildFormModel({ enum: Array.from({ length: 50_000 }, (_, i) => `v${i}`) }).root;
    expect(node).toMatchObject({ kind: "editor", reason: "it lists 50000 choices, more than a form lists (1000)" });
  });

  it("refuses a union with too many variants", () => {
    const node = buildFormModel({ anyOf: Array.from({ length: 500 }, (_, i) => ({ type: "object", properties: { [`k${i}`]: { type: "string" } } })) }).root;
    expect(node).toMatchObject({ kind: "editor", reason: "it offers 500 variants, more than a form offers (64)" });
  });

  it("refuses a long $ref chain", () => {
    const $defs: Record<string, unknown> = { r0: { type: "string" } };
    for (let i = 1; i <= 200; i++) $defs[`r${i}`] = { $ref: `#/$defs/r${i - 1}` };
    const node = buildFormModel({ $defs, $ref: "#/$defs/r200" }).root;
    expect(node).toMatchObject({ kind: "editor", reason: "its references and allOf parts nest more than 32 deep" });
  });

  it("refuses an allOf too large to merge", () => {
    const allOf = Array.from({ length: 100_000 }, (_, i) => ({ properties: { [`p${i}`]: { type: "string" } } }));
    const { value, ms } = timed(() => buildFormModel({ allOf }));
    expect(value.root).toMatchObject({ kind: "editor", reason: "the schema is too large for a form" });
    expect(ms).toBeLessThan(2_000);
  });

  it("survives schemas that are not schemas at all", () => {
    for (const junk of [null, 42, "string", [], [{ type: "string" }], { properties: 5, required: "x" }, { type: 7 }, { items: "no" }]) {
      expect(() => buildFormModel(junk)).not.toThrow();
    }
    expect(buildFormModel({ properties: { a: 7 } }).root).toMatchObject({ kind: "object", properties: [{ name: "a", node: { kind: "editor", reason: "its schema is not a JSON object" } }] });
  });

  it("keeps value work bounded on the models it built", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 100; i++) schema = { type: "object", properties: { a: schema, b: { oneOf: [schema, { type: "number" }] } }, required: ["a", "b"] };
    const { value: model } = timed(() => buildFormModel(schema));
    const { ms } = timed(() => initialValue(model.root));
    expect(ms).toBeLessThan(1_000);
    let deep: unknown = "x";
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const choice = { kind: "choice", keyword: "oneOf", variants: [{ label: "a", node: model.root }], title: undefined, description: undefined, hasDefault: false, default: undefined, nullable: false, readOnly: false, deprecated: false } as const;
    expect(pickVariant(choice, deep)).toMatchObject({ index: 0 });
  });
});
