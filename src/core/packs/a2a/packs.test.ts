import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../schema/compiler.ts";
import { A2A_PACKS } from "./index.ts";

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) node.forEach((item) => walk(item, visit));
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}

describe("A2A schema packs", () => {
  it("are oldest first with unique ids, $ids and orders", () => {
    const orders = A2A_PACKS.map((p) => p.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(new Set(A2A_PACKS.map((p) => p.id)).size).toBe(A2A_PACKS.length);
    expect(new Set(A2A_PACKS.map((p) => p.document.$id)).size).toBe(A2A_PACKS.length);
    for (const pack of A2A_PACKS) {
      expect(pack.family).toBe("a2a");
      expect(String(pack.document.$id)).toMatch(/^https:\/\/patchbay\.dev\/schemas\/a2a\/v[\d.]+\.json$/);
      expect(pack.sources.length).toBeGreaterThan(0);
      for (const source of pack.sources) expect(source.revision).toMatch(/^v[\d.]+ \([0-9a-f]{40}\)$/);
    }
  });

  it("use the definitions container of their draft", () => {
    for (const pack of A2A_PACKS) {
      const container = pack.draft === "2020-12" ? "$defs" : "definitions";
      expect(pack.document[container]).toBeTypeOf("object");
      expect(pack.document[container === "$defs" ? "definitions" : "$defs"]).toBeUndefined();
    }
  });

  // Compiles every kind of every version at once, which takes seconds on a busy machine.
  it("compile every kind, and every $ref names a definition of the same document", { timeout: 30_000 }, () => {
    const compiler = new SchemaCompiler();
    for (const pack of A2A_PACKS) {
      compiler.compileAll(pack);
      const container = pack.draft === "2020-12" ? "$defs" : "definitions";
      const defs = pack.document[container] as Record<string, unknown>;
      walk(defs, (key, value) => {
        if (key !== "$ref") return;
        const name = String(value).replace(`#/${container}/`, "");
        expect(defs, `${pack.id} ${String(value)}`).toHaveProperty(name);
      });
    }
  });

  it("have unique kind ids and carry no prose copied from upstream (no description keywords)", () => {
    for (const pack of A2A_PACKS) {
      expect(new Set(pack.kinds.map((k) => k.id)).size).toBe(pack.kinds.length);
      walk(pack.document, (key, value) => {
        // `description` may be a member name (a property schema), never a string annotation.
        if (key === "description") expect(typeof value, pack.id).toBe("object");
      });
    }
  });
});
