import { Ajv } from "ajv";
import { afterEach, describe, expect, it, vi } from "vitest";
import { D2020_PACK, D7_PACK, D7_SCHEMA, testPack } from "../validation/test-packs.ts";
import type { SchemaPack } from "../validation/types.ts";
import { draftOf, MAX_DYNAMIC_SCHEMA_CHARS, PackCompileError, SchemaCompiler } from "./compiler.ts";

const NANOS = "2025-01-02T03:04:05.123456789Z";

function brokenPack(definitions: Record<string, unknown>, id = "test/broken"): SchemaPack {
  return { ...D7_PACK, id, document: { $schema: D7_SCHEMA, $id: `https://patchbay.test/${id}.json`, definitions } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("draftOf", () => {
  it("maps $schema URIs to the two drafts the compiler knows", () => {
    expect(draftOf("http://json-schema.org/draft-07/schema#")).toBe("draft-07");
    expect(draftOf("http://json-schema.org/draft-04/schema#")).toBe("draft-07");
    expect(draftOf("https://json-schema.org/draft/2020-12/schema")).toBe("2020-12");
    expect(draftOf("https://json-schema.org/draft/2019-09/schema")).toBe("2020-12");
    expect(draftOf("https://example.test/my-meta")).toBeUndefined();
    expect(draftOf(undefined)).toBeUndefined();
    expect(draftOf(7)).toBeUndefined();
  });
});

describe("SchemaCompiler draft choice", () => {
  const compiler = new SchemaCompiler();

  it("ignores 2020-12-only keywords in a draft-07 pack", () => {
    expect(compiler.check(D7_PACK, "Prefixed", [1, "x"])).toEqual([]);
    expect(compiler.check(D7_PACK, "Closed", { a: 1, b: 2 })).toEqual([]);
  });

  it("applies prefixItems and unevaluatedProperties in a 2020-12 pack", () => {
    expect(compiler.isValid(D2020_PACK, "Prefixed", ["x", 1])).toBe(true);
    const prefixed = compiler.check(D2020_PACK, "Prefixed", [1, "x"]);
    expect(prefixed.map((i) => [i.pointer, i.keyword])).toEqual([
      ["/0", "type"],
      ["/1", "type"],
    ]);
    // The yes/no validator keeps evaluation tracking for a pack that uses unevaluatedProperties.
    expect(compiler.isValid(D2020_PACK, "Closed", { a: 1, b: 2 })).toBe(false);
    expect(compiler.isValid(D2020_PACK, "Closed", { a: 1 })).toBe(true);
    const closed = compiler.check(D2020_PACK, "Closed", { a: 1, b: 2 });
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ pointer: "/b", keyword: "unevaluatedProperties", source: "schema", severity: "error" });
  });

  it("names the pack and the failing location in schemaPath", () => {
    const [issue] = compiler.check(D2020_PACK, "Closed", { a: "no" });
    expect(issue?.schemaPath).toMatch(/^test-a2a\/d2020#.*\/type$/);
  });
});

describe("SchemaCompiler formats", () => {
  const loose = D7_PACK;
  const strict = testPack({ id: "test-mcp/formats", family: "mcp", draft: "draft-07", documentId: "https://patchbay.test/f.json", method: "ping", assertFormats: true });
  const compiler = new SchemaCompiler();

  it("does not assert formats when the pack says so", () => {
    expect(compiler.check(loose, "Strict", { name: "a", at: NANOS, link: "not a uri" })).toEqual([]);
    expect(compiler.check(loose, "Strict", { name: "a", at: "yesterday" })).toEqual([]);
  });

  it("asserts formats when the pack says so, and accepts nanosecond timestamps there too", () => {
    expect(compiler.check(strict, "Strict", { name: "a", at: NANOS })).toEqual([]);
    const issues = compiler.check(strict, "Strict", { name: "a", at: "yesterday", link: "not a uri" });
    expect(issues.map((i) => [i.pointer, i.keyword])).toEqual([
      ["/at", "format"],
      ["/link", "format"],
    ]);
    expect(issues[0]?.message).toBe('"at" is not a valid date-time.');
    expect(issues[1]?.message).toBe('"link" is not a valid uri.');
  });
});

describe("SchemaCompiler caching", () => {
  it("compiles each definition once per mode and reuses it", () => {
    const compiler = new SchemaCompiler();
    const getSchema = vi.spyOn(Ajv.prototype, "getSchema");
    // ajv looks up its meta-schemas through getSchema too; count only our definitions.
    const lookups = (name: string) => getSchema.mock.calls.filter(([ref]) => ref === `${String(D7_PACK.document.$id)}#/definitions/${name}`).length;
    for (let i = 0; i < 5; i++) compiler.isValid(D7_PACK, "Request", { jsonrpc: "2.0", id: i, method: "ping" });
    expect(lookups("Request")).toBe(1);
    for (let i = 0; i < 3; i++) compiler.check(D7_PACK, "Request", { id: 1.5 });
    expect(lookups("Request")).toBe(2);
    compiler.check(D7_PACK, "Result", {});
    expect(lookups("Result")).toBe(1); // "all" needs only the all-errors validator
    compiler.isValid(D7_PACK, "Result", {});
    expect(lookups("Result")).toBe(2);
  });

  it("adds a pack's document to its ajv instances once", () => {
    const compiler = new SchemaCompiler();
    const addSchema = vi.spyOn(Ajv.prototype, "addSchema");
    compiler.compileAll(D7_PACK);
    compiler.check(D7_PACK, "Strict", {});
    compiler.isValid(D7_PACK, "Shape", {});
    // The all-errors instance gets the document, the fast one its copy with refs written out; ajv adds its meta-schemas through addSchema too.
    const ours = addSchema.mock.calls.filter(([schema]) => typeof schema === "object" && schema !== null && (schema as { $id?: unknown }).$id === D7_PACK.document.$id);
    expect(ours).toHaveLength(2);
    expect(ours.filter(([schema]) => schema === D7_PACK.document)).toHaveLength(1);
  });

  it("compiles a peer's schema once for repeated checks", () => {
    const compiler = new SchemaCompiler();
    const compile = vi.spyOn(Ajv.prototype, "compile");
    const schema = { type: "object", required: ["q"] };
    for (let i = 0; i < 4; i++) expect(compiler.checkDynamic({ ...schema }, {}, "/args", "draft-07")).toHaveLength(1);
    expect(compile.mock.calls.filter(([s]) => JSON.stringify(s) === JSON.stringify(schema))).toHaveLength(1);
  });

  it("keeps packs that share a $id apart (one ajv instance per pack)", () => {
    const compiler = new SchemaCompiler();
    const twin: SchemaPack = {
      ...D7_PACK,
      id: "test-fisk/twin",
      document: { $schema: D7_SCHEMA, $id: D7_PACK.document.$id, definitions: { Request: { type: "string" } } },
    };
    expect(compiler.isValid(D7_PACK, "Request", "text")).toBe(false);
    expect(compiler.isValid(twin, "Request", "text")).toBe(true);
  });
});

describe("PackCompileError", () => {
  it("names the pack when its document does not compile", () => {
    const compiler = new SchemaCompiler();
    const pack = brokenPack({ Bad: { type: "nonsense" } }, "test/bad-type");
    const thrown = (() => {
      try {
        compiler.check(pack, "Bad", {});
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(PackCompileError);
    expect((thrown as PackCompileError).packId).toBe("test/bad-type");
    expect((thrown as Error).message).toMatch(/^Schema pack test\/bad-type does not compile: /);
    expect((thrown as Error).name).toBe("PackCompileError");
  });

  it("names the pack and the definition when a definition is missing", () => {
    const compiler = new SchemaCompiler();
    expect(() => compiler.isValid(D7_PACK, "Nope", {})).toThrow(PackCompileError);
    expect(() => compiler.check(D7_PACK, "Nope", {})).toThrow('Schema pack test-mcp/d7 does not compile: it has no definition "Nope"');
    // A 2020-12 pack keeps its definitions under $defs, not definitions.
    expect(() => compiler.isValid(D2020_PACK, "Nope", {})).toThrow(/test-a2a\/d2020.*"Nope"/);
  });

  it("names the pack and the definition when a $ref does not resolve", () => {
    const compiler = new SchemaCompiler();
    const pack = brokenPack({ Dangling: { $ref: "#/definitions/Gone" } }, "test/dangling");
    expect(() => compiler.isValid(pack, "Dangling", {})).toThrow(/^Schema pack test\/dangling does not compile: definition "Dangling"/);
  });

  it("compileAll fails early on a kind whose definition is missing", () => {
    const compiler = new SchemaCompiler();
    const pack: SchemaPack = { ...D7_PACK, id: "test/missing-kind", kinds: [...D7_PACK.kinds, { ...D7_PACK.kinds[0]!, id: "x", definition: "Missing" }] };
    expect(() => compiler.compileAll(D7_PACK)).not.toThrow();
    expect(() => compiler.compileAll(pack)).toThrow(/test\/missing-kind.*"Missing"/);
  });
});

describe("SchemaCompiler.definitionClass", () => {
  const shared = {
    Name: { type: "string", pattern: "^[a-z]+$" },
    Greeting: { type: "object", required: ["name"], properties: { name: { $ref: "#/definitions/Name" } } },
  };

  it("gives the same class to the same schema in two packs, and another to any change within reach", () => {
    const compiler = new SchemaCompiler();
    const a = brokenPack(shared, "test/a");
    const b = brokenPack({ ...shared, Unrelated: { type: "null" } }, "test/b");
    const c = brokenPack({ ...shared, Name: { type: "string" } }, "test/c");
    expect(compiler.definitionClass(a, "Greeting")).toBe(compiler.definitionClass(b, "Greeting"));
    expect(compiler.definitionClass(c, "Greeting")).not.toBe(compiler.definitionClass(a, "Greeting"));
    expect(compiler.definitionClass(a, "Name")).not.toBe(compiler.definitionClass(a, "Greeting"));
  });

  it("tells drafts and format settings apart, and compares nothing that resolves other than by name", () => {
    const compiler = new SchemaCompiler();
    const a = brokenPack(shared, "test/a");
    const formats = { ...brokenPack(shared, "test/formats"), assertFormats: true };
    expect(compiler.definitionClass(formats, "Greeting")).not.toBe(compiler.definitionClass(a, "Greeting"));
    const anchored = { Greeting: { ...shared.Greeting, $id: "https://patchbay.test/g.json" }, Name: shared.Name };
    expect(compiler.definitionClass(brokenPack(anchored, "test/d"), "Greeting")).not.toBe(compiler.definitionClass(brokenPack(anchored, "test/e"), "Greeting"));
  });
});

describe("SchemaCompiler.check and firstIssue", () => {
  const compiler = new SchemaCompiler();

  it("returns every issue, and firstIssue the one it lists first", () => {
    const value = { name: "UPPER", level: "extreme", kind: "loose" };
    const all = compiler.check(D7_PACK, "Strict", value);
    expect(all.length).toBe(3);
    expect(compiler.firstIssue(D7_PACK, "Strict", value)).toEqual(all[0]);
    expect(compiler.check(D7_PACK, "Strict", { name: "ok" })).toEqual([]);
    expect(compiler.firstIssue(D7_PACK, "Strict", { name: "ok" })).toBeUndefined();
  });
});

describe("SchemaCompiler.checkDynamic", () => {
  const compiler = new SchemaCompiler();

  it("places a peer schema's issues under the pointer, marked tool-schema", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    expect(compiler.checkDynamic(schema, { n: 3 }, "/params/arguments", "draft-07")).toEqual([]);
    const issues = compiler.checkDynamic(schema, { n: "3" }, "/params/arguments", "draft-07");
    expect(issues).toEqual([
      expect.objectContaining({ pointer: "/params/arguments/n", source: "tool-schema", severity: "error", keyword: "type", schemaPath: "tool#/properties/n/type" }),
    ]);
  });

  it("honours the draft named by the schema's $schema, else the fallback", () => {
    const prefixed = { type: "array", prefixItems: [{ type: "string" }] };
    expect(compiler.checkDynamic(prefixed, [1], "", "draft-07")).toEqual([]);
    expect(compiler.checkDynamic(prefixed, [1], "", "2020-12")).toHaveLength(1);
    expect(compiler.checkDynamic({ ...prefixed, $schema: "https://json-schema.org/draft/2020-12/schema" }, [1], "", "draft-07")).toHaveLength(1);
    expect(compiler.checkDynamic({ ...prefixed, $schema: D7_SCHEMA }, [1], "", "2020-12")).toEqual([]);
  });

  it("turns a schema that does not compile into one warning, not a throw", () => {
    const issues = compiler.checkDynamic({ type: "nonsense" }, {}, "/params/arguments", "draft-07");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ pointer: "/params/arguments", severity: "warning", source: "tool-schema" });
    expect(issues[0]?.message).toMatch(/does not compile/);
    const dangling = compiler.checkDynamic({ $ref: "#/definitions/gone" }, {}, "", "draft-07");
    expect(dangling).toEqual([expect.objectContaining({ severity: "warning", source: "tool-schema" })]);
  });

  it("does not compile an oversize schema, and says so in a warning", () => {
    const schema = { type: "object", description: "x".repeat(MAX_DYNAMIC_SCHEMA_CHARS) };
    const compile = vi.spyOn(Ajv.prototype, "compile");
    const issues = new SchemaCompiler().checkDynamic(schema, 42, "/o", "draft-07");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ pointer: "/o", severity: "warning", source: "tool-schema" });
    expect(issues[0]?.message).toContain(String(MAX_DYNAMIC_SCHEMA_CHARS));
    expect(compile).not.toHaveBeenCalled();
  });

  it("warns about a schema that is not an object or boolean", () => {
    for (const schema of ["object", null, [{ type: "string" }], 3]) {
      expect(compiler.checkDynamic(schema, {}, "/x", "draft-07")).toEqual([expect.objectContaining({ severity: "warning", source: "tool-schema" })]);
    }
  });

  it("keeps two peers' schemas with the same $id but different content apart", () => {
    const a = { $id: "urn:peer:tool", type: "object", required: ["a"] };
    const b = { $id: "urn:peer:tool", type: "object", required: ["b"] };
    expect(compiler.checkDynamic(a, { a: 1 }, "", "draft-07")).toEqual([]);
    expect(compiler.checkDynamic(b, { b: 1 }, "", "draft-07")).toEqual([]);
    expect(compiler.checkDynamic(b, { a: 1 }, "", "draft-07")).toEqual([expect.objectContaining({ keyword: "required", severity: "error" })]);
    expect(compiler.checkDynamic(a, { b: 1 }, "", "2020-12")).toEqual([expect.objectContaining({ keyword: "required", severity: "error" })]);
  });

  it("keeps nested $ids of different peers' schemas apart too", () => {
    const text = { type: "object", properties: { p: { $id: "urn:inner", type: "string" } } };
    const number = { type: "object", properties: { p: { $id: "urn:inner", type: "number" } } };
    expect(compiler.checkDynamic(text, { p: "s" }, "", "draft-07")).toEqual([]);
    expect(compiler.checkDynamic(number, { p: 1 }, "", "draft-07")).toEqual([]);
    expect(compiler.checkDynamic(number, { p: "s" }, "", "draft-07")).toEqual([expect.objectContaining({ pointer: "/p", keyword: "type" })]);
  });

  it.each([
    "http://json-schema.org/draft-04/schema#",
    "http://json-schema.org/draft-06/schema#",
    "https://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2019-09/schema",
  ])("applies a peer schema whose $schema is %s", (uri) => {
    const issues = compiler.checkDynamic({ $schema: uri, type: "object", required: ["a"] }, {}, "/x", "draft-07");
    expect(issues).toEqual([expect.objectContaining({ pointer: "/x", keyword: "required", severity: "error" })]);
  });

  it("resolves a $ref to the schema's own $id", () => {
    const schema = { $id: "https://x.test/a.json", type: "object", properties: { p: { $ref: "a.json#/definitions/q" } }, definitions: { q: { type: "string" } } };
    expect(compiler.checkDynamic(schema, { p: 1 }, "", "draft-07")).toEqual([expect.objectContaining({ pointer: "/p", keyword: "type", severity: "error" })]);
  });

  it("accepts boolean schemas", () => {
    expect(compiler.checkDynamic(true, { anything: [1] }, "/args", "draft-07")).toEqual([]);
    expect(compiler.checkDynamic(false, {}, "/args", "2020-12")).toEqual([
      expect.objectContaining({ pointer: "/args", severity: "error", source: "tool-schema", keyword: "false schema" }),
    ]);
  });

  it("names the value under the pointer, not the whole message, in a peer schema's issue", () => {
    const [issue] = compiler.checkDynamic({ type: "object" }, "text", "/params/arguments", "draft-07");
    expect(issue?.pointer).toBe("/params/arguments");
    expect(issue?.message).toBe('"arguments" must be an object, not a string.');
  });

  it("keeps its cache bounded and still answers correctly after eviction", () => {
    const local = new SchemaCompiler();
    for (let i = 0; i < 300; i++) local.checkDynamic({ type: "object", required: [`p${i}`] }, {}, "", "draft-07");
    expect(local.checkDynamic({ type: "object", required: ["p0"] }, { p0: 1 }, "", "draft-07")).toEqual([]);
    expect(local.checkDynamic({ type: "object", required: ["p0"] }, {}, "", "draft-07")).toHaveLength(1);
  });
});

describe("SchemaCompiler.firstIssue", () => {
  const defs = {
    Named: { type: "object", required: ["name", "level"], properties: { name: { type: "string" }, level: { type: "integer" } } },
    Either: { anyOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"] }] },
    // The enum fails first, but the full list drops it: a wrong type makes it redundant.
    Layered: { type: "object", allOf: [{ properties: { level: { enum: ["low", "high"] } } }, { properties: { level: { type: "string" } } }] },
    Conditional: { type: "object", if: { required: ["kind"] }, then: { required: ["body"] } },
  };
  const pack = brokenPack(defs, "test/first");

  it("is the issue the full check lists first, whichever way the first error is found", () => {
    const compiler = new SchemaCompiler();
    const cases: [string, unknown][] = [
      ["Named", {}],
      ["Named", { name: 3, level: "x" }],
      ["Named", "text"],
      ["Either", { c: 1 }],
      ["Either", []],
      ["Layered", { level: 5 }],
      ["Layered", { level: "mid" }],
      ["Conditional", { kind: "x" }],
    ];
    for (const [definition, value] of cases) {
      const full = compiler.check(pack, definition, value);
      expect(full.length, `${definition} ${JSON.stringify(value)}`).toBeGreaterThan(0);
      expect(compiler.firstIssue(pack, definition, value), `${definition} ${JSON.stringify(value)}`).toEqual(full[0]);
    }
    expect(compiler.check(pack, "Layered", { level: 5 })[0]?.keyword).toBe("type");
  });

  it("is undefined for a value that passes", () => {
    const compiler = new SchemaCompiler();
    expect(compiler.firstIssue(pack, "Named", { name: "n", level: 1 })).toBeUndefined();
    expect(compiler.firstIssue(pack, "Either", { b: 1 })).toBeUndefined();
  });
});
