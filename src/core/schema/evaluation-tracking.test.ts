import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { needsEvaluationTracking, withoutEvaluationTracking } from "./evaluation-tracking.ts";

describe("needsEvaluationTracking", () => {
  it("finds the keywords that read what tracking records, at any depth", () => {
    expect(needsEvaluationTracking({ $defs: { A: { allOf: [{ properties: { x: { unevaluatedProperties: false } } }] } } })).toBe(true);
    expect(needsEvaluationTracking({ $defs: { A: { prefixItems: [{}], unevaluatedItems: false } } })).toBe(true);
    expect(needsEvaluationTracking({ $defs: { A: { $dynamicRef: "#meta" } } })).toBe(true);
    expect(needsEvaluationTracking({ $defs: { A: { anyOf: [{ type: "string" }, { properties: { b: { type: "integer" } } }] } } })).toBe(false);
  });

  it("does not take data for keywords: a name inside const, enum, default or examples", () => {
    expect(needsEvaluationTracking({ $defs: { A: { const: { unevaluatedProperties: false }, enum: [{ $dynamicRef: "#x" }], examples: [{ unevaluatedItems: true }] } } })).toBe(false);
  });
});

describe("withoutEvaluationTracking", () => {
  /** An anyOf whose second branch counts how often it runs (a number format that always passes). */
  function counting(tracked: boolean): { validate: (value: unknown) => boolean; runs: () => number } {
    let runs = 0;
    const ajv = new Ajv2020({ strict: false, validateFormats: true });
    ajv.addFormat("counted", {
      type: "number",
      validate: () => {
        runs++;
        return true;
      },
    });
    ajv.addSchema({ $id: "https://patchbay.test/tracking.json", $defs: { A: { anyOf: [{ type: "integer", minimum: 0 }, { type: "number", format: "counted", maximum: 10 }] } } });
    if (!tracked) withoutEvaluationTracking(ajv);
    const validate = ajv.getSchema("https://patchbay.test/tracking.json#/$defs/A")!;
    return { validate: (value) => validate(value) === true, runs: () => runs };
  }

  it("gives the same answers", () => {
    const tracked = counting(true);
    const untracked = counting(false);
    for (const value of [1, 20, -1, 2.5, 12.5, "x", null]) expect(untracked.validate(value), JSON.stringify(value)).toBe(tracked.validate(value));
  });

  it("lets an anyOf stop at its first passing branch", () => {
    const tracked = counting(true);
    expect(tracked.validate(1)).toBe(true);
    expect(tracked.runs()).toBe(1);
    const untracked = counting(false);
    expect(untracked.validate(1)).toBe(true);
    expect(untracked.runs()).toBe(0);
    expect(untracked.validate(2.5)).toBe(true);
    expect(untracked.runs()).toBe(1);
  });
});

describe("an explained instance (every error, verbose) without tracking", () => {
  const SCHEMA = {
    $id: "https://patchbay.test/explained.json",
    $defs: {
      Part: { anyOf: [{ $ref: "#/$defs/Text" }, { $ref: "#/$defs/File" }] },
      Text: { type: "object", required: ["kind", "text"], properties: { kind: { const: "text" }, text: { type: "string", minLength: 1 } } },
      File: { type: "object", required: ["kind", "uri"], properties: { kind: { const: "file" }, uri: { type: "string", pattern: "^https://" } } },
      Message: {
        type: "object",
        required: ["id", "parts"],
        properties: { id: { type: "string" }, parts: { type: "array", items: { $ref: "#/$defs/Part" } }, role: { oneOf: [{ const: "user" }, { const: "agent" }] } },
      },
    },
  };

  function explained(tracked: boolean) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
    ajv.addSchema(SCHEMA);
    if (!tracked) withoutEvaluationTracking(ajv);
    return ajv.getSchema("https://patchbay.test/explained.json#/$defs/Message")!;
  }

  it("reports the same errors, in the same order, as with it", () => {
    const tracked = explained(true);
    const untracked = explained(false);
    const values = [
      { id: "1", parts: [{ kind: "text", text: "hi" }] },
      { parts: [{ kind: "text", text: "" }, { kind: "file", uri: "ftp://x" }] },
      { id: 2, parts: [{ kind: "txt", text: "hi" }, { kind: "file" }, 3], role: "robot" },
      { id: "1", parts: [{ text: "hi", uri: "https://x" }], role: "user" },
      { id: "1", parts: "none" },
      [],
    ];
    for (const value of values) {
      const label = JSON.stringify(value);
      expect(untracked(value), label).toBe(tracked(value));
      expect(untracked.errors ?? null, label).toEqual(tracked.errors ?? null);
    }
  });
});
