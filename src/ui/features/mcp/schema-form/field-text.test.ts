import { describe, expect, it } from "vitest";
import { buildFormModel } from "../../../../core/forms/index.ts";
import { constraintsOf, expected, inputTypeFor, placeholderFor, readNumber } from "./field-text.ts";

const node = (schema: unknown) => buildFormModel(schema).root;

describe("readNumber", () => {
  it.each([
    ["42", false, { kind: "number", value: 42 }],
    [" -1.5e3 ", false, { kind: "number", value: -1500 }],
    [".5", false, { kind: "number", value: 0.5 }],
    ["", true, { kind: "empty" }],
    ["1.", false, { kind: "number", value: 1 }],
    ["-", false, { kind: "invalid", message: "Type a number." }],
    ["0x10", false, { kind: "invalid", message: "Type a number." }],
    ["Infinity", false, { kind: "invalid", message: "Type a number." }],
    ["1e999", false, { kind: "invalid", message: "This number is too large." }],
    ["2.5", true, { kind: "invalid", message: "Type a whole number." }],
    ["abc", true, { kind: "invalid", message: "Type a whole number." }],
  ])("%j (integer %s)", (text, integer, want) => {
    expect(readNumber(text, integer)).toEqual(want);
  });
});

describe("field words", () => {
  it("picks input types for formats a browser input keeps intact", () => {
    expect(inputTypeFor("email")).toBe("email");
    expect(inputTypeFor("uri")).toBe("url");
    expect(inputTypeFor("date")).toBe("date");
    expect(inputTypeFor("date-time")).toBe("text");
    expect(inputTypeFor(undefined)).toBe("text");
  });

  it("gives examples for opaque formats, else the default", () => {
    expect(placeholderFor(node({ type: "string", format: "date-time" }))).toBe("2025-01-31T12:00:00Z");
    expect(placeholderFor(node({ type: "string", default: "hi" }))).toBe('default: "hi"');
    expect(placeholderFor(node({ type: "string" }))).toBeUndefined();
  });

  it("sums up the rules of a field", () => {
    expect(constraintsOf(node({ type: "integer", minimum: 1, exclusiveMaximum: 10, multipleOf: 2, default: 4 }))).toBe(
      "whole number, at least 1, less than 10, a multiple of 2, default 4",
    );
    expect(constraintsOf(node({ type: "string", format: "email", minLength: 3, maxLength: 9, pattern: "^a" }))).toBe(
      "format email, at least 3 characters, at most 9 characters, matches ^a",
    );
    expect(constraintsOf(node({ type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true, deprecated: true }))).toBe(
      "at least 1 item, at most 3 items, no duplicates, deprecated",
    );
    expect(constraintsOf(node({ type: "string", minLength: 1 }))).toBe("at least 1 character");
    expect(constraintsOf(node({ type: "boolean", readOnly: true }))).toBe("read-only: the server may ignore it");
    expect(constraintsOf(node({ type: "boolean" }))).toBeUndefined();
  });

  it("names what a field expects", () => {
    expect(expected(node({ enum: ["a"] }))).toBe("one of its choices");
    expect(expected(node({ type: "array", items: { type: "integer" } }))).toBe("list of integer");
  });
});
