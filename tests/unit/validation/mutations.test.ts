import { afterAll, describe, expect, it } from "vitest";
import { createValidationEngine, PROTOCOL_FAMILIES } from "../../../src/core/packs/index.ts";
import { MCP_VERSIONS } from "../../../src/core/packs/mcp/index.ts";
import { SchemaCompiler } from "../../../src/core/schema/compiler.ts";
import type { Family, Verdict } from "../../../src/core/validation/types.ts";
import { A2A_CORPUS_FILES, a2aCorpusSeeds, fiskAiCorpusSeeds, mcpCorpusSeeds, mcpExampleSeeds, type SeedSet } from "../../helpers/mutation-seeds.ts";
import { CLASS_TITLES, type Exclusion, MUTATION_CLASSES, type Mutant, type MutationClass, MutationGenerator, type Seed } from "../../helpers/mutations.ts";
import { describeWithReference, referenceDir } from "../../helpers/reference.ts";

/**
 * The mutation suite. For each message kind of each family and version, the valid seeds (upstream's
 * examples where upstream publishes them, our corpus elsewhere; test names say which) must pass
 * when pasted on their own, and every near-miss generated from them must fail: (a) a method or
 * protocol id one letter off, (b) a required member removed, (c) a member of the wrong type, (d) an
 * enum or const value misspelt, (e) a version of another era. For (b)–(d) the verdict must also
 * point at the member (a removed member at its parent or itself). Each mutant is pasted as a user
 * would paste it: a fresh session, no override. Which mutants exist is derived from our packs'
 * schemas; see tests/helpers/mutations.ts for what is excluded and why.
 */

const compiler = new SchemaCompiler();
const engine = createValidationEngine(compiler);
const generator = new MutationGenerator(PROTOCOL_FAMILIES, compiler);

const paste = (text: string): Verdict => engine.session().validateText(text);
const passes = (v: Verdict): boolean => v.status === "valid" || v.status === "error-response";
const where = (v: Verdict): string => (v.kindId ? `${v.kindId} (${v.packId})` : "nothing");

interface Outcome {
  readonly mutant: Mutant;
  readonly verdict: Verdict;
  /** Not valid, and (for (b)–(d)) an issue at the member. */
  readonly caught: boolean;
  /** Not valid. */
  readonly flagged: boolean;
  /** For (b)–(d): where the verdict points, relative to the member. */
  readonly placed: "member" | "enclosing" | "none";
  /** Valid in the version judged by only thanks to members that version does not declare: shown when it happens. */
  readonly eraMix: boolean;
}

/** Whether `text` names `word` as a word of its own ("Missing required property "name"", "carry the id"). */
const names = (text: string, word: string): boolean => new RegExp(`(^|[^\\w])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\w]|$)`, "u").test(text);

function judge(mutant: Mutant): Outcome {
  const verdict = paste(JSON.stringify(mutant.value));
  const failed = !passes(verdict);
  const { pointers, parent } = mutant;
  const pointed =
    pointers.length === 0 || verdict.issues.some((i) => pointers.includes(i.pointer) || (parent !== undefined && i.pointer === parent.pointer && names(i.message, parent.member)));
  const enclosing = verdict.issues.some((i) => pointers.some((p) => i.pointer === "" || p.startsWith(`${i.pointer}/`)));
  const placed = pointed ? "member" : enclosing ? "enclosing" : "none";
  const pack = verdict.packId ? engine.pack(verdict.packId) : undefined;
  const kind = pack?.kinds.find((k) => k.id === verdict.kindId);
  const eraMix = !failed && pack !== undefined && kind !== undefined && generator.passesThroughUndeclared(pack, kind, mutant.value);
  return { mutant, verdict, caught: failed && pointed, flagged: failed, placed, eraMix };
}

function describeMiss(o: Outcome): string {
  const { mutant: m, verdict: v } = o;
  const seed = `${m.seed.pack.id} ${m.seed.kind.id} [${m.seed.name}]`;
  if (passes(v)) return `${seed} ${m.label}: ${v.status} as ${where(v)}${o.eraMix ? ", only through members its version does not declare" : ""}`;
  const at = [...new Set(v.issues.map((i) => JSON.stringify(i.pointer)))].slice(0, 4).join(", ") || "no issues";
  const wanted = m.pointers.map((p) => JSON.stringify(p)).join(" or ") + (m.parent ? ` or at ${JSON.stringify(m.parent.pointer)} naming "${m.parent.member}"` : "");
  return `${seed} ${m.label}: ${v.status} as ${where(v)}, but no issue at ${wanted} (issues at ${at})`;
}

/**
 * Why a flagged (b)-(d) mutant's verdict has no issue at the broken member; every such mutant
 * must fall in one of these groups, and each family must point at least MIN_POINTED of them.
 *
 * - "no family recognises it": the member was the discriminator every recogniser reads (a fisk-ai
 *   protocol id given a non-string value, an A2A card's name); with no reading there is nothing to
 *   check the rest against. Upstream's fisk-ai schemas, keyed by protocol id, leave such a message
 *   unclassified too, and the agreement suite holds us to that (tests/agreement/fisk-ai.test.ts).
 * - "only a catch-all takes it": the member that said which request a result answers is gone
 *   (a list result without its list, a tools/call result without content, an A2A task without id
 *   or status); what is left is any result, and a pasted result has no request to go by.
 * - "judged as another kind": what is left reads as another kind of the family or of another
 *   family (an A2A push config as v0.1's, an extended card as an MCP initialize result), whose
 *   issues are its own. Telling them apart needs the request the result answers.
 * - "judged by another version": the versions of the kind fail with as few issues each, and the
 *   tie goes to the newest (a pre-2026 result blamed for lacking 2026's resultType, a Gen 1
 *   v0.0.2 event judged by v0.0.3).
 * - "the union cannot tell": the member removed was the discriminator of a union nested in the
 *   message (a Gen 1 block's type), so no branch is meant and the union itself is reported.
 */
type UnpointedGroup = "no family recognises it" | "only a catch-all takes it" | "judged as another kind" | "judged by another version" | "the union cannot tell";
const UNEXPLAINED = "in no documented group";

function unpointedGroup(o: Outcome): UnpointedGroup | typeof UNEXPLAINED {
  const { verdict: v, mutant: m } = o;
  if (v.kindId === undefined) return "no family recognises it";
  const kind = v.packId ? engine.pack(v.packId)?.kinds.find((k) => k.id === v.kindId) : undefined;
  if (kind?.generic === true && v.status === "unrecognised") return "only a catch-all takes it";
  if (v.kindId !== m.seed.kind.id || v.family !== m.seed.family) return "judged as another kind";
  if (v.packId !== m.seed.pack.id) return "judged by another version";
  const parent = m.pointers[0]?.slice(0, m.pointers[0].lastIndexOf("/"));
  if (v.issues.some((i) => (i.keyword === "oneOf" || i.keyword === "anyOf") && i.pointer === parent)) return "the union cannot tell";
  return UNEXPLAINED;
}

/** (b)-(d) mutants pointed at their member, per family, at least: a regression in pointing fails the suite. */
const MIN_POINTED: Readonly<Record<Family, number>> = { mcp: 1071, a2a: 1231, "fisk-ai": 3981 };

const LISTED = 40;
function listing(lines: readonly string[]): string {
  const shown = lines.slice(0, LISTED).join("\n  ");
  return lines.length > LISTED ? `\n  ${shown}\n  … and ${lines.length - LISTED} more` : lines.length > 0 ? `\n  ${shown}` : "";
}

/** One group of seeds (a version's examples or corpus) with its mutants, judged once. */
interface Group {
  readonly family: Family;
  readonly seeds: readonly Seed[];
  readonly mutants: readonly Mutant[];
  readonly excluded: readonly Exclusion[];
  outcomes?: readonly Outcome[];
}

const groups: Group[] = [];
/** Mutant texts already in a group of the family: a message valid in several versions yields the same mutants once. */
const seenTexts = new Map<Family, Set<string>>();
const seenExcluded = new Map<Family, Set<string>>();

function outcomes(group: Group): readonly Outcome[] {
  group.outcomes ??= group.mutants.map(judge);
  return group.outcomes;
}

function makeGroup(family: Family, set: SeedSet): Group {
  const once = (seen: Map<Family, Set<string>>, value: unknown): boolean => {
    const texts = seen.get(family) ?? new Set<string>();
    seen.set(family, texts);
    const text = JSON.stringify(value);
    if (texts.has(text)) return false;
    texts.add(text);
    return true;
  };
  const mutants: Mutant[] = [];
  const excluded: Exclusion[] = [];
  for (const seed of set.seeds) {
    const made = generator.generate(seed);
    excluded.push(...made.excluded.filter((e) => once(seenExcluded, e.value)));
    mutants.push(...made.mutants.filter((m) => once(seenTexts, m.value)));
  }
  const group: Group = { family, seeds: set.seeds, mutants, excluded };
  groups.push(group);
  return group;
}

/** The tests of one group, inside the caller's describe. */
function groupTests(family: Family, set: SeedSet): void {
  const group = makeGroup(family, set);
  if (set.refused.length > 0) {
    console.log(`[mutations] ${set.refused.length} seed(s) left out because our own pack refuses them (deliberate differences, see tests/agreement):${listing(set.refused.map((r) => `${r.seed.name}: ${r.issue}`))}`);
  }
  if (set.oversized > 0) console.log(`[mutations] ${set.oversized} seed(s) of ${group.seeds[0]?.pack.id ?? family} over 64 KiB left out (body-size cases; sizes are not mutated)`);
  it(`${group.seeds.length} seeds pass when pasted alone`, () => {
    expect(group.seeds.length).toBeGreaterThan(0);
    const failures = group.seeds.flatMap((seed) => {
      const v = paste(seed.text);
      return passes(v) ? [] : [`${seed.kind.id} [${seed.name}]: ${v.status} as ${where(v)}; ${v.issues[0] ? `${v.issues[0].pointer} ${v.issues[0].message}` : v.evidence.join("; ")}`];
    });
    expect(failures, `seeds that do not pass:${listing(failures)}`).toEqual([]);
  });
  for (const cls of MUTATION_CLASSES) {
    const count = group.mutants.filter((m) => m.cls === cls).length;
    if (count === 0) continue;
    it(`${CLASS_TITLES[cls]}: none of ${count} mutants is valid`, () => {
      const of = outcomes(group).filter((o) => o.mutant.cls === cls);
      const misses = of.filter((o) => !o.flagged);
      expect(misses.map(describeMiss), `${misses.length} of ${count} pass as valid:${listing(misses.map(describeMiss))}`).toEqual([]);
    });
  }
}

interface Tally {
  seeds: number;
  mutants: number;
  caught: number;
  excluded: number;
  readonly byClass: Map<MutationClass, { mutants: number; caught: number; excluded: number }>;
  readonly byRule: Map<string, Exclusion[]>;
}

function tally(family: Family): Tally {
  const t: Tally = { seeds: 0, mutants: 0, caught: 0, excluded: 0, byClass: new Map(), byRule: new Map() };
  const of = (cls: MutationClass) => {
    const found = t.byClass.get(cls) ?? { mutants: 0, caught: 0, excluded: 0 };
    t.byClass.set(cls, found);
    return found;
  };
  for (const group of groups.filter((g) => g.family === family)) {
    t.seeds += group.seeds.length;
    for (const e of group.excluded) {
      t.excluded++;
      of(e.cls).excluded++;
      t.byRule.set(e.rule, [...(t.byRule.get(e.rule) ?? []), e]);
    }
    for (const o of outcomes(group)) {
      const c = of(o.mutant.cls);
      c.mutants++;
      t.mutants++;
      if (o.caught) {
        c.caught++;
        t.caught++;
      }
    }
  }
  return t;
}

function familyTotal(family: Family): void {
  it("flags every mutant of the family, another era's version included", () => {
    const all = groups.filter((g) => g.family === family).flatMap((g) => outcomes(g));
    expect(all.length).toBeGreaterThan(0);
    const missed = all.filter((o) => !o.flagged);
    expect(missed.map(describeMiss), `${family}: ${all.length - missed.length} of ${all.length} mutants flagged:${listing(missed.map(describeMiss))}`).toEqual([]);
  });
  it("points at the broken member of every (b)-(d) mutant but the documented exceptions", () => {
    const pointed = groups.filter((g) => g.family === family).flatMap((g) => outcomes(g).filter((o) => o.mutant.pointers.length > 0 && o.flagged));
    const missed = pointed.filter((o) => o.placed !== "member");
    const byGroup = new Map<string, Outcome[]>();
    for (const o of missed) {
      const group = unpointedGroup(o);
      byGroup.set(group, [...(byGroup.get(group) ?? []), o]);
    }
    const counts = [...byGroup].map(([group, list]) => `${list.length} ${group}`);
    console.log(`[mutations] ${family}: ${pointed.length - missed.length} of ${pointed.length} (b)-(d) mutants pointed at the member; not: ${counts.join("; ") || "none"}`);
    for (const [group, list] of byGroup) console.log(`  ${group}:${listing(list.map(describeMiss).slice(0, 6))}`);
    const unexplained = byGroup.get(UNEXPLAINED) ?? [];
    expect(unexplained.map(describeMiss), `not pointed, and in no documented group:${listing(unexplained.map(describeMiss))}`).toEqual([]);
    expect(pointed.length - missed.length).toBeGreaterThanOrEqual(MIN_POINTED[family]);
  });
}

const dir = referenceDir();
const skipped: string[] = [];

describe("mutations: mcp", () => {
  const examples = dir ? mcpExampleSeeds(dir, compiler) : null;
  if (!examples) skipped.push("mcp 2026-07-28 official examples (reference folder absent; the corpus seeds every 2026-07-28 kind instead)");
  describeWithReference("mcp 2026-07-28: official examples", () => groupTests("mcp", examples!));
  const covered = new Set(examples?.seeds.map((s) => s.kind.id) ?? []);
  for (const version of MCP_VERSIONS) {
    const title =
      version !== "2026-07-28"
        ? `mcp ${version}: corpus (no official examples)`
        : examples
          ? `mcp ${version}: corpus (kinds the official examples lack)`
          : `mcp ${version}: corpus (official examples unavailable: reference folder absent)`;
    describe(title, () => groupTests("mcp", mcpCorpusSeeds(version, compiler, version === "2026-07-28" ? covered : new Set())));
  }
  familyTotal("mcp");
});

describe("mutations: a2a", () => {
  for (const file of A2A_CORPUS_FILES) {
    const set = a2aCorpusSeeds(file, compiler);
    describe(`${set.pack.id}: corpus (A2A publishes no example messages)`, () => groupTests("a2a", set));
  }
  familyTotal("a2a");
});

describe("mutations: fisk-ai", () => {
  for (const [packId, set] of fiskAiCorpusSeeds(compiler)) {
    describe(`${packId}: corpus (the reference holds schemas, no example messages)`, () => groupTests("fisk-ai", set));
  }
  familyTotal("fisk-ai");
});

afterAll(() => {
  const families: Family[] = ["mcp", "a2a", "fisk-ai"];
  const parts = families.map((f) => {
    const t = tally(f);
    return `${f}: ${t.seeds} seeds, ${t.mutants} mutants, ${t.caught} caught (${t.excluded} excluded as no error per the schemas)`;
  });
  console.log(`mutation counts per family: ${parts.join("; ")}`);
  for (const f of families) {
    const t = tally(f);
    const classes = MUTATION_CLASSES.map((c) => {
      const n = t.byClass.get(c) ?? { mutants: 0, caught: 0, excluded: 0 };
      return `${CLASS_TITLES[c].slice(0, 3)} ${n.caught}/${n.mutants} (${n.excluded} excluded)`;
    });
    console.log(`  ${f} caught/mutants by class: ${classes.join(", ")}`);
    const all = groups.filter((g) => g.family === f).flatMap((g) => outcomes(g));
    const pointed = all.filter((o) => o.mutant.pointers.length > 0 && o.flagged);
    const at = (p: Outcome["placed"]) => pointed.filter((o) => o.placed === p).length;
    console.log(
      `  ${f}: ${all.filter((o) => o.flagged).length} of ${all.length} flagged; ` +
        `pointer precision of flagged (b)-(d): ${at("member")} at the member, ${at("enclosing")} only at an enclosing member, ${at("none")} elsewhere or no issue`,
    );
    for (const [rule, list] of t.byRule) {
      const examples = list.slice(0, 2).map((e) => `${e.seed.pack.id} ${e.seed.kind.id} ${e.label}: ${e.reason}`);
      console.log(`    excluded, ${rule}: ${list.length} (e.g. ${examples.join("; ")})`);
    }
    const seeded = new Set(groups.filter((g) => g.family === f).flatMap((g) => g.seeds.map((s) => `${s.pack.id} ${s.kind.id}`)));
    const kinds = (PROTOCOL_FAMILIES.find((m) => m.family === f)?.packs ?? []).flatMap((p) => p.kinds.filter((k) => k.role !== "payload").map((k) => `${p.id} ${k.id}`));
    const unseeded = kinds.filter((k) => !seeded.has(k));
    const shown = unseeded.slice(0, 12).join(", ") + (unseeded.length > 12 ? `, … ${unseeded.length - 12} more` : "");
    console.log(`  ${f} message kinds with a seed: ${kinds.length - unseeded.length} of ${kinds.length}${unseeded.length > 0 ? `; without: ${shown}` : ""}`);
  }
  if (skipped.length > 0) console.log(`  SKIPPED: ${skipped.join("; ")}`);
});
