import { describe, expect, it } from "vitest";
import { HUGE_SCHEMA_CHARS, lintSchema, MAX_LINT_DEPTH, MAX_LINT_NODES } from "./schema-lint.ts";
import { countFindings, duplicateToolNames, type LintFinding, lintTool, lintTools } from "./tool-lint.ts";

const described = (type: string) => ({ type, description: "d" });
/** A tool with nothing to complain about. */
const clean = {
  name: "get_weather.v2",
  description: "Current weather for a city",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { city: described("string"), units: { type: "string", enum: ["c", "f"], description: "Units" } },
    required: ["city"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
};

const rules = (findings: readonly LintFinding[]) => findings.map((f) => `${f.severity} ${f.rule} ${f.pointer}`);
const lintInput = (inputSchema: unknown) => lintTool({ ...clean, inputSchema });

describe("lintTool: the tool itself", () => {
  it("finds nothing in a well-made tool", () => {
    expect(lintTool(clean)).toEqual([]);
  });

  it("names a missing or empty name an error", () => {
    expect(rules(lintTool({ ...clean, name: undefined }))).toEqual(["error tool.name /name"]);
    expect(lintTool({ ...clean, name: "" })[0]?.message).toBe("The tool's name is empty, so it cannot be called.");
  });

  it("warns about names outside the 2025-11-25 rule, naming the characters", () => {
    const [finding] = lintTool({ ...clean, name: "get weather,now/\u0007" });
    expect(finding).toMatchObject({ severity: "warning", rule: "tool.name-format", pointer: "/name" });
    expect(finding?.message).toContain('(a space, ",", "/", U+0007)');
    expect(lintTool({ ...clean, name: "a".repeat(128) })).toEqual([]);
    expect(lintTool({ ...clean, name: "a".repeat(129) })[0]?.message).toBe("The name is 129 characters long; MCP 2025-11-25 asks for at most 128.");
    expect(lintTool({ ...clean, name: "é" })[0]?.rule).toBe("tool.name-format");
  });

  it("names a duplicate name an error when told, and finds duplicates in one pass", () => {
    expect(rules(lintTool(clean, { duplicate: true }))).toEqual(["error tool.name-duplicate /name"]);
    expect([...duplicateToolNames([{ name: "a" }, { name: "b" }, { name: "a" }, { name: 3 }, "x", { name: "a" }])]).toEqual(["a"]);
    const all = lintTools([clean, { ...clean }, { ...clean, name: "other" }]);
    expect(all.map((f) => f.filter((x) => x.rule === "tool.name-duplicate").length)).toEqual([1, 1, 0]);
  });

  it("warns about a missing or blank description", () => {
    expect(rules(lintTool({ ...clean, description: "  " }))).toEqual(["warning tool.description /description"]);
    expect(rules(lintTool({ ...clean, description: undefined }))).toEqual(["warning tool.description /description"]);
  });

  it("names a missing inputSchema an error; a missing outputSchema is fine", () => {
    const { inputSchema: _in, outputSchema: _out, ...bare } = clean;
    expect(rules(lintTool(bare))).toEqual(["error schema.missing /inputSchema"]);
  });

  it("orders findings by severity, errors first", () => {
    const findings = lintTool({ name: "a b", inputSchema: { type: "object", properties: { x: {} } } });
    expect(findings.map((f) => f.severity)).toEqual(["warning", "warning", "info", "info", "info"]);
    expect(countFindings(findings)).toEqual({ error: 0, warning: 2, info: 3 });
  });
});

describe("lintSchema: the root", () => {
  it("refuses a schema that is not an object, saying what it is", () => {
    expect(lintInput(true)).toEqual([expect.objectContaining({ rule: "schema.not-object", severity: "error", pointer: "/inputSchema" })]);
    expect(lintInput(true)[0]?.message).toBe('The inputSchema is a boolean (true, meaning anything); MCP requires a JSON Schema object with "type": "object".');
    expect(lintSchema([], "/outputSchema", false)[0]?.message).toContain("The outputSchema is an array;");
    expect(lintSchema(null, "/outputSchema", false)[0]?.message).toContain("is null;");
  });

  it("requires type object at the root", () => {
    expect(rules(lintInput({ properties: { a: described("string") }, additionalProperties: false }))).toEqual(["error schema.root-type /inputSchema"]);
    const [finding] = lintSchema({ type: "array" }, "/outputSchema", false);
    expect(finding).toMatchObject({ pointer: "/outputSchema/type", message: 'At the root of the outputSchema "type" is "array"; MCP requires "type": "object".' });
  });

  it("says additionalProperties is absent on an inputSchema (info), but not on an outputSchema", () => {
    expect(rules(lintInput({ type: "object" }))).toEqual(["info schema.open-arguments /inputSchema"]);
    expect(lintInput({ type: "object", unevaluatedProperties: false })).toEqual([]);
    expect(lintSchema({ type: "object" }, "/outputSchema", false)).toEqual([]);
  });

  it("notes additionalProperties false with nothing declared: only {} passes", () => {
    expect(rules(lintInput({ type: "object", additionalProperties: false }))).toEqual(["info schema.closed-empty /inputSchema/additionalProperties"]);
    expect(lintInput({ type: "object", additionalProperties: false, patternProperties: { "^x": { type: "string" } } })).toEqual([]);
  });

  it("warns that additionalProperties false cannot see properties inside allOf, anyOf, oneOf or $ref", () => {
    const schema = { type: "object", allOf: [{ properties: { a: described("string") } }], additionalProperties: false };
    const [finding] = lintInput(schema);
    expect(finding).toMatchObject({ rule: "schema.closed-composition", severity: "warning", pointer: "/inputSchema/additionalProperties" });
    expect(finding?.message).toContain("unevaluatedProperties: false");
  });

  it("warns about an unknown $schema dialect", () => {
    expect(rules(lintInput({ ...clean.inputSchema, $schema: "https://example.com/my-dialect" }))).toEqual(["warning schema.dialect /inputSchema/$schema"]);
    expect(lintInput({ ...clean.inputSchema, $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual([]);
  });

  it("warns about a huge schema, with its size and a token estimate", () => {
    const properties = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, { type: "string", description: "x".repeat(40) }]));
    const findings = lintInput({ type: "object", properties, additionalProperties: false });
    const huge = findings.find((f) => f.rule === "schema.huge");
    expect(JSON.stringify({ type: "object", properties }).length).toBeGreaterThan(HUGE_SCHEMA_CHARS);
    expect(huge?.message).toMatch(/^The inputSchema is \d+ KiB of JSON \(about \d+ tokens\)/);
  });
});

describe("lintSchema: inside", () => {
  it("names required properties that are not declared: a warning, or an error when nothing could pass", () => {
    expect(rules(lintInput({ type: "object", properties: { a: described("string") }, required: ["a", "b"] }))).toEqual(["warning schema.required-unknown /inputSchema/required/1", "info schema.open-arguments /inputSchema"]);
    const closed = lintInput({ type: "object", properties: { a: described("string") }, required: ["b"], additionalProperties: false });
    expect(closed[0]).toMatchObject({ severity: "error", message: '"b" is required but not among the properties, and additionalProperties is false: no value can pass.' });
    expect(rules(lintInput({ type: "object", required: "a", additionalProperties: false }))).toContain("error schema.required-invalid /inputSchema/required");
  });

  it("checks nested objects too, with escaped pointers", () => {
    const inputSchema = {
      type: "object",
      additionalProperties: false,
      properties: { "a/b": { type: "object", description: "d", properties: { c: { type: "strin", description: "d" } }, required: ["z"] } },
    };
    expect(rules(lintInput(inputSchema))).toEqual(["error schema.type-unknown /inputSchema/properties/a~1b/properties/c/type", "warning schema.required-unknown /inputSchema/properties/a~1b/required/0"]);
  });

  it("names a boolean property schema: an error at the top (the MCP schema wants objects), a warning deeper", () => {
    const inputSchema = { type: "object", additionalProperties: false, properties: { data: true, nested: { type: "object", description: "d", properties: { never: false } } } };
    const findings = lintInput(inputSchema);
    expect(rules(findings)).toEqual(["error schema.property-boolean /inputSchema/properties/data", "warning schema.property-boolean /inputSchema/properties/nested/properties/never"]);
    expect(findings[0]?.message).toContain("some clients reject it");
    expect(findings[1]?.message).toBe('Property "never" is the schema false: no value can be given for it.');
  });

  it("notes input properties without a description or a type, but not properties behind a $ref", () => {
    const inputSchema = { type: "object", additionalProperties: false, $defs: { Id: { type: "string" } }, properties: { a: { type: "string" }, b: { description: "any" }, c: { $ref: "#/$defs/Id" } } };
    expect(rules(lintInput(inputSchema))).toEqual(["info schema.property-description /inputSchema/properties/a", "info schema.property-untyped /inputSchema/properties/b"]);
    expect(lintSchema({ type: "object", properties: { a: {} } }, "/outputSchema", false)).toEqual([]);
  });

  it("checks local $refs resolve, and warns about remote ones", () => {
    const inputSchema = {
      type: "object",
      additionalProperties: false,
      $defs: { "a/b": { type: "string" }, list: [{ type: "string" }] },
      properties: {
        ok: { $ref: "#/$defs/a~1b" },
        root: { $ref: "#" },
        missing: { $ref: "#/$defs/nope" },
        remote: { $ref: "https://example.com/s.json" },
        anchor: { $ref: "#thing" },
        broken: { $ref: "#/%E0%A4%A" },
        number: { $ref: 5 },
      },
    };
    expect(rules(lintInput(inputSchema))).toEqual([
      "error schema.not-a-schema /inputSchema/$defs/list",
      "error schema.ref-unresolved /inputSchema/properties/broken/$ref",
      "error schema.ref-unresolved /inputSchema/properties/missing/$ref",
      "error schema.ref-unresolved /inputSchema/properties/number/$ref",
      "warning schema.ref-remote /inputSchema/properties/remote/$ref",
    ]);
  });

  it("names keyword values that are not schemas", () => {
    const inputSchema = { type: "object", additionalProperties: 3, properties: { a: { type: "array", description: "d", items: [{ type: "string" }, "x"] } }, anyOf: {}, patternProperties: [] };
    expect(rules(lintInput(inputSchema))).toEqual([
      "error schema.not-a-schema /inputSchema/additionalProperties",
      "error schema.not-a-schema /inputSchema/anyOf",
      "error schema.not-a-schema /inputSchema/patternProperties",
      "error schema.not-a-schema /inputSchema/properties/a/items/1",
    ]);
  });

  it("stops on a schema too deep or too large to lint, saying so once", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < MAX_LINT_DEPTH + 5; i++) deep = { type: "array", items: deep };
    const tooDeep = lintSchema({ type: "object", properties: { d: deep } }, "/outputSchema", false);
    expect(tooDeep.filter((f) => f.rule === "schema.too-complex")).toEqual([expect.objectContaining({ severity: "warning", message: expect.stringContaining(`deeper than ${MAX_LINT_DEPTH} levels`) })]);
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: MAX_LINT_NODES + 10 }, (_, i) => [`p${i}`, { type: "string" }])) };
    const tooWide = lintSchema(wide, "/outputSchema", false).filter((f) => f.rule === "schema.too-complex");
    expect(tooWide).toHaveLength(1);
    expect(tooWide[0]?.message).toContain(`more than ${MAX_LINT_NODES} subschemas`);
  });
});
