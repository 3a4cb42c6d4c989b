import { isJsonObject } from "../../json/index.ts";
import { RecentStrings } from "../../validation/recent-strings.ts";
import type { Candidate, MessageKind, Recognition, SchemaPack, VersionBasis } from "../../validation/types.ts";
import { FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2 } from "./build-pack.ts";
import { missingProtocolRecognition } from "./missing-protocol.ts";
import { EVENT_PREFIX, eventKindOf, GEN1_KINDS, GEN1_ONLY_IDS, GEN2_KINDS, UNKNOWN_EVENT_KIND } from "./protocol.ts";

/**
 * Recognition reads the `protocol` field, the fisk-ai discriminator, and maps it to a kind. The id
 * alone decides the generation for ids only one generation uses; for shared ids a Gen 2-only field
 * pins Gen 2, and otherwise both generations are offered with Gen 2 slightly ahead.
 */

/** Which generation earlier messages of the batch pointed at, if any. */
export type GenerationHint = "gen1" | "gen2" | null;

const FAMILY_PREFIX = "io.choria.fisk-ai.";
const TOP = 0.95;
const PINNED_AWAY = 0.6;
const UNKNOWN_EVENT_SCORE = 0.9;
const MALFORMED_EVENT_SCORE = 0.2;

interface Entry {
  /** The Gen 1 kind id; each Gen 1 pack supplies its own kind object for it. */
  readonly gen1: MessageKind | null;
  readonly gen2: MessageKind | null;
  readonly idEvidence: string;
  /** The recognitions when the message carries no evidence of its generation, with none hinted and with Gen 1 hinted; set once, below. */
  unpinned?: Recognition;
  gen1Leaning?: Recognition;
}

function findKind(pack: SchemaPack, id: string): MessageKind {
  const found = pack.kinds.find((k) => k.id === id);
  if (!found) throw new Error(`${pack.id} has no kind ${id}`);
  return found;
}

const TABLE = new Map<string, Entry>();
for (const spec of [...GEN1_KINDS, ...GEN2_KINDS]) {
  if (!spec.protocol || TABLE.has(spec.protocol)) continue;
  const inGen1 = GEN1_KINDS.includes(spec);
  const inGen2 = GEN2_KINDS.includes(spec);
  const only = inGen1 && !inGen2 ? " (a Gen 1 id; Gen 2 uses it only as a prefix)" : !inGen1 ? " (a Gen 2 id)" : "";
  TABLE.set(spec.protocol, {
    gen1: inGen1 ? findKind(FISK_AI_GEN1_V003, spec.id) : null,
    gen2: inGen2 ? findKind(FISK_AI_GEN2, spec.id) : null,
    idEvidence: `protocol is "${spec.protocol}"${only}`,
  });
}
const UNKNOWN_EVENT = findKind(FISK_AI_GEN2, UNKNOWN_EVENT_KIND.id);

/** The protocol ids of the last few messages, null for one fisk-ai does not name: see RecentStrings. */
const RECENT_IDS = new RecentStrings<Entry | null>();

const tableEntry = (protocol: string): Entry | null => TABLE.get(protocol) ?? null;

function entryOf(protocol: string): Entry | undefined {
  return RECENT_IDS.through(protocol, tableEntry) ?? undefined;
}

function candidate(pack: SchemaPack, kind: MessageKind, score: number, evidence: readonly string[], basis?: VersionBasis): Candidate {
  // Scores step by 0.01; rounding keeps them exact for comparison and display.
  const made: Candidate = { pack, kind, score: Math.round(score * 100) / 100, evidence };
  return basis ? { ...made, basis } : made;
}

const V002_KINDS = new Map(FISK_AI_GEN1_V002.kinds.map((k) => [k.id, k]));

/** Both Gen 1 packs, v0.0.3 first (newer), each with its own kind object. */
function gen1Pair(kind: MessageKind, top: number, evidence: readonly string[]): Candidate[] {
  const older = V002_KINDS.get(kind.id) ?? kind;
  return [candidate(FISK_AI_GEN1_V003, kind, top, evidence), candidate(FISK_AI_GEN1_V002, older, top - 0.01, evidence)];
}

const has = (value: unknown, key: string): boolean => isJsonObject(value) && key in value;
const USAGE_GEN2 = ["cache_read_tokens", "cache_create_tokens", "thinking_tokens", "llm_calls", "tool_calls"];

/** A field only Gen 2 defines, named in plain words, or null. A few property reads at most. */
function gen2Evidence(kindId: string, value: Record<string, unknown>): string | null {
  if ("traceparent" in value) return "has traceparent (a Gen 2 header field)";
  switch (kindId) {
    case "discovery.reply": {
      for (const key of ["model", "telemetry", "telemetry_content"]) if (key in value) return `has ${key} (Gen 2 card field)`;
      const tools = value.tools;
      if (Array.isArray(tools) && tools.some((t) => has(t, "behavior"))) return "a tool declares behavior (Gen 2)";
      return null;
    }
    case "tool.reply":
      return "code" in value ? "has code (Gen 2 capacity refusal)" : null;
    case "ack":
      for (const key of ["conversation_token", "max_tokens"]) if (key in value) return `has ${key} (Gen 2 task path)`;
      return null;
    case "result":
    case "error": {
      for (const key of ["trace_id", "content_exported"]) if (key in value) return `has ${key} (Gen 2 telemetry)`;
      if (kindId === "error" && "usage" in value) return "error carries usage (Gen 2)";
      const usage = value.usage;
      if (isJsonObject(usage)) for (const key of USAGE_GEN2) if (key in usage) return `usage has ${key} (Gen 2)`;
      return null;
    }
    default:
      return null;
  }
}

/** Shared-id recognitions with no evidence, built once per id: this is the common path. */
const UNPINNED_NOTE = "nothing in the message tells Gen 1 from Gen 2; Gen 2 preferred";
const HINT_NOTE = "earlier messages in this batch used Gen 1 ids";
for (const entry of TABLE.values()) {
  if (entry.gen1 && entry.gen2) {
    entry.unpinned = {
      candidates: [candidate(FISK_AI_GEN2, entry.gen2, TOP, [entry.idEvidence, UNPINNED_NOTE]), ...gen1Pair(entry.gen1, TOP - 0.01, [entry.idEvidence, UNPINNED_NOTE])],
    };
    entry.gen1Leaning = {
      candidates: [...gen1Pair(entry.gen1, TOP, [entry.idEvidence, HINT_NOTE]), candidate(FISK_AI_GEN2, entry.gen2, TOP - 0.02, [entry.idEvidence, HINT_NOTE])],
    };
  } else if (entry.gen2) {
    // An id only Gen 2 has declares the generation by itself.
    entry.unpinned = { candidates: [candidate(FISK_AI_GEN2, entry.gen2, TOP, [entry.idEvidence], "declared")] };
  } else if (entry.gen1) {
    entry.unpinned = { candidates: gen1Pair(entry.gen1, TOP, [entry.idEvidence]) };
  }
}

function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `the ${typeof v} ${String(v)}`;
}

function recogniseId(protocol: string, value: Record<string, unknown>, hint: GenerationHint): Recognition | null {
  const entry = entryOf(protocol);
  if (!entry) return null;
  if (entry.gen1 && entry.gen2) {
    const why = gen2Evidence(entry.gen2.id, value);
    if (why) {
      const evidence = [entry.idEvidence, why];
      return { candidates: [candidate(FISK_AI_GEN2, entry.gen2, TOP, evidence), ...gen1Pair(entry.gen1, PINNED_AWAY, evidence)] };
    }
    return (hint === "gen1" ? entry.gen1Leaning : entry.unpinned) ?? null;
  }
  if (entry.gen1 && entry.gen1.id === "event" && isJsonObject(value.block) && typeof value.block.type === "string") {
    return { candidates: gen1Pair(entry.gen1, TOP, [entry.idEvidence, `block "type" is "${value.block.type}" (the Gen 1 block discriminator)`]) };
  }
  return entry.unpinned ?? null;
}

// Most values in a mixed capture are not fisk-ai: answer them without allocating.
const NOT_OBJECT: Recognition = { candidates: [], reason: "not a JSON object, so not a fisk-ai message" };
const NO_PROTOCOL: Recognition = { candidates: [], reason: "no fisk-ai protocol field" };

/** What a value is, as far as fisk-ai can tell from its `protocol` field. */
export function recogniseFiskAi(value: unknown, hint: GenerationHint): Recognition {
  if (!isJsonObject(value)) return NOT_OBJECT;
  const protocol = value.protocol;
  if (typeof protocol !== "string") {
    if (protocol === undefined) return missingProtocolRecognition(value) ?? NO_PROTOCOL;
    return { candidates: [], reason: `the protocol field is ${describeValue(protocol)}, not a fisk-ai protocol id string` };
  }
  const known = recogniseId(protocol, value, hint);
  if (known) return known;
  const eventKind = eventKindOf(protocol);
  if (eventKind !== null) {
    const evidence = [`protocol "${protocol}" is an event of a kind fisk-ai does not name ("${eventKind}"); kept and checked on its framing only`];
    return { candidates: [candidate(FISK_AI_GEN2, UNKNOWN_EVENT, UNKNOWN_EVENT_SCORE, evidence)] };
  }
  if (protocol.startsWith(EVENT_PREFIX)) {
    const kind = protocol.slice(EVENT_PREFIX.length);
    const evidence = [`protocol "${protocol}" looks like an event, but its kind "${kind}" is not a single non-empty segment`];
    return { candidates: [candidate(FISK_AI_GEN2, UNKNOWN_EVENT, MALFORMED_EVENT_SCORE, evidence)] };
  }
  if (protocol.startsWith(FAMILY_PREFIX)) return { candidates: [], reason: `unknown fisk-ai protocol id "${protocol}"` };
  return { candidates: [], reason: `protocol "${protocol}" is not a fisk-ai id (io.choria.fisk-ai.v1.…)` };
}

function computeGeneration(pack: SchemaPack, kindId: string): GenerationHint {
  const gen1 = pack.id !== FISK_AI_GEN2.id;
  const onlyHere = gen1 ? GEN1_ONLY_IDS.has(`io.choria.fisk-ai.v1.${kindId}`) : !GEN1_KINDS.some((k) => k.id === kindId);
  if (!onlyHere) return null;
  return gen1 ? "gen1" : "gen2";
}

/** Answers by pack and kind id, worked out once: the session asks after every valid message. */
const GENERATION_OF_KIND = new Map<SchemaPack, Map<string, GenerationHint>>();

/** Whether a kind id exists only in Gen 1 or only in Gen 2, for the session's batch hint. */
export function generationOfKind(pack: SchemaPack, kindId: string): GenerationHint {
  let byKind = GENERATION_OF_KIND.get(pack);
  if (!byKind) GENERATION_OF_KIND.set(pack, (byKind = new Map()));
  let hint = byKind.get(kindId);
  if (hint === undefined) byKind.set(kindId, (hint = computeGeneration(pack, kindId)));
  return hint;
}
