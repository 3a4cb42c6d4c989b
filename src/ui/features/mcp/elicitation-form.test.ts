import { describe, expect, it } from "vitest";
import { buildContent, elicitForm, initialValues } from "./elicitation-form.ts";

const SCHEMA = {
  type: "object",
  properties: {
    email: { type: "string", format: "email", title: "Email" },
    short: { type: "string", minLength: 2, maxLength: 4 },
    ratio: { type: "number", minimum: 0, maximum: 1, default: 0.5 },
    count: { type: "integer" },
    ok: { type: "boolean", default: true },
    pet: { type: "string", enum: ["p1", "p2"], enumNames: ["Cats", "Dogs"] },
    hero: { type: "string", oneOf: [{ const: "h1", title: "Superman" }] },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2, default: ["a"] },
    nested: { type: "object", properties: {} },
  },
  required: ["email", "pet"],
};

describe("elicitForm", () => {
  it("reads flat fields with labels, formats, bounds, options and required marks; names what it cannot show", () => {
    const form = elicitForm(SCHEMA);
    expect(form.unsupported).toEqual(["nested"]);
    const by = Object.fromEntries(form.fields.map((f) => [f.name, f]));
    expect(by.email).toMatchObject({ kind: "text", format: "email", label: "Email", required: true });
    expect(by.ratio).toMatchObject({ kind: "number", min: 0, max: 1 });
    expect(by.pet?.options).toEqual([{ value: "p1", label: "Cats" }, { value: "p2", label: "Dogs" }]);
    expect(by.hero).toMatchObject({ kind: "select", options: [{ value: "h1", label: "Superman" }] });
    expect(by.tags).toMatchObject({ kind: "multi", min: 1, max: 2 });
    expect(elicitForm("not a schema")).toEqual({ fields: [], unsupported: [] });
  });

  it("leaves multi-select fields out before 2025-11-25, whose answers hold no lists", () => {
    const form = elicitForm(SCHEMA, { multiSelect: false });
    expect(form.unsupported).toEqual(["tags", "nested"]);
    expect(form.fields.map((f) => f.name)).not.toContain("tags");
  });

  it("starts from defaults and converts values, refusing bad ones field by field", () => {
    const { fields } = elicitForm(SCHEMA);
    const values = initialValues(fields);
    expect(values).toMatchObject({ email: "", ratio: "0.5", count: "", ok: true, pet: "", tags: ["a"] });
    expect(buildContent(fields, values)).toEqual({ ok: false, errors: { email: "Required", pet: "Required" } });
    const bad = buildContent(fields, { ...values, email: "a@b.c", pet: "p9", ratio: "2", count: "1.5", short: "x", tags: [] });
    expect(bad).toEqual({
      ok: false,
      errors: { pet: "Choose one of the options", ratio: "At most 1", count: "Not a whole number", short: "At least 2 characters" },
    });
    const good = buildContent(fields, { ...values, email: "a@b.c", pet: "p2", count: " 7 ", hero: "h1", tags: ["a", "c"] });
    expect(good).toEqual({ ok: true, content: { email: "a@b.c", ratio: 0.5, count: 7, ok: true, pet: "p2", hero: "h1", tags: ["a", "c"] } });
  });
});
