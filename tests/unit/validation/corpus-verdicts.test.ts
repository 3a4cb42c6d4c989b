import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROTOCOL_FAMILIES } from "../../../src/core/packs/index.ts";
import { SchemaCompiler } from "../../../src/core/schema/compiler.ts";
import type { SchemaPack } from "../../../src/core/validation/index.ts";
import { FISK_AI_CORPUS, GEN_VERSIONS } from "../../corpus/fisk-ai/index.ts";

/**
 * The corpora's expected schema verdicts against the project's own packs. Unlike the agreement
 * tests this needs no upstream reference folder, so it runs everywhere, CI included.
 */
const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "../../corpus");
const compiler = new SchemaCompiler();
const packs = new Map<string, SchemaPack>(PROTOCOL_FAMILIES.flatMap((f) => f.packs.map((p) => [p.id, p] as const)));

function definitionOf(packId: string, kindId: string | undefined, definition: string | undefined): { pack: SchemaPack; definition: string } {
  const pack = packs.get(packId);
  if (!pack) throw new Error(`no pack ${packId}`);
  if (definition) return { pack, definition };
  const kind = pack.kinds.find((k) => k.id === kindId);
  if (!kind) throw new Error(`pack ${packId} has no kind ${kindId}`);
  return { pack, definition: kind.definition };
}

function schemaValid(packId: string, kindId: string | undefined, message: unknown, definition?: string): boolean {
  const target = definitionOf(packId, kindId, definition);
  return compiler.isValid(target.pack, target.definition, message);
}

const read = (family: string, file: string) => JSON.parse(readFileSync(join(corpusDir, family, file), "utf8")) as Record<string, unknown>;

describe("MCP corpus against our packs", () => {
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]) {
    const cases = read("mcp", `${version}.json`).cases as { name: string; kind?: string; definition?: string; valid: boolean; message: unknown }[];
    it(`${version}: ${cases.length} messages get their expected verdicts`, () => {
      const wrong = cases.filter((c) => schemaValid(`mcp/${version}`, c.kind, c.message, c.definition) !== c.valid).map((c) => c.name);
      expect(wrong).toEqual([]);
    });
  }
});

describe("A2A corpus against our packs", () => {
  for (const file of ["v0.1.0.json", "v0.2.json", "v0.3.0.json", "v1.0.json"]) {
    const doc = read("a2a", file);
    const messages = doc.messages as { name: string; kind: string; schema: "valid" | "invalid"; message: unknown }[];
    it(`${String(doc.pack)}: ${messages.length} messages get their expected verdicts`, () => {
      const wrong = messages.filter((m) => schemaValid(String(doc.pack), m.kind, m.message) !== (m.schema === "valid")).map((m) => m.name);
      expect(wrong).toEqual([]);
    });
  }
});

describe("fisk-ai corpus against our packs", () => {
  for (const gen of GEN_VERSIONS) {
    const entries = FISK_AI_CORPUS.filter((e) => e.kind !== null && (e.expect[gen] === "valid" || e.expect[gen] === "invalid"));
    it(`${gen}: ${entries.length} messages get their expected verdicts`, () => {
      const wrong = entries.filter((e) => {
        // A rule-only failure (body cap, decoder time) is schema-valid by design.
        const expected = e.expect[gen] === "valid" || e.errorRule !== undefined;
        const pack = packs.get(`fisk-ai/${gen}`)!;
        const kind = pack.kinds.find((k) => k.id === e.kind);
        return !kind || compiler.isValid(pack, kind.definition, e.message) !== expected;
      });
      expect(wrong.map((e) => e.name)).toEqual([]);
    });
  }
});
