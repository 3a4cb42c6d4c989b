import { Ajv, type ErrorObject } from "ajv";
import { describe, expect, it } from "vitest";
import { unionBranches } from "./union-branches.ts";

/** One definition, Shared, is a branch of two unions, at a different place in each. */
const DOCUMENT = {
  $id: "https://patchbay.test/union-branches",
  definitions: {
    Shared: { type: "object", required: ["shared"] },
    Other: { type: "object", required: ["other"] },
    SharedSecond: { anyOf: [{ $ref: "#/definitions/Other" }, { $ref: "#/definitions/Shared" }] },
    SharedFirst: { anyOf: [{ $ref: "#/definitions/Shared" }, { $ref: "#/definitions/Other" }] },
  },
};

const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
ajv.addSchema(DOCUMENT);

/** The failed union's own error and the branch errors ajv lists before it. */
function failedUnion(definition: string, value: unknown): { union: ErrorObject; members: ErrorObject[] } {
  const fn = ajv.getSchema(`https://patchbay.test/union-branches#/definitions/${definition}`)!;
  expect(fn(value)).toBe(false);
  const errors = fn.errors ?? [];
  return { union: errors[errors.length - 1]!, members: errors.slice(0, -1) };
}

describe("unionBranches", () => {
  it("places an error in a definition two unions share at each union's own branch", () => {
    for (const [definition, shared, other] of [
      ["SharedSecond", 1, 0],
      ["SharedFirst", 0, 1],
    ] as const) {
      const { union, members } = failedUnion(definition, {});
      const missing = members.map((e) => (e.params as { missingProperty: string }).missingProperty);
      const want = missing.map((name) => (name === "shared" ? shared : other));
      // Asked twice: the second answer comes from what the first worked out, and must be the same.
      expect(unionBranches(union, members, DOCUMENT)).toEqual(want);
      expect(unionBranches(union, members, DOCUMENT)).toEqual(want);
    }
  });

  it("places nothing without the document the errors came from", () => {
    const { union, members } = failedUnion("SharedFirst", {});
    expect(unionBranches(union, members, undefined)).toEqual(members.map(() => undefined));
  });
});
