import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { A2A_PACKS, a2aFamily } from "../../src/core/packs/a2a/index.ts";
import { V1_METHODS } from "../../src/core/packs/a2a/v1-0.ts";
import { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import { ValidationEngine } from "../../src/core/validation/engine.ts";
import type { SchemaPack, Verdict } from "../../src/core/validation/types.ts";
import { describeWithReference, readReferenceJson, referenceValidator, type ReferenceValidator } from "../helpers/reference.ts";

/**
 * Every message of the A2A corpus is validated by the project's pack and by the upstream schema
 * at the matching definition; the verdicts must agree, except for the deliberate differences
 * listed below. The engine then classifies the corpus as one batch per version and must name
 * each message's kind and verdict, with exactly the expected rule issues.
 */

type Expect = "valid" | "invalid";

interface CorpusEntry {
  readonly name: string;
  readonly kind: string;
  readonly schema: Expect;
  readonly rules?: readonly string[];
  readonly warnings?: readonly string[];
  readonly message: unknown;
}

interface Corpus {
  readonly pack: string;
  readonly messages: readonly CorpusEntry[];
}

const CORPUS_FILES = ["v0.1.0.json", "v0.2.json", "v0.3.0.json", "v1.0.json"];

function loadCorpus(file: string): Corpus {
  return JSON.parse(readFileSync(new URL(`../corpus/a2a/${file}`, import.meta.url), "utf8")) as Corpus;
}

/** Where upstream disagrees on purpose: pack, corpus entry, upstream's verdict, why. */
const DIFFERENCES: readonly { pack: string; entry: string; upstream: Expect; reason: string }[] = [
  {
    pack: "a2a/v0.1.0",
    entry: "parse error answered with a null id",
    upstream: "invalid",
    reason: "JSON-RPC 2.0 answers an unreadable request with id null; upstream v0.1 types ids as integer or string only (upstream allows null from v0.2.2).",
  },
  {
    pack: "a2a/v1.0",
    entry: "SendMessage request with snake_case members",
    upstream: "valid",
    reason: "Spec §5.5: JSON uses camelCase names. The generated schema also accepts the proto names (patternProperties) because ProtoJSON parsers do.",
  },
  {
    pack: "a2a/v1.0",
    entry: "card whose writer omitted empty modes and skills",
    upstream: "invalid",
    reason: "ProtoJSON writers omit empty repeated fields; a REQUIRED list left out reads as empty, so it is a warning (a2a.v1.omitted-default), not a failure.",
  },
  {
    pack: "a2a/v1.0",
    entry: "SendMessage request whose message omits empty parts",
    upstream: "invalid",
    reason: "As above: Message.parts left out by a ProtoJSON writer is a warning.",
  },
  {
    pack: "a2a/v1.0",
    entry: "ListTasks response: empty last page, defaults omitted",
    upstream: "invalid",
    reason: "As above: ProtoJSON omits an empty nextPageToken and zero pageSize/totalSize; warnings only.",
  },
  {
    pack: "a2a/v1.0",
    entry: "GetTask response with a state number the proto does not define",
    upstream: "valid",
    reason: "Enum numbers are accepted only for values TaskState defines (0-8); the generated schema accepts any int32.",
  },
];

/** v0.2 corpus against the other 0.2.x references: entries whose verdict differs from v0.2.6's, or whose definition is absent. */
type CrossVerdict = Expect | "absent";
const V02_RELEASES = ["v0.2.0", "v0.2.1", "v0.2.2", "v0.2.4", "v0.2.5"] as const;
type Release = (typeof V02_RELEASES)[number];
const before025 = (verdict: CrossVerdict): Partial<Record<Release, CrossVerdict>> => ({ "v0.2.0": verdict, "v0.2.1": verdict, "v0.2.2": verdict, "v0.2.4": verdict });
const CROSS_VERSION: Readonly<Record<string, Partial<Record<Release, CrossVerdict>>>> = {
  // Compared with each release's AgentCard: protocolVersion is required from v0.2.5.
  "card of v0.2.0 to v0.2.4, no protocolVersion": before025("valid"),
  "message/send request whose configuration omits acceptedOutputModes": { ...before025("invalid"), "v0.2.5": "invalid" },
  "message/send request without an id": { "v0.2.0": "valid", "v0.2.1": "valid" },
  "parse error answered with a null id": { "v0.2.0": "invalid", "v0.2.1": "invalid" },
  "tasks/pushNotificationConfig/list request": before025("absent"),
  "tasks/pushNotificationConfig/list response": before025("absent"),
  "tasks/pushNotificationConfig/delete request": before025("absent"),
  "tasks/pushNotificationConfig/delete response": before025("absent"),
  "tasks/pushNotificationConfig/delete request without the config id": before025("absent"),
};

interface Target {
  /** Our definition to compare on (the kind's, or the payload's for v1.0 envelopes). */
  readonly ours: string;
  /** Upstream's definition, or null when upstream has none. */
  readonly upstream: string | null;
  /** Where in the message the compared value is. */
  readonly pointer: "" | "/params" | "/result";
  /** A different upstream release to compare with, when the definition mirrors an older one. */
  readonly release?: string;
}

const V01_RENAMES: Readonly<Record<string, string>> = {
  SendTaskStatusUpdateResponse: "SendTaskStreamingResponse",
  SendTaskArtifactUpdateResponse: "SendTaskStreamingResponse",
  JSONRPCErrorResponse: "JSONRPCResponse",
};
const V02_RENAMES: Readonly<Record<string, string>> = {
  StatusUpdateStreamResponse: "SendStreamingMessageSuccessResponse",
  ArtifactUpdateStreamResponse: "SendStreamingMessageSuccessResponse",
};

function v1Target(definition: string): Target {
  for (const m of V1_METHODS) {
    if (definition === m.request) return { ours: m.params, upstream: m.params, pointer: "/params" };
    if (definition === m.result) return { ours: m.returns, upstream: m.returns === "Empty" ? null : m.returns, pointer: "/result" };
  }
  if (definition === "StreamResponseJsonRpcResponse") return { ours: "StreamResponse", upstream: "StreamResponse", pointer: "/result" };
  if (definition === "JsonRpcErrorResponse") return { ours: definition, upstream: null, pointer: "" };
  return { ours: definition, upstream: definition, pointer: "" };
}

function targetOf(pack: SchemaPack, definition: string): Target {
  if (pack.id === "a2a/v1.0") return v1Target(definition);
  if (pack.id === "a2a/v0.1.0") return { ours: definition, upstream: V01_RENAMES[definition] ?? definition, pointer: "" };
  if (definition === "AgentCardBefore025") return { ours: definition, upstream: "AgentCard", pointer: "", release: "v0.2.4" };
  return { ours: definition, upstream: V02_RENAMES[definition] ?? definition, pointer: "" };
}

function at(message: unknown, pointer: Target["pointer"]): unknown {
  if (pointer === "") return message;
  const key = pointer.slice(1);
  return typeof message === "object" && message !== null ? (message as Record<string, unknown>)[key] : undefined;
}

/** One upstream release, loaded for ajv under an $id of its own. */
interface Upstream {
  readonly validator: ReferenceValidator;
  readonly ref: (definition: string) => string;
  readonly has: (definition: string) => boolean;
}

function loadUpstream(dir: string, release: string, file: string, draft: "draft-07" | "2020-12"): Upstream {
  const doc = readReferenceJson(dir, "a2a", release, file) as Record<string, unknown>;
  const id = typeof doc.$id === "string" ? doc.$id : `urn:patchbay-reference:a2a:${release}`;
  const container = "$defs" in doc ? "$defs" : "definitions";
  const defs = doc[container] as Record<string, unknown>;
  return {
    validator: referenceValidator([{ ...doc, $id: id }], draft, false),
    ref: (definition) => `${id}#/${container}/${definition}`,
    has: (definition) => definition in defs,
  };
}

const UPSTREAM_FILES: Readonly<Record<string, { release: string; file: string; draft: "draft-07" | "2020-12" }>> = {
  "a2a/v0.1.0": { release: "v0.1.0", file: "a2a.json", draft: "draft-07" },
  "a2a/v0.2": { release: "v0.2.6", file: "a2a.json", draft: "draft-07" },
  "a2a/v0.3.0": { release: "v0.3.0", file: "a2a.json", draft: "draft-07" },
  "a2a/v1.0": { release: "v1.0", file: "a2a.v1.resolved.json", draft: "2020-12" },
};

function packOf(id: string): SchemaPack {
  const pack = A2A_PACKS.find((p) => p.id === id);
  if (!pack) throw new Error(`no pack ${id}`);
  return pack;
}

function kindDefinition(pack: SchemaPack, kindId: string): string {
  const kind = pack.kinds.find((k) => k.id === kindId);
  if (!kind) throw new Error(`${pack.id} has no kind ${kindId}`);
  return kind.definition;
}

const compiler = new SchemaCompiler();
const sizes = CORPUS_FILES.map((file) => {
  const corpus = loadCorpus(file);
  const valid = corpus.messages.filter((m) => m.schema === "valid" && !m.rules?.length).length;
  return `${corpus.pack}: ${corpus.messages.length} messages (${valid} valid or error responses, ${corpus.messages.length - valid} invalid)`;
});

describeWithReference("A2A packs agree with the upstream schemas", (dir) => {
  const upstream = new Map<string, Upstream>();
  const upstreamFor = (release: string): Upstream => {
    let found = upstream.get(release);
    if (!found) {
      const files = Object.values(UPSTREAM_FILES).find((f) => f.release === release) ?? { release, file: "a2a.json", draft: "draft-07" as const };
      found = loadUpstream(dir, release, files.file, files.draft);
      upstream.set(release, found);
    }
    return found;
  };

  for (const file of CORPUS_FILES) {
    const corpus = loadCorpus(file);
    const pack = packOf(corpus.pack);
    const main = UPSTREAM_FILES[pack.id]!;

    describe(`${pack.label} corpus (${corpus.messages.length} messages) against upstream ${main.release}`, () => {
      for (const entry of corpus.messages) {
        it(entry.name, () => {
          const definition = kindDefinition(pack, entry.kind);
          const ours = compiler.check(pack, definition, entry.message).length === 0;
          expect(ours, `our ${definition}: ${JSON.stringify(compiler.firstIssue(pack, definition, entry.message))}`).toBe(entry.schema === "valid");
          const target = targetOf(pack, definition);
          const value = at(entry.message, target.pointer);
          if (target.upstream === null || value === undefined) return;
          const reference = upstreamFor(target.release ?? main.release);
          const oursOnTarget = compiler.isValid(pack, target.ours, value);
          const theirs = reference.validator.valid(reference.ref(target.upstream), value);
          const difference = DIFFERENCES.find((d) => d.pack === pack.id && d.entry === entry.name);
          if (difference) {
            expect(theirs, `upstream verdict (${difference.reason})`).toBe(difference.upstream === "valid");
            expect(oursOnTarget, "a listed difference must still differ").toBe(!theirs);
          } else {
            expect(theirs, `upstream ${target.upstream} at "${target.pointer}": ${reference.validator.lastErrors()}`).toBe(oursOnTarget);
          }
        });
      }
    });

    if (pack.id === "a2a/v0.2") {
      describe("v0.2 corpus against the other 0.2.x releases", () => {
        for (const release of V02_RELEASES) {
          it(release, () => {
            const reference = upstreamFor(release);
            const v026 = upstreamFor("v0.2.6");
            for (const entry of corpus.messages) {
              const definition = kindDefinition(pack, entry.kind);
              const name = definition === "AgentCardBefore025" ? "AgentCard" : (V02_RENAMES[definition] ?? definition);
              const expected = CROSS_VERSION[entry.name]?.[release] ?? (v026.validator.valid(v026.ref(name), entry.message) ? "valid" : "invalid");
              if (expected === "absent") {
                expect(reference.has(name), `${entry.name}: ${name} in ${release}`).toBe(false);
                continue;
              }
              const verdict = reference.validator.valid(reference.ref(name), entry.message) ? "valid" : "invalid";
              expect(verdict, `${entry.name} against ${release} ${name}: ${reference.validator.lastErrors()}`).toBe(expected);
            }
          });
        }
      });
    }
  }

  it("lists no difference that names a missing corpus entry", () => {
    const names = new Set(CORPUS_FILES.flatMap((f) => loadCorpus(f).messages.map((m) => `${loadCorpus(f).pack}\u0000${m.name}`)));
    for (const d of DIFFERENCES) expect(names.has(`${d.pack}\u0000${d.entry}`), d.entry).toBe(true);
    const v02 = new Set(loadCorpus("v0.2.json").messages.map((m) => m.name));
    for (const entry of Object.keys(CROSS_VERSION)) expect(v02.has(entry), entry).toBe(true);
  });
});

function ruleIds(verdict: Verdict, severity: "error" | "warning"): string[] {
  return verdict.issues.filter((i) => i.source === "rule" && i.severity === severity).map((i) => i.rule ?? "").sort();
}

describe("the engine classifies the A2A corpus", () => {
  const engine = new ValidationEngine([a2aFamily], compiler);
  for (const file of CORPUS_FILES) {
    const corpus = loadCorpus(file);
    it(`${corpus.pack}: every message gets its kind, verdict and rule issues`, () => {
      const session = engine.session();
      for (const entry of corpus.messages) {
        const verdict = session.validateValue(entry.message, { text: JSON.stringify(entry.message) });
        const role = packOf(corpus.pack).kinds.find((k) => k.id === entry.kind)?.role;
        const failed = entry.schema === "invalid" || (entry.rules?.length ?? 0) > 0;
        const status = failed ? "invalid" : role === "error" ? "error-response" : "valid";
        const seen = { pack: verdict.packId, kind: verdict.kindId, status: verdict.status };
        expect(seen, `${entry.name}: ${JSON.stringify(verdict.issues.slice(0, 3))} ${verdict.evidence.join("; ")}`).toEqual({
          pack: corpus.pack,
          kind: entry.kind,
          status,
        });
        expect(ruleIds(verdict, "error"), `${entry.name}: rule errors`).toEqual([...(entry.rules ?? [])].sort());
        expect(ruleIds(verdict, "warning"), `${entry.name}: rule warnings`).toEqual([...(entry.warnings ?? [])].sort());
      }
    });
  }
});

afterAll(() => {
  console.log(`A2A corpus sizes:\n  ${sizes.join("\n  ")}`);
});
