import { describe, expect, it } from "vitest";
import { DEFAULT_INPUT_SCHEMA, inputSchemaOf, inputSkeleton, parseToolInput } from "./tool-input.ts";

describe("tool input", () => {
  it("sends nothing for empty text, an object for an object, and refuses the rest with the reason", () => {
    expect(parseToolInput("  ")).toEqual({ ok: true, input: null });
    expect(parseToolInput('{"a": 1}')).toEqual({ ok: true, input: { a: 1 } });
    expect(parseToolInput("[1]")).toEqual({ ok: false, error: "the input must be a JSON object (or empty for no input)" });
    const bad = parseToolInput('{"a": }');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^the input is not valid JSON: .* at line 1, column \d+$/);
  });

  it("starts the input with the schema's required properties", () => {
    const schema = {
      type: "object",
      required: ["s", "n", "b", "e", "d", "o", "missing"],
      properties: { s: { type: "string" }, n: { type: "integer" }, b: { type: "boolean" }, e: { enum: ["x", "y"] }, d: { type: "string", default: "dflt" }, o: { type: "object" } },
    };
    expect(JSON.parse(inputSkeleton(schema))).toEqual({ s: "", n: 0, b: false, e: "x", d: "dflt", o: {}, missing: null });
    expect(inputSkeleton({ type: "object" })).toBe("{}");
  });

  it("takes the tool's schema when it is an object, else the default", () => {
    expect(inputSchemaOf({ name: "t", input_schema: { type: "object", required: [] } })).toEqual({ type: "object", required: [] });
    expect(inputSchemaOf({ name: "t", input_schema: "nope" as never })).toBe(DEFAULT_INPUT_SCHEMA);
    expect(inputSchemaOf(undefined)).toBe(DEFAULT_INPUT_SCHEMA);
  });
});
