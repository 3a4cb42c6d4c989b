import { nearestNames, type NearName } from "../../validation/near-miss.ts";
import { RecentStrings } from "../../validation/recent-strings.ts";
import type { Candidate, MessageKind, Recognition, SchemaPack, VersionBasis } from "../../validation/types.ts";
import type { McpVersion } from "./versions.ts";

/** Why one version is preferred for a message: what pinned it, in plain words. */
export interface VersionHint {
  readonly version: McpVersion;
  /** e.g. "agreed by initialize", "declared in params._meta". */
  readonly why: string;
  /** The message's own declaration, the batch's agreement, or only a sign in its shape. */
  readonly basis: VersionBasis;
}

/** The request, notification and result kind ids a method has in some version, null where none has it. */
export interface MethodKinds {
  readonly request: string | null;
  readonly notification: string | null;
  readonly result: string | null;
}

/** Methods arrive from traffic, so the per-method table is cleared when it grows this large. */
const MAX_METHODS = 1024;

/** How far below the pinned version the others score, so a pin is decisive but not absolute. */
const OFF_PIN = 0.35;
/** Newer versions score slightly higher when nothing pins one, so the newest that validates wins. */
const PER_VERSION = 0.01;
/**
 * Turns "this looks like kind K, for these reasons" into scored candidates across every version
 * that defines K. Lists are cached by kind, score, reason and hint (hints are interned, see
 * `hint`), so recognising a message usually allocates nothing.
 */
export class CandidateFactory {
  readonly #packs: readonly SchemaPack[];
  readonly #kinds: readonly ReadonlyMap<string, MessageKind>[];
  readonly #cache = new Map<string, Map<number, Map<string, Map<VersionHint | null, readonly Candidate[]>>>>();
  readonly #hints = new Map<string, VersionHint>();
  readonly #merged = new WeakMap<readonly Candidate[], Map<readonly Candidate[], readonly Candidate[]>>();
  readonly #methods = new Map<string, MethodKinds>();
  readonly #calls = new Map<string, Map<VersionHint | null, (Recognition | undefined)[]>>();
  /** The last few methods' entries of #calls: see RecentStrings. */
  readonly #recentCalls = new RecentStrings<Map<VersionHint | null, (Recognition | undefined)[]>>();
  readonly #callsOf = (method: string) => this.#calls.get(method);
  /** Every method some version defines, for "did you mean". */
  readonly #methodNames: readonly string[];
  readonly #near = new Map<string, readonly NearName[]>();

  constructor(packs: readonly SchemaPack[]) {
    this.#packs = packs;
    this.#kinds = packs.map((pack) => new Map(pack.kinds.map((kind) => [kind.id, kind])));
    const names = new Set<string>();
    for (const kinds of this.#kinds) for (const id of kinds.keys()) names.add(kindMethod(id) ?? "");
    names.delete("");
    this.#methodNames = [...names];
  }

  /** The one hint object for a version, reason and basis, so hints can key caches by identity. */
  hint(version: McpVersion, why: string, basis: VersionBasis): VersionHint {
    const key = `${version} ${why} ${basis}`;
    let found = this.#hints.get(key);
    if (!found) this.#hints.set(key, (found = { version, why, basis }));
    return found;
  }

  /** The MCP methods a name not defined by MCP is a near miss of, nearest first; bounded like the method table. */
  nearMethods(method: string): readonly NearName[] {
    let found = this.#near.get(method);
    if (!found) {
      if (this.#near.size >= MAX_METHODS) this.#near.clear();
      this.#near.set(method, (found = nearestNames(method, this.#methodNames)));
    }
    return found;
  }

  /** Whether any version has a kind with this id. */
  has(kindId: string): boolean {
    return this.#kinds.some((kinds) => kinds.has(kindId));
  }

  /** A method's kind ids, looked up once per method: recognising a call then builds no strings. */
  methodKinds(method: string): MethodKinds {
    let found = this.#methods.get(method);
    if (!found) {
      if (this.#methods.size >= MAX_METHODS) this.#methods.clear();
      const kind = (role: string): string | null => (this.has(`${method}:${role}`) ? `${method}:${role}` : null);
      found = { request: kind("request"), notification: kind("notification"), result: kind("result") };
      this.#methods.set(method, found);
    }
    return found;
  }

  /**
   * A call's recognition, remembered by method, hint (from `hint()` or null) and a small shape
   * number the caller derives from the message; undefined until `rememberCall` stores one.
   */
  recalledCall(method: string, hint: VersionHint | null, shape: number): Recognition | undefined {
    return this.#recentCalls.through(method, this.#callsOf)?.get(hint)?.[shape];
  }

  /** Stores a call's recognition; methods come from traffic, so the table is cleared when it grows too large. */
  rememberCall(method: string, hint: VersionHint | null, shape: number, recognition: Recognition): void {
    let byHint = this.#calls.get(method);
    if (!byHint) {
      if (this.#calls.size >= MAX_METHODS) {
        this.#calls.clear();
        this.#recentCalls.clear();
      }
      this.#calls.set(method, (byHint = new Map()));
    }
    let shapes = byHint.get(hint);
    if (!shapes) byHint.set(hint, (shapes = []));
    shapes[shape] = recognition;
  }

  /** Whether `version` has a kind with this id. */
  hasIn(kindId: string, version: McpVersion): boolean {
    const index = this.#packs.findIndex((pack) => pack.version === version);
    return index >= 0 && (this.#kinds[index]?.has(kindId) ?? false);
  }

  /**
   * Candidates for `kindId` with `base` as the best score. `reason` must come from a bounded set
   * of phrases (it keys the cache), and `hint` must come from `hint()` or be null.
   */
  make(kindId: string, base: number, reason: string, hint: VersionHint | null): readonly Candidate[] {
    let byBase = this.#cache.get(kindId);
    if (!byBase) this.#cache.set(kindId, (byBase = new Map()));
    let byReason = byBase.get(base);
    if (!byReason) byBase.set(base, (byReason = new Map()));
    let byHint = byReason.get(reason);
    if (!byHint) byReason.set(reason, (byHint = new Map()));
    let made = byHint.get(hint);
    if (!made) byHint.set(hint, (made = this.#build(kindId, base, reason, hint)));
    return made;
  }

  /** Two cached lists as one, best first; the result is cached too. */
  merge(first: readonly Candidate[], second: readonly Candidate[]): readonly Candidate[] {
    let bySecond = this.#merged.get(first);
    if (!bySecond) this.#merged.set(first, (bySecond = new Map()));
    let merged = bySecond.get(second);
    if (!merged) bySecond.set(second, (merged = [...first, ...second].sort((a, b) => b.score - a.score)));
    return merged;
  }

  /** Candidates as `make` builds them, without caching: for evidence that names the message's own text. */
  build(kindId: string, base: number, reason: string, hint: VersionHint | null): Candidate[] {
    return this.#build(kindId, base, reason, hint);
  }

  #build(kindId: string, base: number, reason: string, hint: VersionHint | null): Candidate[] {
    const pinnedHere = hint !== null && this.hasIn(kindId, hint.version);
    const out: Candidate[] = [];
    let rank = 0;
    for (let i = this.#packs.length - 1; i >= 0; i--) {
      const pack = this.#packs[i];
      const kind = this.#kinds[i]?.get(kindId);
      if (!pack || !kind) continue;
      const evidence = [reason];
      let score: number;
      let basis: VersionBasis | undefined;
      if (pinnedHere && hint.version === pack.version) {
        score = base;
        basis = hint.basis === "evidence" ? undefined : hint.basis;
        evidence.push(`version ${hint.version} ${hint.why}`);
      } else if (pinnedHere) {
        score = base - OFF_PIN - PER_VERSION * rank;
        evidence.push(`version ${hint.version} ${hint.why}, not ${pack.version}`);
      } else if (hint !== null) {
        score = base - 0.1 - PER_VERSION * rank;
        evidence.push(`version ${hint.version} ${hint.why}, but it does not define this`);
      } else {
        score = base - PER_VERSION * rank;
        evidence.push("no version pinned yet: newer versions are tried first");
      }
      const rounded = Math.max(0.01, Math.round(score * 1000) / 1000);
      out.push(basis ? { pack, kind, score: rounded, evidence, basis } : { pack, kind, score: rounded, evidence });
      rank++;
    }
    return out;
  }
}

/** By kind id (ids come from the packs, so the table stays small); null for a kind with no method. */
const KIND_METHODS = new Map<string, string | null>();

/** The method of a request or notification kind id (`tools/call:request`), undefined for other kinds. */
export function kindMethod(kindId: string): string | undefined {
  let method = KIND_METHODS.get(kindId);
  if (method === undefined) {
    method = null;
    for (const suffix of [":request", ":notification"]) if (method === null && kindId.endsWith(suffix)) method = kindId.slice(0, -suffix.length);
    KIND_METHODS.set(kindId, method);
  }
  return method ?? undefined;
}
