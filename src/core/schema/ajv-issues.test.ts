import type { ErrorObject } from "ajv";
import { describe, expect, it } from "vitest";
import { D2020_PACK, D7_PACK, testPack } from "../validation/test-packs.ts";
import type { Issue, SchemaPack } from "../validation/types.ts";
import { issuesFromAjv } from "./ajv-issues.ts";
import { SchemaCompiler } from "./compiler.ts";

const compiler = new SchemaCompiler();

function brief(issues: readonly Issue[]): [string, string][] {
  return issues.map((i) => [i.pointer, i.message]);
}

/** A peer-schema check, for shapes the test packs do not have. */
function dynamic(schema: unknown, value: unknown): Issue[] {
  return compiler.checkDynamic(schema, value, "", "draft-07");
}

describe.each<[string, SchemaPack]>([
  ["draft-07", D7_PACK],
  ["2020-12", D2020_PACK],
])("plain messages (%s)", (_, pack) => {
  it("required names the missing property, at the object", () => {
    const issues = compiler.check(pack, "Request", { jsonrpc: "2.0", id: 1 });
    expect(issues).toEqual([expect.objectContaining({ pointer: "", keyword: "required", message: 'Missing required property "method".' })]);
  });

  it("additionalProperties points at the extra property", () => {
    const issues = compiler.check(pack, "Strict", { name: "a", extra: 1 });
    expect(brief(issues)).toEqual([["/extra", 'Unexpected property "extra": this schema allows no extra properties.']]);
    // A pointer into the pack document, naming the definition (ajv alone writes "#/additionalProperties").
    expect(issues[0]?.schemaPath).toBe(`${pack.id}#/${pack.draft === "2020-12" ? "$defs" : "definitions"}/Strict/additionalProperties`);
  });

  it("type says what was expected and what was found", () => {
    expect(brief(compiler.check(pack, "Request", { jsonrpc: "2.0", id: 1.5, method: pack === D7_PACK ? "ping" : "echo" }))).toEqual([
      ["/id", '"id" must be a string or an integer, not a number.'],
    ]);
    expect(brief(compiler.check(pack, "Strict", { name: null }))).toEqual([["/name", '"name" must be a string, not null.']]);
    expect(brief(compiler.check(pack, "Strict", { name: "a", tags: ["x", 2] }))).toEqual([["/tags/1", 'Item 1 of "tags" must be a string, not an integer.']]);
    expect(brief(compiler.check(pack, "Strict", []))).toEqual([["", "The message must be an object, not an array."]]);
  });

  it("const gives the required value and the actual one", () => {
    expect(brief(compiler.check(pack, "Strict", { name: "a", kind: "loose" }))).toEqual([["/kind", '"kind" must be "strict", not "loose".']]);
  });

  it("enum lists the allowed values", () => {
    expect(brief(compiler.check(pack, "Strict", { name: "a", level: "extreme" }))).toEqual([["/level", '"level" is "extreme"; allowed: "low", "mid", "high".']]);
  });

  it("pattern gives the value and the pattern", () => {
    expect(brief(compiler.check(pack, "Strict", { name: "UPPER" }))).toEqual([["/name", '"name" is "UPPER", which does not match the pattern ^[a-z]+$.']]);
  });

  it("a discriminated union reports only the meant branch", () => {
    const issues = compiler.check(pack, "Shape", { type: "circle", radius: "big" });
    expect(brief(issues)).toEqual([["/radius", '"radius" must be a number, not a string.']]);
    expect(issues[0]?.schemaPath).toMatch(/Circle\/properties\/radius\/type$/);
    // An enum discriminator picks its branch as a const one does.
    expect(brief(compiler.check(pack, "Shape", { type: "trigon" }))).toEqual([["", 'Missing required property "base".']]);
  });

  it("an unknown discriminator value gives one issue listing the allowed values", () => {
    const issues = compiler.check(pack, "Shape", { type: "hexagon", radius: 1 });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ pointer: "/type", keyword: "enum", message: '"type" is "hexagon"; allowed: "circle", "square", "triangle", "trigon".' });
  });

  it("resolves inline union branches by their discriminator too", () => {
    expect(brief(compiler.check(pack, "InlineShape", { kind: "point", x: "1" }))).toEqual([["/x", '"x" must be a number, not a string.']]);
    expect(brief(compiler.check(pack, "InlineShape", { kind: "zz" }))).toEqual([["/kind", '"kind" is "zz"; allowed: "point", "tag".']]);
  });

  it("a value no branch could mean is reported as the union", () => {
    expect(brief(compiler.check(pack, "Shape", "circle"))).toEqual([["", "The message matches none of the allowed shapes."]]);
  });

  it("a oneOf matched by two branches says more than one", () => {
    const issues = compiler.check(pack, "Either", { a: 1 });
    expect(issues).toEqual([
      expect.objectContaining({ pointer: "", keyword: "oneOf", message: "The message matches more than one of the allowed shapes, and must match exactly one." }),
    ]);
  });

  it("resolves a union nested under a property, at that property", () => {
    expect(brief(compiler.check(pack, "Drawing", { shape: { type: "hexagon" } }))).toEqual([
      ["/shape/type", '"type" is "hexagon"; allowed: "circle", "square", "triangle", "trigon".'],
    ]);
    expect(brief(compiler.check(pack, "Drawing", { shapeName: 5, shape: { type: "circle", radius: "x" } }))).toEqual([
      ["/shapeName", '"shapeName" must be a string, not an integer.'],
      ["/shape/radius", '"radius" must be a number, not a string.'],
    ]);
  });

  it("keeps a sibling's error apart from a union at a property whose name it extends", () => {
    expect(brief(compiler.check(pack, "Drawing", { shapeName: 5, shape: { type: "hexagon" } }))).toEqual([
      ["/shapeName", '"shapeName" must be a string, not an integer.'],
      ["/shape/type", '"type" is "hexagon"; allowed: "circle", "square", "triangle", "trigon".'],
    ]);
  });
});

describe("issuesFromAjv details", () => {
  it("escapes an extra property's name in its pointer", () => {
    const issues = dynamic({ type: "object", additionalProperties: false }, { "a/b~c": 1 });
    expect(issues[0]?.pointer).toBe("/a~1b~0c");
    expect(issues[0]?.message).toContain('"a/b~c"');
  });

  it("names a property with a slash by its real name", () => {
    const issues = dynamic({ type: "object", properties: { "a/b": { type: "string" } } }, { "a/b": 1 });
    expect(brief(issues)).toEqual([["/a~1b", '"a/b" must be a string, not an integer.']]);
  });

  it("shortens long values and long lists of allowed values", () => {
    const values = Array.from({ length: 11 }, (_, i) => `v${i}`);
    const [listed] = dynamic({ enum: values }, "x");
    expect(listed?.message).toBe('The message is "x"; allowed: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7" (and 3 more).');
    const [long] = dynamic({ const: "a" }, "y".repeat(100));
    expect(long?.message).toMatch(/not "y{56}…\.$/);
  });

  it("resolves a discriminated oneOf like an anyOf", () => {
    const schema = {
      oneOf: [
        { type: "object", required: ["method"], properties: { method: { const: "a" }, n: { type: "number" } } },
        { type: "object", required: ["method"], properties: { method: { const: "b" } } },
      ],
    };
    expect(brief(dynamic(schema, { method: "a", n: "1" }))).toEqual([["/n", '"n" must be a number, not a string.']]);
    expect(brief(dynamic(schema, { method: "c" }))).toEqual([["/method", '"method" is "c"; allowed: "a", "b".']]);
  });

  it("tells $ref'd branches apart by the schema they raise errors in, though their paths look alike", () => {
    const block = (type: string, member: string) => ({ type: "object", required: ["type", member], properties: { type: { const: type }, [member]: { type: "string" } }, additionalProperties: false });
    const schema = { $defs: { text: block("text", "text"), call: block("call", "call_id") }, type: "object", properties: { block: { oneOf: [{ $ref: "#/$defs/call" }, { $ref: "#/$defs/text" }] } } };
    expect(brief(dynamic(schema, { block: { type: "tex", text: "hi" } }))).toEqual([["/block/type", '"type" is "tex"; allowed: "call", "text".']]);
    expect(brief(dynamic(schema, { block: { type: "text", text: 5 } }))).toEqual([["/block/text", '"text" must be a string, not an integer.']]);
  });

  it("reports the branch the value got furthest into when no discriminator decides", () => {
    const schema = {
      $defs: { Deep: { type: "object", required: ["inner"], properties: { inner: { type: "object", required: ["n"], properties: { n: { type: "number" } } } } } },
      anyOf: [{ $ref: "#/$defs/Deep" }, { type: "object", required: ["a", "b"] }],
    };
    expect(brief(dynamic(schema, { inner: { n: "1" } }))).toEqual([["/inner/n", '"n" must be a number, not a string.']]);
    // With the two branches as far as each other, nothing tells them apart.
    expect(brief(dynamic({ anyOf: [{ required: ["a"] }, { required: ["b"] }] }, {}))).toEqual([["", "The message matches none of the allowed shapes."]]);
  });

  it("says a mistyped value is mistyped, not also that it is not the constant", () => {
    expect(brief(dynamic({ properties: { v: { type: "string", const: "x" } } }, { v: 1 }))).toEqual([["/v", '"v" must be a string, not an integer.']]);
  });

  it("reports an undiscriminated union as the union, not every branch", () => {
    expect(brief(dynamic({ anyOf: [{ type: "string" }, { type: "number" }] }, true))).toEqual([["", "The message matches none of the allowed shapes."]]);
  });

  it("resolves each array item's union on its own", () => {
    const schema = {
      type: "array",
      items: {
        anyOf: [
          { type: "object", required: ["type"], properties: { type: { const: "a" } } },
          { type: "object", required: ["type", "n"], properties: { type: { const: "b" }, n: { type: "number" } } },
        ],
      },
    };
    expect(brief(dynamic(schema, [{ type: "b", n: "1" }, { type: "zz" }]))).toEqual([
      ["/0/n", '"n" must be a number, not a string.'],
      ["/1/type", '"type" is "zz"; allowed: "a", "b".'],
    ]);
  });

  it("drops duplicate issues and the if keyword's own error", () => {
    expect(dynamic({ allOf: [{ required: ["a"] }, { required: ["a"] }] }, {})).toHaveLength(1);
    const conditional = dynamic({ if: { required: ["a"] }, then: { required: ["b"] } }, { a: 1 });
    expect(brief(conditional)).toEqual([["", 'Missing required property "b".']]);
  });

  it("places issues under a base pointer with the given source", () => {
    const error: ErrorObject = {
      keyword: "format",
      instancePath: "/when",
      schemaPath: "#/properties/when/format",
      params: { format: "date-time" },
      data: "soon",
    };
    expect(issuesFromAjv([error], "tool", "tool-schema", "/params/arguments")).toEqual([
      {
        pointer: "/params/arguments/when",
        message: '"when" is not a valid date-time.',
        severity: "error",
        source: "tool-schema",
        keyword: "format",
        schemaPath: "tool#/properties/when/format",
      },
    ]);
  });

  it("words a format failure from a pack that asserts formats", () => {
    const pack = testPack({ id: "test-a2a/formats", family: "a2a", draft: "2020-12", documentId: "https://patchbay.test/f2.json", method: "echo", assertFormats: true });
    expect(brief(compiler.check(pack, "Strict", { name: "a", link: "no scheme" }))).toEqual([["/link", '"link" is not a valid uri.']]);
  });

  it("falls back to ajv's wording for other keywords", () => {
    expect(brief(dynamic({ type: "string", minLength: 3 }, "ab"))).toEqual([["", "The message must NOT have fewer than 3 characters."]]);
  });
});

describe("which branch of a union a broken value meant", () => {
  const text = { type: "object", required: ["type", "text"], properties: { type: { const: "text" }, text: { type: "string" } } };
  const image = { type: "object", required: ["type", "data"], properties: { type: { const: "image" }, data: { type: "string" } } };
  const content = { anyOf: [text, image, { type: "array", items: { anyOf: [text, image] } }] };

  it("a branch that wants another type altogether was not meant: a misspelt discriminator lists the allowed values", () => {
    expect(brief(dynamic(content, { type: "tex", text: "hi" }))).toEqual([["/type", '"type" is "tex"; allowed: "text", "image".']]);
  });

  it("the branch whose discriminator alone is a letter off is meant when every other lacks members of its own", () => {
    const sampled = { type: "object", required: ["role", "model"], properties: { role: { enum: ["assistant", "user"] }, model: { type: "string" } } };
    const roots = { type: "object", required: ["roots"], properties: { roots: { type: "array" } } };
    const elicited = { type: "object", required: ["action"], properties: { action: { enum: ["accept", "decline"] } } };
    const answer = { anyOf: [sampled, roots, elicited] };
    expect(brief(dynamic(answer, { role: "assistan", model: "m" }))).toEqual([["/role", '"role" is "assistan"; allowed: "assistant", "user".']]);
    // Another branch's value, not a typo, says nothing about which branch was meant.
    expect(brief(dynamic(answer, { role: "system", model: "m" }))).not.toEqual([["/role", '"role" is "system"; allowed: "assistant", "user".']]);
  });

  it("a discriminator that is another branch's own value keeps the branch whose members are missing", () => {
    const pending = { type: "object", required: ["resultType"], properties: { resultType: { const: "input_required" }, inputRequests: { type: "object" } } };
    const read = { type: "object", required: ["resultType", "contents", "ttlMs"], properties: { resultType: { type: "string" }, contents: { type: "array" }, ttlMs: { type: "integer" } } };
    expect(brief(dynamic({ anyOf: [pending, read] }, { resultType: "complete", contents: [] }))).toEqual([["", 'Missing required property "ttlMs".']]);
  });
});
