import { describe, expect, it } from "vitest";
import { FISK_AI_PACKS, fiskAiFamily } from "../../src/core/packs/fisk-ai/index.ts";
import { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import type { CheckTools, SchemaPack } from "../../src/core/validation/types.ts";
import { type CorpusEntry, entryText, type Expected, FISK_AI_CORPUS, GEN_VERSIONS, type GenVersion } from "../corpus/fisk-ai/index.ts";
import { describeWithReference, readReferenceFolder, referenceValidator, type ReferenceValidator } from "../helpers/reference.ts";

/**
 * Our fisk-ai packs and the real upstream schemas must give the same verdict on every corpus
 * message, each generation in its own validator (the generations share $ids). Upstream picks the
 * schema file from the protocol id; so do we, through the family module.
 */

const NS = "io.choria.fisk-ai.v1";
const UPSTREAM_BASE = "https://choria.io/schemas/io.choria.fisk-ai.v1/";
const FOLDERS: Record<GenVersion, string> = { "gen1-v0.0.2": "gen1-v0.0.2-c5c9211", "gen1-v0.0.3": "gen1-v0.0.3-88a3967", gen2: "gen2-main-4515e16" };

/**
 * Messages on which our verdict deliberately differs from the reference *schema*: upstream refuses
 * them too, but outside JSON Schema, so we report them through a rule.
 */
const DELIBERATE_DIFFERENCES: ReadonlyMap<string, string> = new Map([
  ["tool.reply of 786,433 bytes", "upstream caps every body at 786,432 bytes before validating (400 / ErrMessageTooLarge); a schema cannot see size. Rule fisk-ai.body-size."],
  ["tool.reply of 400,000 two-byte characters", "the cap counts UTF-8 bytes, not characters: 400,000 characters are 800,000 bytes. Rule fisk-ai.body-size."],
  ['time "yesterday"', "format is an annotation in upstream's validator, but its Go decoder (time.Time) refuses a non-RFC 3339 time. Rule fisk-ai.time."],
  ['time "2026-08-21 09:14:05Z"', "RFC 3339 needs the T separator; Go's decoder refuses the message. Rule fisk-ai.time."],
  ["request.answer approve answered with value", "the task endpoint refuses (400) an answer that does not fit its question kind; the schema allows any pairing. Rule fisk-ai.answer-kind."],
]);

const packFor = (gen: GenVersion): SchemaPack => {
  const pack = FISK_AI_PACKS.find((p) => p.version === gen);
  if (!pack) throw new Error(`no pack for ${gen}`);
  return pack;
};

const noTools: CheckTools = { validateWithSchema: () => [] };

interface Upstream {
  readonly validator: ReferenceValidator;
  /** Protocol id to schema file, as upstream's protocolSchemaFile map. */
  readonly files: ReadonlyMap<string, string>;
  readonly fallback: boolean;
}

function loadUpstream(dir: string, gen: GenVersion): Upstream {
  const docs = readReferenceFolder(dir, "fisk-ai", FOLDERS[gen]);
  const files = new Map<string, string>();
  const fallback = gen === "gen2";
  for (const file of docs.keys()) {
    if (file === "common.json" || (fallback && file === "event.json")) continue;
    files.set(`${NS}.${file.slice(0, -".json".length)}`, file);
  }
  return { validator: referenceValidator([...docs.values()], "2020-12", false), files, fallback };
}

/** Upstream's Validate: the file for the id, else event.json for any `…event.` id (Gen 2), else unknown. */
function upstreamVerdict(up: Upstream, value: unknown): { verdict: Expected; file: string | null } {
  const protocol = typeof value === "object" && value !== null ? (value as Record<string, unknown>).protocol : undefined;
  if (typeof protocol !== "string") return { verdict: "unknown", file: null };
  let file = up.files.get(protocol) ?? null;
  if (!file && up.fallback && protocol.startsWith(`${NS}.event.`)) file = "event.json";
  if (!file) return { verdict: "unknown", file: null };
  return { verdict: up.validator.valid(UPSTREAM_BASE + file, value) ? "valid" : "invalid", file };
}

const compiler = new SchemaCompiler();

interface Ours {
  readonly verdict: Expected;
  readonly schemaVerdict: Expected;
  readonly kind: string | null;
  readonly warnings: string[];
  readonly errorRules: string[];
  readonly firstIssue: string;
}

function ourVerdict(gen: GenVersion, entry: CorpusEntry): Ours {
  const session = fiskAiFamily.createSession();
  const raw = { text: entryText(entry) };
  const candidate = session.recognise(entry.message, raw).candidates.find((c) => c.pack.id === packFor(gen).id);
  if (!candidate) return { verdict: "unknown", schemaVerdict: "unknown", kind: null, warnings: [], errorRules: [], firstIssue: "" };
  const schema = compiler.check(candidate.pack, candidate.kind.definition, entry.message);
  const rules = session.check(entry.message, candidate, raw, noTools);
  const errorRules = rules.filter((i) => i.severity === "error").map((i) => i.rule ?? "");
  const schemaVerdict: Expected = schema.length === 0 ? "valid" : "invalid";
  return {
    verdict: schemaVerdict === "valid" && errorRules.length === 0 ? "valid" : "invalid",
    schemaVerdict,
    kind: candidate.kind.id,
    warnings: rules.filter((i) => i.severity === "warning").map((i) => i.rule ?? ""),
    errorRules,
    firstIssue: [...schema, ...rules][0]?.message ?? "",
  };
}

const entriesFor = (gen: GenVersion) => FISK_AI_CORPUS.filter((e) => e.expect[gen] !== undefined);

describeWithReference("fisk-ai packs agree with the upstream schemas", (dir) => {
  const upstream = Object.fromEntries(GEN_VERSIONS.map((g) => [g, loadUpstream(dir, g)])) as Record<GenVersion, Upstream>;

  it("has a well-formed corpus", () => {
    const names = FISK_AI_CORPUS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const withRule = FISK_AI_CORPUS.filter((e) => e.errorRule).map((e) => e.name);
    expect(withRule.sort()).toEqual([...DELIBERATE_DIFFERENCES.keys()].sort());
    const sizes = GEN_VERSIONS.map((g) => {
      const entries = entriesFor(g);
      const count = (v: Expected) => entries.filter((e) => e.expect[g] === v).length;
      return `${g}: ${entries.length} (${count("valid")} valid, ${count("invalid")} invalid, ${count("unknown")} unknown id)`;
    });
    console.log(`fisk-ai corpus: ${FISK_AI_CORPUS.length} messages; per generation ${sizes.join("; ")}`);
    console.log(`fisk-ai deliberate differences from the reference schemas: ${DELIBERATE_DIFFERENCES.size}`);
    for (const [name, reason] of DELIBERATE_DIFFERENCES) console.log(`  - ${name}: ${reason}`);
  });

  for (const gen of GEN_VERSIONS) {
    describe(gen, () => {
      it.each(entriesFor(gen).map((e) => [e.name, e] as const))("%s", (_name, entry) => {
        const expected = entry.expect[gen];
        const ref = upstreamVerdict(upstream[gen], entry.message);
        const ours = ourVerdict(gen, entry);
        const context = `upstream ${ref.file ?? "(no schema)"}: ${upstream[gen].validator.lastErrors()} | ours: ${ours.firstIssue}`;
        // The schemas agree everywhere, the deliberate differences included.
        expect(ours.schemaVerdict, context).toBe(ref.verdict);
        expect(ours.verdict, context).toBe(expected);
        const difference = DELIBERATE_DIFFERENCES.get(entry.name);
        if (difference && expected === "invalid") {
          expect(ref.verdict).toBe("valid");
          expect(ours.errorRules).toContain(entry.errorRule);
        } else {
          expect(ours.verdict, context).toBe(ref.verdict);
          expect(ours.errorRules).toEqual([]);
        }
        if (expected !== "unknown") expect(ours.kind).toBe(entry.kind);
        if (expected === "valid") expect(ours.warnings.sort()).toEqual([...(entry.warnings ?? [])].sort());
      });
    });
  }

  describe("cross-generation checks (§0), against the named schema directly", () => {
    const byName = (name: string): unknown => {
      const found = FISK_AI_CORPUS.find((e) => e.name === name);
      if (!found) throw new Error(`no corpus entry ${name}`);
      return found.message;
    };
    const checks: [string, string, GenVersion, string, string, boolean][] = [
      ["a Gen 2 discovery reply fails Gen 1 (behavior, model, telemetry)", "example: discovery.reply (tools and prompts)", "gen1-v0.0.3", "discovery.reply.json", "DiscoveryReply", false],
      ["a Gen 2 tool request with traceparent fails Gen 1", "example: tool.request with traceparent", "gen1-v0.0.2", "tool.request.json", "ToolRequest", false],
      ["a Gen 2 capacity tool.reply fails Gen 1 (code)", "example: tool.reply capacity refusal", "gen1-v0.0.3", "tool.reply.json", "ToolReply", false],
      ["a Gen 2 event.text is not a valid Gen 1 event", "Gen 2 event.text", "gen1-v0.0.3", "event.json", "Event", false],
      ["a Gen 1 …v1.event does not match Gen 2's event.json fallback", "Gen 1 event text", "gen2", "event.json", "EventUnknownKind", false],
      ["a result with suspended fails v0.0.2", "Gen 1-shaped result suspended", "gen1-v0.0.2", "result.json", "Result", false],
      ["a result with suspended passes v0.0.3", "Gen 1-shaped result suspended", "gen1-v0.0.3", "result.json", "Result", true],
      ["the same Gen 2 discovery reply passes Gen 2", "example: discovery.reply (tools and prompts)", "gen2", "discovery.reply.json", "DiscoveryReply", true],
    ];
    it.each(checks)("%s", (_what, name, gen, file, definition, valid) => {
      const message = byName(name);
      expect(upstream[gen].validator.valid(UPSTREAM_BASE + file, message)).toBe(valid);
      expect(compiler.check(packFor(gen), definition, message).length === 0).toBe(valid);
    });
  });
});
