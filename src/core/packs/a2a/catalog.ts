import type { Candidate, MessageKind, SchemaPack, VersionBasis } from "../../validation/types.ts";
import { requestKindId, resultKindId, type MethodSpec } from "./pack-kit.ts";
import { A2A_V01, V01_METHODS } from "./v0-1.ts";
import { A2A_V02 } from "./v0-2.ts";
import { v02Methods } from "./v0-2-envelopes.ts";
import { A2A_V03 } from "./v0-3.ts";
import { A2A_V10, V1_METHODS } from "./v1-0.ts";

/** Lookup tables over the A2A packs, built once, so recognition is a few map reads. */

/** The three wire dialects: Google A2A, kind-discriminated JSON-RPC, ProtoJSON. */
export type Generation = "v0.1" | "v0.2+" | "v1.0";

export const GENERATION = new Map<SchemaPack, Generation>([
  [A2A_V01, "v0.1"],
  [A2A_V02, "v0.2+"],
  [A2A_V03, "v0.2+"],
  [A2A_V10, "v1.0"],
]);

/** Newest first: among equal guesses the newest version is tried first. */
export const NEWEST_FIRST: readonly SchemaPack[] = [A2A_V10, A2A_V03, A2A_V02, A2A_V01];
export const V02_PLUS: readonly SchemaPack[] = [A2A_V03, A2A_V02];

const METHODS = new Map<SchemaPack, readonly MethodSpec[]>([
  [A2A_V01, V01_METHODS],
  [A2A_V02, v02Methods({ v03: false })],
  [A2A_V03, v02Methods({ v03: true })],
  [A2A_V10, V1_METHODS],
]);

export interface MethodEntry {
  readonly pack: SchemaPack;
  readonly spec: MethodSpec;
}

/** Method name → the packs that define it, newest first. */
export const METHOD_INDEX = new Map<string, MethodEntry[]>();
/** Each pack's request and result kind ids → their method (the first spec of a name wins). */
const ENTRY_OF_KIND = new Map<SchemaPack, Map<string, MethodEntry>>();
for (const pack of NEWEST_FIRST) {
  const byKind = new Map<string, MethodEntry>();
  for (const spec of METHODS.get(pack) ?? []) {
    const entry: MethodEntry = { pack, spec };
    const list = METHOD_INDEX.get(spec.method) ?? [];
    list.push(entry);
    METHOD_INDEX.set(spec.method, list);
    for (const kindId of [requestKindId(spec.method), resultKindId(spec.method)]) if (!byKind.has(kindId)) byKind.set(kindId, entry);
  }
  ENTRY_OF_KIND.set(pack, byKind);
}

/** The method a request or result kind belongs to, with its pack: one shared entry per method, so remembering a request allocates nothing. */
export function methodEntryOfKind(pack: SchemaPack, kindId: string): MethodEntry | undefined {
  return ENTRY_OF_KIND.get(pack)?.get(kindId);
}

/** The method a request kind belongs to, in its pack. */
export function methodOfKind(pack: SchemaPack, kindId: string): MethodSpec | undefined {
  return methodEntryOfKind(pack, kindId)?.spec;
}

const KINDS = new Map<SchemaPack, Map<string, MessageKind>>(NEWEST_FIRST.map((pack) => [pack, new Map(pack.kinds.map((k) => [k.id, k]))]));

/** The kind with this id in the pack; the tables are fixed, so a miss is a bug. */
export function kindOf(pack: SchemaPack, id: string): MessageKind {
  const found = KINDS.get(pack)?.get(id);
  if (!found) throw new Error(`${pack.id} has no kind "${id}"`);
  return found;
}

/** What earlier messages in the batch pinned: one pack, or one dialect. */
export interface Pinning {
  readonly pack: SchemaPack | null;
  readonly generation: Generation | null;
}

export const UNPINNED: Pinning = { pack: null, generation: null };

const GENERATIONS: readonly Generation[] = ["v0.1", "v0.2+", "v1.0"];
/** How many distinct values pinKey gives: no pack or one of four, times no generation or one of three. */
export const PIN_KEYS = (NEWEST_FIRST.length + 1) * (GENERATIONS.length + 1);

function keyOf(pack: SchemaPack | null, generation: Generation | null): number | null {
  const packIndex = pack === null ? 0 : NEWEST_FIRST.indexOf(pack) + 1;
  if (packIndex === 0 && pack !== null) return null;
  return packIndex * (GENERATIONS.length + 1) + (generation === null ? 0 : GENERATIONS.indexOf(generation) + 1);
}

/** A pinning by value as a small number below PIN_KEYS, for caches; null for a pack this catalog does not list. */
export function pinKey(pin: Pinning): number | null {
  return keyOf(pin.pack, pin.generation);
}

const PINNINGS = new Map<number, Pinning>();

/** The one pinning object for a pack and dialect, so a session switching dialects allocates nothing. */
export function pinning(pack: SchemaPack | null, generation: Generation | null): Pinning {
  const key = keyOf(pack, generation);
  if (key === null) return { pack, generation };
  let found = PINNINGS.get(key);
  if (!found) PINNINGS.set(key, (found = { pack, generation }));
  return found;
}

/** How far a version that contradicts the pinned one falls behind it. */
const PINNED_GAP = 0.35;
/** How far each older version trails the newer one when nothing decides between them. */
const NEWER_STEP = 0.01;

/**
 * Candidates for one kind across several packs (newest first) when the message itself does not
 * say which version it is: near-equal scores, newest highest, unless the batch pinned a version.
 */
export function ranked(packs: readonly SchemaPack[], kindId: string, base: number, evidence: readonly string[], pin: Pinning): Candidate[] {
  const out: Candidate[] = [];
  packs.forEach((pack, index) => {
    const step = index * NEWER_STEP;
    let score = base - step;
    let why = evidence;
    let negotiated = false;
    if (pin.pack) {
      if (pin.pack === pack) {
        why = [...evidence, `earlier messages in the batch are ${pack.label}`];
        negotiated = true;
      } else score -= PINNED_GAP;
    } else if (pin.generation) {
      if (GENERATION.get(pack) === pin.generation) why = [...evidence, `earlier messages in the batch use the ${pin.generation} dialect`];
      else score -= PINNED_GAP;
    }
    const candidate: Candidate = { pack, kind: kindOf(pack, kindId), score: Math.max(0.05, score), evidence: why };
    out.push(negotiated ? { ...candidate, basis: "negotiated" } : candidate);
  });
  return out;
}

/** One candidate whose version the message itself decides. */
export function decided(pack: SchemaPack, kindId: string, score: number, evidence: readonly string[], basis?: VersionBasis): Candidate {
  const candidate: Candidate = { pack, kind: kindOf(pack, kindId), score, evidence };
  return basis ? { ...candidate, basis } : candidate;
}
