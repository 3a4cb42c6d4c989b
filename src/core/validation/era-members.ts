import { covers, declaredMembers, type MemberShape } from "../schema/declared-members.ts";
import type { SchemaCompiler } from "../schema/compiler.ts";
import type { Candidate, Issue, MessageKind, SchemaPack } from "./types.ts";

/**
 * Members of another era. Schemas let unknown members through, so a message of one version
 * passes an older (or newer) version's schema with the members that version lacks ignored. When
 * the message declares its version, a member that version's definition does not declare but
 * another version's definition of the same kind does is an error at that member. When only its
 * shape points at a version, it is one only if no version the message passes declares all such
 * members: then the message mixes eras, and the schema issues of the version whose members it
 * uses say what it lacks there.
 */

/** What the era check needs of the engine: its compiler and a kind's versions, oldest first. */
export interface EraContext {
  readonly compiler: SchemaCompiler;
  versionsOf(family: string, kind: MessageKind): readonly { readonly pack: SchemaPack; readonly kind: MessageKind }[];
}

/** How the era check asks about other versions: a session passes the answers it already has for the message. */
export interface EraChecks {
  isValid(pack: SchemaPack, kind: MessageKind, value: unknown): boolean;
  issues(pack: SchemaPack, kind: MessageKind, value: unknown): Issue[];
}

/** Straight to the compiler, for a caller with nothing remembered. */
function compilerChecks(compiler: SchemaCompiler): EraChecks {
  return {
    isValid: (pack, kind, value) => compiler.isValid(pack, kind.definition, value),
    issues: (pack, kind, value) => compiler.check(pack, kind.definition, value),
  };
}

/**
 * Another version's definition of the kind, or the catch-all of the same role standing in where
 * that version lacks the kind. `older`: where the judged definition allows any other member, a
 * name only an older version spells out is no era mix (the newer one folded it into "any other
 * member"), while a name a newer version introduced still is.
 */
interface Rival {
  readonly pack: SchemaPack;
  readonly kind: MessageKind;
  readonly shape: MemberShape;
  readonly older: boolean;
}

/** One member the judged definition does not declare, with the versions that do. */
interface Foreign {
  readonly pointer: string;
  readonly name: string;
  readonly rivals: readonly Rival[];
}

const NONE: readonly Rival[] = [];
const RIVALS = new WeakMap<SchemaPack, WeakMap<MessageKind, readonly Rival[]>>();

/** The other versions whose definition declares something the judged one does not; usually none, and then the check costs a lookup. */
function rivalsOf(context: EraContext, pack: SchemaPack, kind: MessageKind): readonly Rival[] {
  let byKind = RIVALS.get(pack);
  if (!byKind) RIVALS.set(pack, (byKind = new WeakMap()));
  let found = byKind.get(kind);
  if (found) return found;
  const mine = declaredMembers(pack, kind.definition);
  const rivals: Rival[] = [];
  if (mine && !mine.open) {
    for (const other of familyPacks(context, pack, kind)) {
      const shape = declaredMembers(other.pack, other.kind.definition);
      const older = other.pack.order < pack.order;
      if (shape && !covers(mine, shape, older)) rivals.push({ pack: other.pack, kind: other.kind, shape, older });
    }
  }
  byKind.set(kind, (found = rivals.length > 0 ? rivals : NONE));
  return found;
}

/** The kind in every other pack of the family that has it; a pack without it lends its catch-all of the same role. */
function familyPacks(context: EraContext, pack: SchemaPack, kind: MessageKind): { pack: SchemaPack; kind: MessageKind }[] {
  const versions = context.versionsOf(pack.family, kind);
  const out: { pack: SchemaPack; kind: MessageKind }[] = [];
  const packs = new Set(versions.map((v) => v.pack));
  for (const v of versions) if (v.pack !== pack) out.push(v);
  if (kind.generic === true || (kind.role !== "request" && kind.role !== "notification" && kind.role !== "result")) return out;
  // Packs of the family lacking the kind: found through any kind's versions (the catch-all's own).
  for (const generic of pack.kinds.filter((k) => k.generic === true && k.role === kind.role)) {
    for (const v of context.versionsOf(pack.family, generic)) {
      if (v.pack !== pack && !packs.has(v.pack)) out.push(v);
    }
  }
  return out;
}

const escape = (token: string): string => token.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * One place in a message, with the rivals that still declare something the judged definition
 * does not at or below it. Children by property name are kept, so walking a message costs a map
 * lookup per member; a place with no such rival is null and not walked.
 */
class EraNode {
  readonly mine: MemberShape;
  readonly rivals: readonly Rival[];
  readonly #children = new Map<string, EraNode | null>();
  #items: EraNode | null | undefined;

  constructor(mine: MemberShape, rivals: readonly Rival[]) {
    this.mine = mine;
    this.rivals = rivals;
  }

  /** The member's node, null when nothing below it can be foreign; undefined when the judged definition does not declare it. */
  child(name: string): EraNode | null | undefined {
    const known = this.#children.get(name);
    if (known !== undefined) return known;
    const shape = this.mine.member(name);
    if (shape === null) return undefined;
    const made = node(shape, this.rivals, (s) => s.member(name));
    // Names outside `properties` come from traffic: not remembered one by one.
    if (this.mine.declaresByName(name)) this.#children.set(name, made);
    return made;
  }

  items(): EraNode | null {
    if (this.#items === undefined) {
      const shape = this.mine.items();
      this.#items = shape ? node(shape, this.rivals, (s) => s.items()) : null;
    }
    return this.#items;
  }
}

/** The node one step down, keeping only the rivals that still declare something `mine` does not. */
function node(mine: MemberShape, rivals: readonly Rival[], step: (shape: MemberShape) => MemberShape | null): EraNode | null {
  if (mine.open) return null;
  const next: Rival[] = [];
  for (const rival of rivals) {
    const shape = step(rival.shape);
    if (shape && !covers(mine, shape, rival.older)) next.push({ pack: rival.pack, kind: rival.kind, shape, older: rival.older });
  }
  return next.length > 0 ? new EraNode(mine, next) : null;
}

/** Members of `value` unknown to the judged definition that some rival declares at the same place. */
function foreignMembers(value: unknown, at: EraNode, path: string[], out: Foreign[]): void {
  if (Array.isArray(value)) {
    const items = at.items();
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      path.push(String(i));
      foreignMembers(value[i], items, path, out);
      path.pop();
    }
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const name in value) {
    const child = at.child(name);
    if (child === null) continue;
    if (child === undefined) {
      const allowsOthers = at.mine.allowsOthers;
      const declaring = at.rivals.filter((r) => r.shape.member(name) !== null && !(r.older && allowsOthers));
      if (declaring.length > 0) out.push({ pointer: [...path, name].map((t) => `/${escape(t)}`).join(""), name, rivals: declaring });
      continue;
    }
    const member = (value as Record<string, unknown>)[name];
    if (typeof member !== "object" || member === null) continue;
    path.push(name);
    foreignMembers(member, child, path, out);
    path.pop();
  }
}

/**
 * Each kind's root per pack that asked: a kind object is nearly always one pack's, so a question
 * costs one lookup and a scan of one entry.
 */
const ROOTS = new WeakMap<MessageKind, { readonly pack: SchemaPack; readonly root: EraNode | null }[]>();

function rootOf(context: EraContext, pack: SchemaPack, kind: MessageKind): EraNode | null {
  let roots = ROOTS.get(kind);
  if (!roots) ROOTS.set(kind, (roots = []));
  for (const known of roots) if (known.pack === pack) return known.root;
  const rivals = rivalsOf(context, pack, kind);
  const root = rivals.length === 0 ? null : new EraNode(declaredMembers(pack, kind.definition)!, rivals);
  roots.push({ pack, root });
  return root;
}

function found(context: EraContext, value: unknown, pack: SchemaPack, kind: MessageKind): readonly Foreign[] {
  const root = rootOf(context, pack, kind);
  if (!root) return NO_FOREIGN;
  // The walk runs on every valid message of such a kind and nearly always finds nothing: it reuses one path and one list.
  // A walk cut short by a too deep value (a RangeError) leaves them dirty.
  if (WALK_PATH.length > 0) WALK_PATH.length = 0;
  if (WALK_FOUND.length > 0) WALK_FOUND.length = 0;
  foreignMembers(value, root, WALK_PATH, WALK_FOUND);
  if (WALK_FOUND.length === 0) return NO_FOREIGN;
  const out = WALK_FOUND.slice();
  WALK_FOUND.length = 0;
  return out;
}

const WALK_PATH: string[] = [];
const WALK_FOUND: Foreign[] = [];

const NO_FOREIGN: readonly Foreign[] = [];

function versionList(rivals: readonly Rival[]): string {
  const versions = [...new Set(rivals.map((r) => r.pack.version))];
  return versions.length === 1 ? versions[0]! : `${versions.slice(0, -1).join(", ")} and ${versions[versions.length - 1]!}`;
}

function eraIssue(foreign: Foreign, pack: SchemaPack, kind: MessageKind): Issue {
  const message = `"${foreign.name}" is not part of ${pack.label}'s ${kind.label} (it appears in ${versionList(foreign.rivals)}).`;
  const bridge = foreign.pointer === `/${foreign.name}` ? kind.eraBridges?.[foreign.name] : undefined;
  if (bridge !== undefined) return { pointer: foreign.pointer, message: `${message} ${bridge}`, severity: "warning", source: "rule", rule: "era.member" };
  return { pointer: foreign.pointer, message, severity: "error", source: "rule", rule: "era.member" };
}

/**
 * The version whose members the message uses, with its schema issues: the rival declaring the
 * most of them, then the one the message comes nearest to passing.
 */
function usedEraIssues(checks: EraChecks, value: unknown, foreign: readonly Foreign[]): Issue[] {
  const counts = new Map<Rival["pack"], { kind: MessageKind; count: number }>();
  for (const f of foreign) {
    for (const r of f.rivals) {
      const entry = counts.get(r.pack);
      if (entry) entry.count++;
      else counts.set(r.pack, { kind: r.kind, count: 1 });
    }
  }
  const most = Math.max(...[...counts.values()].map((c) => c.count));
  let best: Issue[] | undefined;
  let bestPack: SchemaPack | undefined;
  for (const [pack, { kind, count }] of counts) {
    if (count < most) continue;
    const issues = checks.issues(pack, kind, value);
    if (!best || issues.length < best.length || (issues.length === best.length && pack.order > bestPack!.order)) {
      best = issues;
      bestPack = pack;
    }
  }
  if (!best || !bestPack) return [];
  const label = bestPack.label;
  return best.map((issue) => ({ ...issue, message: `In ${label}, whose members it uses: ${issue.message}` }));
}

/**
 * The era issues of a message the schema accepted as `pick`; `issues` (the rules' findings) come
 * back unchanged when there are none. An era issue at a pointer a rule already names adds nothing.
 */
export function withEraIssues(context: EraContext, value: unknown, pick: Candidate, issues: readonly Issue[], checks?: EraChecks): readonly Issue[] {
  const basis = pick.basis ?? "evidence";
  if (basis !== "declared" && basis !== "evidence") return issues;
  const foreign = found(context, value, pick.pack, pick.kind);
  if (foreign.length === 0) return issues;
  let extra: Issue[];
  if (basis === "declared") extra = foreign.map((f) => eraIssue(f, pick.pack, pick.kind));
  else {
    // With nothing declared, a version the message passes whose definition knows all its members settles it.
    const asked = checks ?? compilerChecks(context.compiler);
    for (const v of context.versionsOf(pick.pack.family, pick.kind)) {
      if (v.pack === pick.pack || !asked.isValid(v.pack, v.kind, value)) continue;
      if (found(context, value, v.pack, v.kind).length === 0) return issues;
    }
    const marked = foreign.map((f) => eraIssue(f, pick.pack, pick.kind));
    // Members carried on purpose are no era mix: the other version's schema has nothing to say.
    extra = marked.every((i) => i.severity === "warning") ? marked : [...marked, ...usedEraIssues(asked, value, foreign)];
  }
  const named = new Set(issues.filter((i) => i.severity === "error").map((i) => i.pointer));
  const added = extra.filter((i) => !named.has(i.pointer));
  return added.length === 0 ? issues : [...issues, ...added];
}
