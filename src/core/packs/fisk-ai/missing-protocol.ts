import { declaredMembers } from "../../schema/declared-members.ts";
import type { Candidate, MessageKind, Recognition, SchemaPack } from "../../validation/types.ts";
import { FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2 } from "./build-pack.ts";

/**
 * A fisk-ai message whose `protocol` is missing has lost its discriminator, but
 * its header (request, conversation, sequence, time, sender...) still says fisk-ai, and its own
 * members say which kind it was. It is judged as that kind, so the verdict names the protocol
 * field as the fault instead of recognising nothing.
 */

/** Header members no other family's message has (`id` and `protocol` are not among them). */
const HEADER_SIGNS = ["request", "conversation", "sequence", "time", "sender", "recipient", "parent", "must_understand", "traceparent"] as const;
const HEADER: ReadonlySet<string> = new Set<string>([...HEADER_SIGNS, "id", "protocol"]);
/** This many header members make a message without a protocol plainly fisk-ai's; fewer, down to WEAK_SIGNS, only hint at it. */
const STRONG_SIGNS = 5;
const WEAK_SIGNS = 3;
const STRONG_SCORE = 0.8;
/** Below the recognition floor: the verdict stays "unrecognised", with the issues of the guess. */
const WEAK_SCORE = 0.25;
const KINDS_PER_PACK = 2;

interface KindMembers {
  readonly pack: SchemaPack;
  readonly kind: MessageKind;
  /** The kind's own members, the header's left out. */
  readonly own: ReadonlySet<string>;
}

let table: readonly KindMembers[] | undefined;

/** Every specific kind of every generation with its own members, worked out once from the packs' schemas. */
function kindMembers(): readonly KindMembers[] {
  table ??= [FISK_AI_GEN2, FISK_AI_GEN1_V003, FISK_AI_GEN1_V002].flatMap((pack) =>
    pack.kinds
      .filter((kind) => !kind.id.includes("*"))
      .map((kind) => ({ pack, kind, own: new Set([...(declaredMembers(pack, kind.definition)?.names() ?? [])].filter((n) => !HEADER.has(n))) })),
  );
  return table;
}

function headerSigns(value: Record<string, unknown>): number {
  let signs = 0;
  for (const name of HEADER_SIGNS) if (name in value) signs++;
  return signs;
}

/** How well a kind's own members fit the value's: more shared first, then fewer foreign, then the smaller kind. */
function fit(entry: KindMembers, members: readonly string[]): readonly [number, number, number] {
  let shared = 0;
  for (const name of members) if (entry.own.has(name)) shared++;
  return [shared, members.length - shared, entry.own.size];
}

const better = (a: readonly number[], b: readonly number[]): number => b[0]! - a[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/**
 * Candidates for a value with the fisk-ai header and no protocol member (the caller has read it);
 * null without that header. A protocol of the wrong type is not for here: it names no kind, and
 * such a message stays unclassified, as upstream's schemas (keyed by protocol id) leave it.
 */
export function missingProtocolRecognition(value: Record<string, unknown>): Recognition | null {
  // Most values here are other families' messages: two reads tell nearly all of them apart.
  if (!("conversation" in value) && !("sender" in value)) return null;
  const signs = headerSigns(value);
  if (signs < WEAK_SIGNS) return null;
  const members = Object.keys(value).filter((n) => !HEADER.has(n));
  const base = signs >= STRONG_SIGNS ? STRONG_SCORE : WEAK_SCORE;
  const said = "no protocol field";
  const shown = HEADER_SIGNS.filter((n) => n in value).join(", ");
  const candidates: Candidate[] = [];
  const packs = [FISK_AI_GEN2, FISK_AI_GEN1_V003, FISK_AI_GEN1_V002];
  packs.forEach((pack, p) => {
    const ranked = kindMembers()
      .filter((e) => e.pack === pack)
      .map((e) => ({ e, score: fit(e, members) }))
      .sort((a, b) => better(a.score, b.score))
      .slice(0, KINDS_PER_PACK);
    ranked.forEach(({ e }, k) => {
      const evidence = [`${said}, but the fisk-ai header (${shown})`, `its own members fit ${e.kind.id} best`];
      candidates.push({ pack, kind: e.kind, score: Math.round((base - 0.01 * p - 0.03 * k) * 100) / 100, evidence });
    });
  });
  return { candidates: candidates.sort((a, b) => b.score - a.score) };
}
