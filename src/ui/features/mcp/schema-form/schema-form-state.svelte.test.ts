import { describe, expect, it } from "vitest";
import type { ArrayNode, ChoiceNode, FormNode, ObjectNode } from "../../../../core/forms/index.ts";
import { SchemaFormState, type FormSource } from "./schema-form-state.svelte.ts";

const SCHEMA = {
  type: "object",
  $defs: { address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  properties: {
    name: { type: "string" },
    count: { type: "integer", default: 2 },
    home: { $ref: "#/$defs/address" },
    items: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } }, required: ["sku"] } },
    mode: { enum: ["fast", "slow"] },
    note: { type: ["string", "null"] },
    delivery: {
      oneOf: [
        { type: "object", title: "Pickup", properties: { method: { const: "pickup" }, store: { type: "string" } }, required: ["method"] },
        { type: "object", title: "Courier", properties: { method: { const: "courier" }, address: { $ref: "#/$defs/address" } }, required: ["method"] },
      ],
    },
  },
  required: ["name", "items"],
};

/** A source as the workbench gives one: reactive text and schema. */
function setup(text = "{}", schema: object = SCHEMA) {
  const source: FormSource = $state({ text, schema });
  const writes: string[] = [];
  const spy: FormSource = {
    get text() {
      return source.text;
    },
    set text(t) {
      writes.push(t);
      source.text = t;
    },
    get schema() {
      return source.schema;
    },
  };
  return { source, form: new SchemaFormState(spy), writes };
}

const member = (node: FormNode, name: string): FormNode => (node as ObjectNode).properties.find((p) => p.name === name)?.node as FormNode;

describe("SchemaFormState: reading the shared text", () => {
  it("shows the parsed object and builds the model from the schema", () => {
    const { form } = setup('{"name":"a"}');
    expect(form.value).toEqual({ name: "a" });
    expect(form.error).toBeNull();
    expect(form.readonly).toBe(false);
    expect(form.model.root.kind).toBe("object");
  });

  it("treats a blank text as no arguments", () => {
    const { form } = setup("  \n");
    expect(form.value).toEqual({});
    expect(form.readonly).toBe(false);
  });

  it("goes read-only with the parse error while the text is not JSON, showing the last object", () => {
    const { source, form } = setup('{"name":"kept"}');
    expect(form.value).toEqual({ name: "kept" });
    source.text = '{"name": "kep';
    expect(form.readonly).toBe(true);
    expect(form.error).toMatch(/^The editor text is not valid JSON: .+ \(line 1, column \d+\)\. The form is read-only until it parses again\.$/);
    expect(form.value).toEqual({ name: "kept" });
    source.text = '{"name": "kept again"}';
    expect(form.readonly).toBe(false);
    expect(form.value).toEqual({ name: "kept again" });
  });

  it("goes read-only when the text is JSON but not an object", () => {
    const { source, form } = setup("[1, 2]");
    expect(form.error).toBe("The editor text is not a JSON object, and tool arguments are one. The form is read-only until it is.");
    source.text = "null";
    expect(form.readonly).toBe(true);
  });

  it("forgets the last object when the tool (schema) changes", () => {
    const { source, form } = setup('{"name":"old tool"}');
    expect(form.value).toEqual({ name: "old tool" });
    source.text = "{ nope";
    expect(form.value).toEqual({ name: "old tool" });
    (source as { schema: object | undefined }).schema = { type: "object", properties: { other: { type: "string" } } };
    expect(form.value).toEqual({});
    expect(form.readonly).toBe(true);
  });

  it("says so when the tool has no inputSchema", () => {
    const source: FormSource = $state({ text: "{}", schema: undefined });
    const form = new SchemaFormState(source);
    expect(form.model.root).toMatchObject({ kind: "editor", reason: "the tool gives no inputSchema object" });
  });
});

describe("SchemaFormState: form edits rewrite the text", () => {
  it("writes pretty JSON and keeps members the schema does not know", () => {
    const { form, source, writes } = setup('{"zzz": [1, {"deep": true}], "name": "a"}');
    form.set(["name"], "b");
    expect(source.text).toBe('{\n  "zzz": [\n    1,\n    {\n      "deep": true\n    }\n  ],\n  "name": "b"\n}');
    expect(writes).toHaveLength(1);
    form.set(["home", "city"], "Oslo");
    expect(JSON.parse(source.text)).toEqual({ zzz: [1, { deep: true }], name: "b", home: { city: "Oslo" } });
  });

  it("never writes while the editor text is being typed, and never when it is not JSON", () => {
    const { form, source, writes } = setup("{}");
    for (const typed of ['{"', '{"na', '{"name"', '{"name": nul', '{"name": null}', '{"name": null,}']) {
      source.text = typed;
      void form.value;
      void form.model;
    }
    expect(writes).toEqual([]);
    expect(form.readonly).toBe(true);
    form.set(["name"], "x");
    form.remove(["name"]);
    form.fillDefaults();
    form.typeNumber(["count"], "3", true);
    expect(writes).toEqual([]);
    expect(source.text).toBe('{"name": null,}');
  });

  it("removes members and fills defaults and required members", () => {
    const { form, source } = setup('{"name":"a","mode":"fast","extra":1}');
    form.remove(["mode"]);
    expect(JSON.parse(source.text)).toEqual({ name: "a", extra: 1 });
    form.fillDefaults();
    expect(JSON.parse(source.text)).toEqual({ name: "a", extra: 1, count: 2, items: [] });
  });

  it("adds, moves and removes array items with their initial value", () => {
    const { form, source } = setup('{"items":[{"sku":"a"}]}');
    const items = member(form.model.root, "items") as ArrayNode;
    form.addItem(["items"], items);
    expect(JSON.parse(source.text).items).toEqual([{ sku: "a" }, { sku: "" }]);
    form.set(["items", 1, "sku"], "b");
    form.moveItem(["items"], 1, 0);
    expect(JSON.parse(source.text).items).toEqual([{ sku: "b" }, { sku: "a" }]);
    form.removeItem(["items"], 0);
    expect(JSON.parse(source.text).items).toEqual([{ sku: "a" }]);
    form.addItem(["fresh"], items);
    expect(JSON.parse(source.text).fresh).toEqual([{ sku: "" }]);
  });

  it("switches a union's variant and keeps unknown members of the object", () => {
    const { form, source } = setup('{"delivery":{"method":"pickup","store":"North","mine":1}}');
    const delivery = member(form.model.root, "delivery") as ChoiceNode;
    form.choose(["delivery"], delivery, 1);
    expect(JSON.parse(source.text).delivery).toEqual({ method: "courier", mine: 1 });
  });

  it("turns null on and off, and starts absent fields", () => {
    const { form, source } = setup("{}");
    const note = member(form.model.root, "note");
    form.setNull(["note"], note, true);
    expect(JSON.parse(source.text)).toEqual({ note: null });
    form.setNull(["note"], note, false);
    expect(JSON.parse(source.text)).toEqual({ note: "" });
    form.start(["home"], member(form.model.root, "home"));
    expect(JSON.parse(source.text)).toEqual({ note: "", home: { city: "" } });
  });

  it("turns a null default off to the kind's own start", () => {
    const { form, source } = setup("{}", { type: "object", properties: { n: { type: ["integer", "null"], default: null } } });
    form.setNull(["n"], member(form.model.root, "n"), false);
    expect(JSON.parse(source.text)).toEqual({ n: 0 });
  });
});

describe("SchemaFormState: number boxes", () => {
  it("writes a number as soon as the text is one and keeps the draft while it is not", () => {
    const { form, source } = setup('{"count":1}');
    form.typeNumber(["count"], "1.", false);
    expect(JSON.parse(source.text).count).toBe(1);
    expect(form.numberText(["count"], 1, false)).toBe("1.");
    form.typeNumber(["count"], "-", false);
    expect(form.numberError(["count"], false)).toBe("Type a number.");
    expect(form.numberText(["count"], 1, false)).toBe("-");
    expect(JSON.parse(source.text).count).toBe(1);
    form.typeNumber(["count"], "-12.5", false);
    expect(JSON.parse(source.text).count).toBe(-12.5);
    form.endNumber(["count"]);
    expect(form.numberText(["count"], -12.5, false)).toBe("-12.5");
  });

  it("refuses fractions in whole-number boxes and removes the member when emptied", () => {
    const { form, source } = setup('{"count":1}');
    form.typeNumber(["count"], "1.5", true);
    expect(form.numberError(["count"], true)).toBe("Type a whole number.");
    expect(form.numberText(["count"], 1, true)).toBe("1.5");
    expect(JSON.parse(source.text).count).toBe(1);
    form.typeNumber(["count"], "", true);
    expect(JSON.parse(source.text)).toEqual({});
    expect(form.numberText(["count"], undefined, true)).toBe("");
  });

  it("lets a draft give way when the editor changes the number", () => {
    const { form, source } = setup('{"count":1}');
    form.typeNumber(["count"], "5", true);
    source.text = '{"count": 9}';
    expect(form.numberText(["count"], 9, true)).toBe("9");
  });
});
