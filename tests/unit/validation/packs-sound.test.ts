import { describe, expect, it } from "vitest";
import { PROTOCOL_FAMILIES } from "../../../src/core/packs/index.ts";
import { SchemaCompiler } from "../../../src/core/schema/compiler.ts";
import type { SchemaPack } from "../../../src/core/validation/index.ts";

/** Every shipped pack compiles in full and describes itself: a broken pack must never reach a user. */
const packs: SchemaPack[] = PROTOCOL_FAMILIES.flatMap((f) => [...f.packs]);

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}

describe("the schema packs", () => {
  it("cover every protocol version the issue names", () => {
    expect(packs.map((p) => p.id)).toEqual([
      "mcp/2024-11-05",
      "mcp/2025-03-26",
      "mcp/2025-06-18",
      "mcp/2025-11-25",
      "mcp/2026-07-28",
      "a2a/v0.1.0",
      "a2a/v0.2",
      "a2a/v0.3.0",
      "a2a/v1.0",
      "fisk-ai/gen1-v0.0.2",
      "fisk-ai/gen1-v0.0.3",
      "fisk-ai/gen2",
    ]);
  });

  it.each(packs.map((p) => [p.id, p] as const))("%s compiles every kind, names its draft and sources, and orders uniquely", (_id, pack) => {
    const compiler = new SchemaCompiler();
    expect(() => compiler.compileAll(pack)).not.toThrow();
    const expectedSchema = pack.draft === "2020-12" ? "https://json-schema.org/draft/2020-12/schema" : "http://json-schema.org/draft-07/schema#";
    expect(pack.document.$schema).toBe(expectedSchema);
    expect(String(pack.document.$id)).toMatch(/^https:\/\/patchbay\.dev\/schemas\//);
    expect(pack.sources.length).toBeGreaterThan(0);
    for (const source of pack.sources) expect(source.url).toMatch(/^https:\/\//);
    expect(pack.kinds.length).toBeGreaterThan(0);
    expect(new Set(pack.kinds.map((k) => k.id)).size).toBe(pack.kinds.length);
    const family = packs.filter((p) => p.family === pack.family);
    expect(family.filter((p) => p.order === pack.order)).toHaveLength(1);
  });

  it.each(packs.map((p) => [p.id, p] as const))("%s carries no prose copied from upstream: no descriptions, no titles but its own", (_id, pack) => {
    const found: string[] = [];
    const { title, ...rest } = pack.document;
    walk(rest, (key, value) => {
      if ((key === "description" || key === "title") && typeof value === "string") found.push(value);
    });
    expect(found).toEqual([]);
    if (title !== undefined) expect(String(title)).toMatch(/^Patchbay schema for /);
  });

  it("ids are unique across all packs", () => {
    expect(new Set(packs.map((p) => p.document.$id)).size).toBe(packs.length);
  });

  it("a pack whose document does not compile fails with an error naming it", () => {
    const broken: SchemaPack = { ...packs[0]!, id: "mcp/broken", document: { ...packs[0]!.document, $id: "https://patchbay.dev/schemas/broken.json", definitions: { X: { type: 12 } } }, kinds: [{ id: "x", label: "x", definition: "X", role: "payload", direction: "either" }] };
    expect(() => new SchemaCompiler().compileAll(broken)).toThrow(/Schema pack mcp\/broken does not compile/);
  });
});
