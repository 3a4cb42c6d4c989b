import { describe, expect, it } from "vitest";
import { mixedCapture } from "../../../bench/capture.ts";
import { createValidationEngine, PROTOCOL_FAMILIES } from "../../../src/core/packs/index.ts";
import { SchemaCompiler } from "../../../src/core/schema/compiler.ts";
import { allSeedSets, type SeedSet } from "../../helpers/mutation-seeds.ts";
import { MutationGenerator } from "../../helpers/mutations.ts";
import { referenceDir } from "../../helpers/reference.ts";

/**
 * The validIn list skips checking a version whose definition the judged one is proven to lie
 * within (see schema-inclusion.ts). Such a proof must never be wrong: here every seed, every
 * near-miss of it and the benchmark capture, gathered by kind across the family's versions, is
 * checked against every proven pair of versions: a value the first accepts, the second accepts.
 */

const compiler = new SchemaCompiler();
const engine = createValidationEngine(compiler);
const generator = new MutationGenerator(PROTOCOL_FAMILIES, compiler);

function seedSets(): SeedSet[] {
  const dir = referenceDir();
  if (!dir) console.warn("[inclusion-sound] ../shared/reference/ is absent: upstream's MCP examples are left out, our corpus still runs");
  return allSeedSets(compiler, dir);
}

describe("proven inclusions between versions of a kind", () => {
  it("hold for every seed, near-miss and capture message of the kind", () => {
    // Values by family and kind id, from every version's seeds.
    const values = new Map<string, { family: string; kindId: string; values: unknown[] }>();
    const add = (family: string, kindId: string, value: unknown) => {
      const key = `${family}\u0000${kindId}`;
      let entry = values.get(key);
      if (!entry) values.set(key, (entry = { family, kindId, values: [] }));
      entry.values.push(value);
    };
    for (const set of seedSets()) {
      for (const seed of set.seeds) {
        add(seed.family, seed.kind.id, seed.message);
        const made = generator.generate(seed);
        for (const near of [...made.mutants, ...made.excluded]) add(seed.family, seed.kind.id, near.value);
      }
    }
    const session = engine.session();
    for (const line of mixedCapture(336)) {
      const verdict = session.validateText(line);
      if (verdict.family && verdict.kindId) add(verdict.family, verdict.kindId, JSON.parse(line));
    }

    let proven = 0;
    let exercised = 0;
    const wrong: string[] = [];
    for (const { family, kindId, values: list } of values.values()) {
      const pack = engine.packs().find((p) => p.family === family && p.kinds.some((k) => k.id === kindId))!;
      const versions = engine.versionsOf(family, pack.kinds.find((k) => k.id === kindId)!);
      for (const a of versions) {
        for (const b of versions) {
          if (a.cls === b.cls || !engine.implies(a, b)) continue;
          proven++;
          for (const value of list) {
            if (!compiler.isValid(a.pack, a.kind.definition, value)) continue;
            exercised++;
            if (!compiler.isValid(b.pack, b.kind.definition, value)) wrong.push(`${a.pack.id} within ${b.pack.id} (${kindId}), yet ${b.pack.id} refuses ${JSON.stringify(value).slice(0, 160)}`);
          }
        }
      }
    }
    // The proofs must be used, and used on values that pass, or this test says nothing.
    expect(proven).toBeGreaterThan(100);
    expect(exercised).toBeGreaterThan(1000);
    expect(wrong.slice(0, 10)).toEqual([]);
  }, 120_000);
});
