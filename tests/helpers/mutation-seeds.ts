import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { A2A_PACKS } from "../../src/core/packs/a2a/index.ts";
import { FISK_AI_PACKS } from "../../src/core/packs/fisk-ai/index.ts";
import { MCP_VERSIONS, type McpVersion, packFor } from "../../src/core/packs/mcp/index.ts";
import type { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import type { MessageKind, SchemaPack } from "../../src/core/validation/types.ts";
import { entryText, FISK_AI_CORPUS, GEN_VERSIONS } from "../corpus/fisk-ai/index.ts";
import type { Seed } from "./mutations.ts";
import { readReferenceFolder } from "./reference.ts";

/**
 * Seeds for the mutation suite: upstream's example messages where upstream publishes them (MCP
 * 2026-07-28), our own corpus elsewhere. Only messages are seeds: a "payload" kind (a bare
 * content block, a params object) is a fragment people paste, not a message of the protocol.
 * Seeds over 64 KiB (the fisk-ai body-cap cases) are left out: sizes are not what this suite
 * mutates, and each copy would cost a full parse.
 */

const MAX_SEED_CHARS = 64 * 1024;
const corpusDir = new URL("../corpus/", import.meta.url);

const isMessageKind = (kind: MessageKind): boolean => kind.role !== "payload";

/** Seeds whose own pack refuses them (deliberate differences from upstream, listed by the agreement suites). */
export interface Refused {
  readonly seed: Seed;
  readonly issue: string;
}

export interface SeedSet {
  readonly seeds: Seed[];
  readonly refused: Refused[];
  /** Seeds over MAX_SEED_CHARS, left out. */
  readonly oversized: number;
}

function kindOf(pack: SchemaPack, kindId: string): MessageKind {
  const kind = pack.kinds.find((k) => k.id === kindId);
  if (!kind) throw new Error(`${pack.id} has no kind ${kindId}`);
  return kind;
}

/** Keeps the seeds our pack accepts as their kind; the rest are reported, not mutated. */
function sorted(candidates: Seed[], compiler: SchemaCompiler): SeedSet {
  const seeds: Seed[] = [];
  const refused: Refused[] = [];
  let oversized = 0;
  for (const seed of candidates) {
    if (!isMessageKind(seed.kind)) continue;
    if (seed.text.length > MAX_SEED_CHARS) {
      oversized++;
      continue;
    }
    const issue = compiler.firstIssue(seed.pack, seed.kind.definition, seed.message);
    if (issue) refused.push({ seed, issue: `${issue.pointer} ${issue.message}` });
    else seeds.push(seed);
  }
  return { seeds, refused, oversized };
}

/** MCP 2026-07-28: upstream's examples, one folder per definition; folders of payload definitions are not messages. */
export function mcpExampleSeeds(referenceDir: string, compiler: SchemaCompiler): SeedSet {
  const pack = packFor("2026-07-28");
  const root = join(referenceDir, "mcp", "2026-07-28", "examples");
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const seeds: Seed[] = [];
  for (const folder of folders) {
    const kind = pack.kinds.find((k) => k.definition === folder && isMessageKind(k));
    if (!kind) continue;
    for (const [file, message] of readReferenceFolder(referenceDir, "mcp", "2026-07-28", "examples", folder)) {
      seeds.push({ family: "mcp", pack, kind, source: "official example", name: `${folder}/${file}`, message, text: JSON.stringify(message) });
    }
  }
  return sorted(seeds, compiler);
}

interface McpCase {
  readonly name: string;
  readonly kind?: string;
  readonly valid: boolean;
  readonly message: unknown;
}

/** Our MCP corpus's valid messages of one version; `skipKinds` are those upstream examples already cover. */
export function mcpCorpusSeeds(version: McpVersion, compiler: SchemaCompiler, skipKinds: ReadonlySet<string> = new Set()): SeedSet {
  const pack = packFor(version);
  const { cases } = JSON.parse(readFileSync(new URL(`mcp/${version}.json`, corpusDir), "utf8")) as { cases: McpCase[] };
  const seeds: Seed[] = [];
  for (const c of cases) {
    if (!c.valid || !c.kind || skipKinds.has(c.kind)) continue;
    seeds.push({ family: "mcp", pack, kind: kindOf(pack, c.kind), source: "corpus", name: c.name, message: c.message, text: JSON.stringify(c.message) });
  }
  return sorted(seeds, compiler);
}

interface A2aEntry {
  readonly name: string;
  readonly kind: string;
  readonly schema: "valid" | "invalid";
  readonly rules?: readonly string[];
  readonly message: unknown;
}

export const A2A_CORPUS_FILES = ["v0.1.0.json", "v0.2.json", "v0.3.0.json", "v1.0.json"] as const;

/** Our A2A corpus's valid messages of one file (A2A publishes schemas, not examples). */
export function a2aCorpusSeeds(file: (typeof A2A_CORPUS_FILES)[number], compiler: SchemaCompiler): SeedSet & { readonly pack: SchemaPack } {
  const corpus = JSON.parse(readFileSync(new URL(`a2a/${file}`, corpusDir), "utf8")) as { pack: string; messages: A2aEntry[] };
  const pack = A2A_PACKS.find((p) => p.id === corpus.pack);
  if (!pack) throw new Error(`no pack ${corpus.pack}`);
  const seeds: Seed[] = [];
  for (const entry of corpus.messages) {
    if (entry.schema !== "valid" || (entry.rules?.length ?? 0) > 0) continue;
    seeds.push({ family: "a2a", pack, kind: kindOf(pack, entry.kind), source: "corpus", name: entry.name, message: entry.message, text: JSON.stringify(entry.message) });
  }
  return { pack, ...sorted(seeds, compiler) };
}

/** Our fisk-ai corpus's valid messages, per generation (the reference folder holds schemas, no example messages). */
export function fiskAiCorpusSeeds(compiler: SchemaCompiler): Map<string, SeedSet> {
  const out = new Map<string, SeedSet>();
  for (const gen of GEN_VERSIONS) {
    const pack = FISK_AI_PACKS.find((p) => p.version === gen);
    if (!pack) throw new Error(`no fisk-ai pack ${gen}`);
    const seeds: Seed[] = [];
    for (const entry of FISK_AI_CORPUS) {
      if (entry.expect[gen] !== "valid" || entry.kind === null || entry.errorRule) continue;
      seeds.push({ family: "fisk-ai", pack, kind: kindOf(pack, entry.kind), source: "corpus", name: entry.name, message: entry.message, text: entryText(entry) });
    }
    out.set(pack.id, sorted(seeds, compiler));
  }
  return out;
}

/**
 * Every seed set, family by family: upstream's MCP examples when the reference folder is here
 * (`referenceDir`, null when absent: the caller says so), then our MCP, A2A and fisk-ai corpora.
 */
export function allSeedSets(compiler: SchemaCompiler, referenceDir: string | null): SeedSet[] {
  const sets: SeedSet[] = [];
  if (referenceDir) sets.push(mcpExampleSeeds(referenceDir, compiler));
  for (const version of MCP_VERSIONS) sets.push(mcpCorpusSeeds(version, compiler));
  for (const file of A2A_CORPUS_FILES) sets.push(a2aCorpusSeeds(file, compiler));
  sets.push(...fiskAiCorpusSeeds(compiler).values());
  return sets;
}
