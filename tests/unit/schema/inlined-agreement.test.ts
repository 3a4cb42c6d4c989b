import { describe, expect, it } from "vitest";
import { PROTOCOL_FAMILIES } from "../../../src/core/packs/index.ts";
import { SchemaCompiler } from "../../../src/core/schema/compiler.ts";
import type { SchemaPack } from "../../../src/core/validation/types.ts";
import { mixedCapture } from "../../../bench/capture.ts";
import { allSeedSets, type SeedSet } from "../../helpers/mutation-seeds.ts";
import { MutationGenerator, type Seed } from "../../helpers/mutations.ts";
import { referenceDir } from "../../helpers/reference.ts";

/**
 * The yes/no validators are compiled from a copy of each pack's document with its non-recursive
 * `$ref`s written out (see inline-refs.ts); the full validators, which report issues, from the
 * document as it is. Both must give one verdict for every value: here every seed, every near-miss
 * generated from it and the benchmark capture, against every kind of the value's pack and the same
 * kind in each of the family's versions.
 */

const compiler = new SchemaCompiler();
const generator = new MutationGenerator(PROTOCOL_FAMILIES, compiler);
const packsOf = (family: string): readonly SchemaPack[] => PROTOCOL_FAMILIES.find((f) => f.family === family)?.packs ?? [];

function seedSets(): SeedSet[] {
  const dir = referenceDir();
  if (!dir) console.warn("[inlined-agreement] ../shared/reference/ is absent: upstream's MCP examples are left out, our corpus still runs");
  return allSeedSets(compiler, dir);
}

/** Each disagreement as `pack#definition: value`, or none. */
function disagreements(pack: SchemaPack, definitions: Iterable<string>, value: unknown): string[] {
  const out: string[] = [];
  for (const definition of definitions) {
    const fast = compiler.isValid(pack, definition, value);
    const full = compiler.check(pack, definition, value).length === 0;
    if (fast !== full) out.push(`${pack.id}#${definition} yes/no says ${fast}, full check ${full}: ${JSON.stringify(value).slice(0, 200)}`);
  }
  return out;
}

function valueChecks(seed: Seed, value: unknown): string[] {
  const own = new Set(seed.pack.kinds.map((k) => k.definition));
  const found = disagreements(seed.pack, own, value);
  for (const pack of packsOf(seed.family)) {
    if (pack === seed.pack) continue;
    const same = pack.kinds.find((k) => k.id === seed.kind.id);
    if (same) found.push(...disagreements(pack, [same.definition], value));
  }
  return found;
}

describe("inlined yes/no validators agree with the full ones", () => {
  for (const set of seedSets()) {
    const first = set.seeds[0];
    const title = first ? `${first.pack.id} (${first.source === "corpus" ? "our corpus" : "upstream's examples"})` : "an empty seed set";
    it(`on every seed of ${title} and every near-miss of it, across the kinds of its pack and the versions of its kind`, () => {
      let values = 0;
      const found: string[] = [];
      for (const seed of set.seeds) {
        found.push(...valueChecks(seed, seed.message));
        values++;
        const made = generator.generate(seed);
        for (const near of [...made.mutants, ...made.excluded]) {
          found.push(...valueChecks(seed, near.value));
          values++;
        }
      }
      expect(values).toBeGreaterThan(set.seeds.length);
      expect(found.slice(0, 20)).toEqual([]);
    }, 60_000);
  }

  it("on the benchmark capture, against every kind of every pack", () => {
    const lines = mixedCapture(168);
    const found: string[] = [];
    for (const family of PROTOCOL_FAMILIES) {
      for (const pack of family.packs) {
        for (const line of lines) found.push(...disagreements(pack, pack.kinds.map((k) => k.definition), JSON.parse(line)));
      }
    }
    expect(found.slice(0, 20)).toEqual([]);
  });
});
