import { describe, expect, it } from "vitest";
import { formatPointer, parsePointer } from "../json/index.ts";
import { createValidationEngine } from "../packs/index.ts";
import { D2020_PACK, D2020_SCHEMA, D7_PACK, D7_SCHEMA } from "../validation/test-packs.ts";
import type { SchemaPack } from "../validation/types.ts";
import { SchemaCompiler } from "./compiler.ts";
import { pointerTarget } from "./schema-document.ts";

/** A pack over `definitions`, in the container its draft names. */
function packOf(base: SchemaPack, id: string, definitions: (ref: (name: string) => object) => Record<string, unknown>): SchemaPack {
  const container = base.draft === "2020-12" ? "$defs" : "definitions";
  const ref = (name: string) => ({ $ref: `#/${container}/${name}` });
  const document = { $schema: base.draft === "2020-12" ? D2020_SCHEMA : D7_SCHEMA, $id: `https://patchbay.test/${id}.json`, [container]: definitions(ref) };
  return { ...base, id, document };
}

const nested = (ref: (name: string) => object) => ({
  Outer: { type: "object", required: ["inner"], properties: { inner: ref("Inner"), gone: false } },
  // Holding a $ref, Inner is compiled on its own, and ajv alone reports "#/required" for it.
  Inner: { type: "object", required: ["leaf"], properties: { leaf: ref("Leaf"), nope: false } },
  Leaf: { type: "string" },
  // Two definitions with the same `false` subschema, both reached from Pair: a path inside either fits both.
  Pair: { type: "object", properties: { a: ref("SideA"), b: ref("SideB") } },
  SideA: { type: "object", properties: { nope: false, leaf: ref("Leaf") } },
  SideB: { type: "object", properties: { nope: false, leaf: ref("Leaf") } },
});

describe.each<[string, SchemaPack]>([
  ["draft-07", D7_PACK],
  ["2020-12", D2020_PACK],
])("schema paths of pack issues (%s)", (_, base) => {
  const compiler = new SchemaCompiler();
  const pack = packOf(base, `${base.id}-nested`, nested);
  const container = base.draft === "2020-12" ? "$defs" : "definitions";
  const paths = (definition: string, value: unknown) => compiler.check(pack, definition, value).map((i) => i.schemaPath);

  it("name the definition an error lies in, also inside a $ref target compiled on its own", () => {
    expect(paths("Outer", { inner: {} })).toEqual([`${pack.id}#/${container}/Inner/required`]);
    expect(paths("Outer", { inner: { leaf: 5 } })).toEqual([`${pack.id}#/${container}/Leaf/type`]);
    expect(paths("Outer", {})).toEqual([`${pack.id}#/${container}/Outer/required`]);
  });

  it("place a false subschema, at the top and inside a called definition", () => {
    expect(paths("Outer", { gone: 1, inner: { leaf: "x" } })).toEqual([`${pack.id}#/${container}/Outer/properties/gone/false schema`]);
    expect(paths("Outer", { inner: { leaf: "x", nope: 1 } })).toEqual([`${pack.id}#/${container}/Inner/properties/nope/false schema`]);
  });

  it("leave a false subschema's path as ajv wrote it when two places fit", () => {
    expect(paths("Pair", { a: { nope: 1 } })).toEqual([`${pack.id}#/properties/nope/false schema`]);
    // The same path's other errors are still placed.
    expect(paths("Pair", { b: { leaf: 1 } })).toEqual([`${pack.id}#/${container}/Leaf/type`]);
  });

  it("give firstIssue the same path as the full check", () => {
    const value = { inner: { leaf: 5 } };
    expect(compiler.firstIssue(pack, "Outer", value)?.schemaPath).toBe(compiler.check(pack, "Outer", value)[0]?.schemaPath);
  });
});

describe("schema paths in the protocol packs", () => {
  const engine = createValidationEngine();
  /** Values wrong in many ways at once: every member a kind declares at its top, set to a number. */
  function brokenValues(pack: SchemaPack, definition: string): unknown[] {
    const container = pack.draft === "2020-12" ? "$defs" : "definitions";
    const defs = pack.document[container] as Record<string, Record<string, unknown>>;
    const members = new Set<string>();
    const todo: unknown[] = [defs[definition]];
    for (let node = todo.pop(), n = 0; node !== undefined && n < 20; node = todo.pop(), n++) {
      if (typeof node !== "object" || node === null) continue;
      const schema = node as Record<string, unknown>;
      if (typeof schema.properties === "object" && schema.properties) for (const m of Object.keys(schema.properties)) members.add(m);
      if (typeof schema.$ref === "string") todo.push(defs[schema.$ref.split("/").pop()!]);
      for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(schema[key])) todo.push(...(schema[key] as unknown[]));
    }
    const numbers = Object.fromEntries([...members].map((m) => [m, 7]));
    const objects = Object.fromEntries([...members].map((m) => [m, { jsonrpc: 1, content: [{ type: 1 }], message: {} }]));
    return [{}, [], numbers, objects];
  }

  it("are pointers into the pack's document, ending in the failing keyword", () => {
    let checked = 0;
    for (const pack of engine.packs()) {
      for (const kind of pack.kinds) {
        for (const value of brokenValues(pack, kind.definition)) {
          for (const issue of engine.compiler.check(pack, kind.definition, value)) {
            const path = issue.schemaPath ?? "";
            expect(path.startsWith(`${pack.id}#/`), `${pack.id} ${kind.id}: ${path}`).toBe(true);
            const tokens = parsePointer(path.slice(pack.id.length + 1));
            const keyword = tokens.pop()!;
            expect(keyword, path).toBe(issue.keyword === "enum" || issue.keyword === "const" ? keyword : issue.keyword);
            const holder = pointerTarget(pack.document, formatPointer(tokens));
            if (keyword === "false schema") expect(holder, path).toBe(false);
            else expect(Object.hasOwn(holder as object, keyword), path).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  }, 120_000);
});
