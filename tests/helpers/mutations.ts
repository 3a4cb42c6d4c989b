import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import { definitionContainer } from "../../src/core/schema/schema-document.ts";
import type { Family, FamilyModule, MessageKind, SchemaPack } from "../../src/core/validation/types.ts";

/**
 * Near-misses of valid messages, derived from our schema packs: for a seed message of a known
 * pack and kind, the generator reads the kind's definition (following $ref, allOf, and the
 * anyOf/oneOf branches the seed takes) to learn which members are required, what types they
 * allow and which values they enumerate, and breaks one thing at a time:
 *
 * (a) the method of a JSON-RPC request or notification, or a fisk-ai protocol id, one letter off
 *     (a letter added, the last doubled, one dropped), never another known method or id;
 * (b) each required member removed, at the top level and one level down (params, result, error,
 *     a card's or header's members);
 * (c) each member there given a value of a type its schema refuses (string↔number, object or
 *     array→string, boolean→string);
 * (d) each string the schema enumerates (enum or const, down to four levels, first array items),
 *     misspelt; `method` and `protocol` are (a)'s;
 * (e) the version a message names (an MCP initialize's or request _meta's protocolVersion, an A2A
 *     card's) set to each other version of the family that has the kind, or a fisk-ai protocol id
 *     swapped for the other generation's counterpart (`request` ↔ `request.prompt`, `event` ↔ `event.text`).
 *
 * Every mutant is confirmed by the schemas before it is kept. It is excluded, with the rule and
 * reason, when it is no error per the schemas: the seed's own definition still accepts it; the
 * schema allows every type at the member; it is a valid message as it stands (of the seed's kind
 * in another version, or of another specific kind, such as the empty result a result becomes
 * when its only member goes), in a version it does not contradict and using only members that
 * kind's schema declares; for (e), the named version accepts it with declared members only; for
 * (a), the new id still matches a wildcard kind (gen2's `event.*`). Unknown members never excuse a
 * mutant: schemas let them through, so "valid with members the schema knows nothing about" is
 * exactly what an era mix-up looks like.
 */

export type MutationClass = "method-typo" | "required-removed" | "wrong-type" | "enum-misspelled" | "other-era";

export const MUTATION_CLASSES: readonly MutationClass[] = ["method-typo", "required-removed", "wrong-type", "enum-misspelled", "other-era"];

export const CLASS_TITLES: Readonly<Record<MutationClass, string>> = {
  "method-typo": "(a) method or protocol id typo",
  "required-removed": "(b) required member removed",
  "wrong-type": "(c) member of the wrong type",
  "enum-misspelled": "(d) enum or const value misspelled",
  "other-era": "(e) version of another era",
};

/** A valid message of a known pack and kind, from upstream's examples or our own corpus. */
export interface Seed {
  readonly family: Family;
  readonly pack: SchemaPack;
  readonly kind: MessageKind;
  readonly source: "official example" | "corpus";
  readonly name: string;
  readonly message: unknown;
  /** The text pasted: the message's own text where it has one, else compact JSON. */
  readonly text: string;
}

export interface Mutant {
  readonly seed: Seed;
  readonly cls: MutationClass;
  /** What was broken, e.g. `method "tools/calls"`, `removed /params/name`, `/params/level "debug" → "debu"`. */
  readonly label: string;
  /** The mutated member's pointer. */
  readonly field: string;
  /** An issue at one of these pointers counts as pointing at the field; empty where the spec asks for no pointer ((a), (e)). */
  readonly pointers: readonly string[];
  /** For a removed member: an issue at its parent that names it counts too (a "required" failure is placed there). */
  readonly parent?: { readonly pointer: string; readonly member: string };
  readonly value: unknown;
}

export interface Exclusion {
  readonly seed: Seed;
  readonly cls: MutationClass;
  readonly label: string;
  readonly rule: ExclusionRule;
  readonly reason: string;
  readonly value: unknown;
}

/** (b) and (c) reach the top level and one level down (params, result, error, a card's members); (d) goes deeper, to where enums live. */
const SHALLOW_DEPTH = 1;
const ENUM_DEPTH = 4;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const escapeToken = (token: string): string => token.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeToken = (token: string): string => token.replaceAll("~1", "/").replaceAll("~0", "~");

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether a value of JSON type `type` satisfies a set of allowed types (integer counts as a number). */
function typeAllowed(type: string, allowed: ReadonlySet<string>): boolean {
  return allowed.has(type) || (type === "integer" && allowed.has("number"));
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const t of a) {
    if (b.has(t)) out.add(t);
    else if (t === "integer" && b.has("number")) out.add("integer");
    else if (t === "number" && b.has("integer")) out.add("integer");
  }
  return out;
}

/** A copy of `value` with the member at `pointer` replaced, or removed when `replacement` is `REMOVE`. */
const REMOVE = Symbol("remove");
function edited(value: unknown, pointer: string, replacement: unknown): unknown {
  const copy = structuredClone(value);
  const tokens = pointer.split("/").slice(1).map(unescapeToken);
  const last = tokens.pop();
  if (last === undefined) return replacement;
  let at: unknown = copy;
  for (const token of tokens) at = Array.isArray(at) ? at[Number(token)] : (at as Json)[token];
  if (Array.isArray(at)) at[Number(last)] = replacement;
  else if (replacement === REMOVE) delete (at as Json)[last];
  else (at as Json)[last] = replacement;
  return copy;
}

/** What the schema says about one object value: its required members, and the schemas of each member. */
interface Facts {
  readonly required: Set<string>;
  readonly props: Map<string, string[]>;
  readonly patterns: { readonly pattern: RegExp; readonly path: string }[];
  readonly additional: string[];
  readonly items: string[];
}

const emptyFacts = (): Facts => ({ required: new Set(), props: new Map(), patterns: [], additional: [], items: [] });

/** One pack's document, addressable by JSON pointer, with branch checks for anyOf/oneOf. */
class PackSchema {
  readonly #document: Json;
  readonly #id: string;
  readonly #ajv: Ajv;
  readonly #fns = new Map<string, ValidateFunction>();
  readonly #container: string;

  readonly #pack: SchemaPack;
  readonly #compiler: SchemaCompiler;

  constructor(pack: SchemaPack, compiler: SchemaCompiler) {
    this.#pack = pack;
    this.#compiler = compiler;
    this.#document = pack.document as Json;
    this.#id = String(pack.document.$id);
    const options = { strict: false, allErrors: false, validateFormats: false, allowUnionTypes: true };
    this.#ajv = pack.draft === "2020-12" ? new Ajv2020(options) : new Ajv(options);
    this.#ajv.addSchema(pack.document as AnySchema);
    this.#container = definitionContainer(pack.draft);
  }

  /** Where a kind's definition is in the document. */
  rootOf(kind: MessageKind): string {
    return `/${this.#container}/${escapeToken(kind.definition)}`;
  }

  node(path: string): unknown {
    let at: unknown = this.#document;
    for (const token of path.split("/").slice(1).map(unescapeToken)) {
      if (Array.isArray(at)) at = at[Number(token)];
      else if (isObject(at)) at = at[token];
      else return undefined;
    }
    return at;
  }

  matches(path: string, value: unknown): boolean {
    // A branch that is a named definition goes to the project's compiler, whose validators the engine shares.
    const node = this.node(path);
    const named = isObject(node) && Object.keys(node).length === 1 && typeof node.$ref === "string" ? PackSchema.target(node.$ref) : "";
    const prefix = `/${this.#container}/`;
    if (named.startsWith(prefix) && !named.slice(prefix.length).includes("/")) return this.#compiler.isValid(this.#pack, unescapeToken(named.slice(prefix.length)), value);
    let fn = this.#fns.get(path);
    if (!fn) {
      fn = this.#ajv.getSchema(`${this.#id}#${path}`);
      if (!fn) throw new Error(`no schema at ${this.#id}#${path}`);
      this.#fns.set(path, fn);
    }
    return fn(value) as boolean;
  }

  /** Local `$ref`s only: every pack document is one resource. */
  static target(ref: string): string {
    const at = ref.indexOf("#");
    if (at < 0) throw new Error(`non-local $ref ${ref}`);
    return ref.slice(at + 1);
  }

  /** Gathers what every schema the value is checked against says about its members. */
  collect(path: string, value: unknown, facts: Facts, depth = 0): void {
    if (depth > 64) throw new Error(`$ref loop at ${path}`);
    const node = this.node(path);
    if (!isObject(node)) return;
    if (typeof node.$ref === "string") this.collect(PackSchema.target(node.$ref), value, facts, depth + 1);
    if (Array.isArray(node.allOf)) node.allOf.forEach((_, i) => this.collect(`${path}/allOf/${i}`, value, facts, depth + 1));
    for (const union of ["anyOf", "oneOf"] as const) {
      const branches = node[union];
      if (!Array.isArray(branches)) continue;
      branches.forEach((_, i) => {
        if (this.matches(`${path}/${union}/${i}`, value)) this.collect(`${path}/${union}/${i}`, value, facts, depth + 1);
      });
    }
    if (node.if !== undefined) {
      const branch = this.matches(`${path}/if`, value) ? "then" : "else";
      if (node[branch] !== undefined) this.collect(`${path}/${branch}`, value, facts, depth + 1);
    }
    if (isObject(node.properties)) {
      for (const key of Object.keys(node.properties)) {
        const list = facts.props.get(key) ?? [];
        list.push(`${path}/properties/${escapeToken(key)}`);
        facts.props.set(key, list);
      }
    }
    if (Array.isArray(node.required)) for (const key of node.required) facts.required.add(String(key));
    if (isObject(node.patternProperties)) {
      for (const pattern of Object.keys(node.patternProperties)) facts.patterns.push({ pattern: new RegExp(pattern, "u"), path: `${path}/patternProperties/${escapeToken(pattern)}` });
    }
    // An empty additionalProperties schema declares nothing: it is `true` spelt as an object.
    if (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length > 0) facts.additional.push(`${path}/additionalProperties`);
    if (Array.isArray(node.prefixItems)) facts.items.push(`${path}/prefixItems/0`);
    else if (Array.isArray(node.items)) facts.items.push(`${path}/items/0`);
    else if (isObject(node.items)) facts.items.push(`${path}/items`);
  }

  facts(paths: readonly string[], value: unknown): Facts {
    const facts = emptyFacts();
    for (const path of paths) this.collect(path, value, facts);
    return facts;
  }

  /** The schemas a member is checked against: its property schemas, else matching patterns, else additionalProperties. */
  static memberPaths(facts: Facts, key: string): string[] {
    const named = facts.props.get(key);
    if (named) return named;
    const patterned = facts.patterns.filter((p) => p.pattern.test(key)).map((p) => p.path);
    return patterned.length > 0 ? patterned : facts.additional;
  }

  readonly #types = new Map<string, Set<string> | null>();
  readonly #values = new Map<string, string[] | null>();

  /** The JSON types a schema allows, or null when it allows every type. */
  types(path: string, depth = 0): Set<string> | null {
    if (this.#types.has(path)) return this.#types.get(path)!;
    const found = this.#typesAt(path, depth);
    this.#types.set(path, found);
    return found;
  }

  #typesAt(path: string, depth: number): Set<string> | null {
    if (depth > 64) throw new Error(`$ref loop at ${path}`);
    const node = this.node(path);
    if (node === false) return new Set();
    if (!isObject(node)) return null;
    let out: Set<string> | null = null;
    const narrow = (set: Set<string> | null): void => {
      if (set) out = out ? intersect(out, set) : set;
    };
    if (typeof node.$ref === "string") narrow(this.types(PackSchema.target(node.$ref), depth + 1));
    if (typeof node.type === "string") narrow(new Set([node.type]));
    if (Array.isArray(node.type)) narrow(new Set(node.type.map(String)));
    if ("const" in node) narrow(new Set([jsonType(node.const)]));
    if (Array.isArray(node.enum)) narrow(new Set(node.enum.map(jsonType)));
    if (Array.isArray(node.allOf)) node.allOf.forEach((_, i) => narrow(this.types(`${path}/allOf/${i}`, depth + 1)));
    for (const union of ["anyOf", "oneOf"] as const) {
      const branches = node[union];
      if (!Array.isArray(branches)) continue;
      const sets = branches.map((_, i) => this.types(`${path}/${union}/${i}`, depth + 1));
      if (sets.every((s) => s !== null)) narrow(new Set(sets.flatMap((s) => [...s!])));
    }
    return out;
  }

  /** The string values a schema enumerates (enum or const), or null when it does not enumerate. */
  values(path: string, depth = 0): string[] | null {
    if (this.#values.has(path)) return this.#values.get(path)!;
    const found = this.#valuesAt(path, depth);
    this.#values.set(path, found);
    return found;
  }

  #valuesAt(path: string, depth: number): string[] | null {
    if (depth > 64) throw new Error(`$ref loop at ${path}`);
    const node = this.node(path);
    if (!isObject(node)) return null;
    if (typeof node.const === "string") return [node.const];
    if (Array.isArray(node.enum) && node.enum.every((v) => typeof v === "string")) return node.enum as string[];
    if (typeof node.$ref === "string") {
      const found = this.values(PackSchema.target(node.$ref), depth + 1);
      if (found) return found;
    }
    if (Array.isArray(node.allOf)) {
      for (let i = 0; i < node.allOf.length; i++) {
        const found = this.values(`${path}/allOf/${i}`, depth + 1);
        if (found) return found;
      }
    }
    for (const union of ["anyOf", "oneOf"] as const) {
      const branches = node[union];
      if (!Array.isArray(branches)) continue;
      const lists = branches.map((_, i) => this.values(`${path}/${union}/${i}`, depth + 1));
      if (lists.every((l) => l !== null)) return lists.flatMap((l) => l!);
    }
    return null;
  }
}

/** Replacement values by the seed value's JSON type, first one whose type the schema refuses wins. */
const WRONG_TYPES: Readonly<Record<string, readonly unknown[]>> = {
  string: [42, {}],
  integer: ["42", {}],
  number: ["4.2", {}],
  boolean: ["true", 1],
  object: ["[object]", 42],
  array: ["[array]", {}],
};

/** One-letter slips: a trailing letter, the last letter doubled, a letter dropped. */
function typos(word: string): string[] {
  const cut = word.lastIndexOf("/") + 1;
  const segment = word.slice(cut);
  const last = word.at(-1) ?? "";
  const dropAt = segment.length > 2 ? word.length - 1 : cut + 1;
  return [...new Set([word + (last === "s" ? "x" : "s"), word + last, word.slice(0, dropAt) + word.slice(dropAt + 1)])].filter((t) => t !== word && t.length > 0);
}

/** A misspelling not among the allowed values: the last letter dropped, else doubled. */
function misspelt(value: string, allowed: readonly string[]): string | null {
  for (const candidate of [value.slice(0, -1), value + value.slice(-1), `${value}x`]) {
    if (candidate.length > 0 && !allowed.includes(candidate)) return candidate;
  }
  return null;
}

/** Kinds of one family that are the same message: the same id, or Agent Cards split by version range. */
const kindKey = (kind: MessageKind): string => (kind.role === "card" ? "card" : kind.id);

/**
 * A family's catch-all: named by its role (MCP's `request`, `notification`, `result`, `error`) or
 * a wildcard (fisk-ai's `event.*`). Being valid as one says nothing about being another message.
 */
const isCatchAll = (kind: MessageKind): boolean => kind.id === kind.role || kind.id.includes("*");

/** Whether being valid as `kind` can make a mutant of `seedKind` "another message" rather than a broken one. */
const countsAsMessage = (kind: MessageKind, seedKind: MessageKind): boolean =>
  kindKey(kind) === kindKey(seedKind) || (kind.role !== "payload" && !isCatchAll(kind));

/** The method (or fisk-ai protocol id suffix) of a request or notification kind. */
const methodOf = (kind: MessageKind): string | null => (kind.role === "request" || kind.role === "notification" ? kind.id.replace(/:(request|notification)$/, "") : null);

/** Where a message states its protocol version: `protocolVersion` at the top or one level down, or MCP's `_meta` key. */
function versionFields(message: Json): string[] {
  const fields: string[] = [];
  if (typeof message.protocolVersion === "string") fields.push("/protocolVersion");
  for (const [key, member] of Object.entries(message)) {
    if (!isObject(member)) continue;
    if (typeof member.protocolVersion === "string") fields.push(`/${escapeToken(key)}/protocolVersion`);
    const meta = member._meta;
    if (isObject(meta) && typeof meta["io.modelcontextprotocol/protocolVersion"] === "string") fields.push(`/${escapeToken(key)}/_meta/io.modelcontextprotocol~1protocolVersion`);
  }
  return fields;
}

function read(value: unknown, pointer: string): unknown {
  let at = value;
  for (const token of pointer.split("/").slice(1).map(unescapeToken)) at = isObject(at) ? at[token] : undefined;
  return at;
}

/** The pack a version string names: the same version, else the same major.minor ("0.2.5" names the v0.2 pack). */
function packNamed(packs: readonly SchemaPack[], version: unknown): SchemaPack | null {
  if (typeof version !== "string") return null;
  const exact = packs.find((p) => p.version === version);
  if (exact) return exact;
  const minor = /^(\d+\.\d+)(\.|$)/.exec(version)?.[1];
  return (minor && packs.find((p) => p.version === minor || p.version.startsWith(`${minor}.`))) || null;
}

/** Why a would-be mutant is not an error per the schemas; each is counted and listed. */
export type ExclusionRule = "own schema accepts it" | "any type allowed" | "another valid message" | "named version accepts it" | "id matches a wildcard kind";

/** A mutant before it is tied to its seed. */
type Draft = Omit<Mutant, "seed">;

type Reason = { readonly rule: ExclusionRule; readonly detail: string } | null;
type Keep = (draft: Draft, reason: Reason) => void;

/** Generates and confirms the near-misses of seeds, for every family's packs. */
export class MutationGenerator {
  readonly #families: ReadonlyMap<Family, FamilyModule>;
  readonly #compiler: SchemaCompiler;
  readonly #schemas = new Map<string, PackSchema>();

  constructor(families: readonly FamilyModule[], compiler: SchemaCompiler) {
    this.#families = new Map(families.map((f) => [f.family, f]));
    this.#compiler = compiler;
  }

  #schema(pack: SchemaPack): PackSchema {
    let schema = this.#schemas.get(pack.id);
    if (!schema) this.#schemas.set(pack.id, (schema = new PackSchema(pack, this.#compiler)));
    return schema;
  }

  #packs(family: Family): readonly SchemaPack[] {
    return this.#families.get(family)?.packs ?? [];
  }

  /** Whether `value` passes the kind's schema only thanks to members that schema does not declare (another era's members). */
  passesThroughUndeclared(pack: SchemaPack, kind: MessageKind, value: unknown): boolean {
    return this.#compiler.isValid(pack, kind.definition, value) && !this.#declared(pack, kind, value);
  }

  /**
   * The first kind `accept` allows that `value` is valid as, in `packs`, as "kind in pack", using
   * only members that kind declares. Schemas let unknown members through, so a result holding
   * anything at all is a valid empty result, and a newer message is a valid older one with extras;
   * neither makes the mutant that message. A member the schema declares nothing about is one "only
   * another era has".
   */
  #validAs(value: unknown, packs: readonly SchemaPack[], accept: (kind: MessageKind) => boolean): string | null {
    for (const pack of packs) {
      for (const kind of pack.kinds) {
        if (!accept(kind) || !this.#fixedMembersMatch(pack, kind, value)) continue;
        if (this.#compiler.isValid(pack, kind.definition, value) && this.#declared(pack, kind, value)) return `${kind.id} in ${pack.id}`;
      }
    }
    return null;
  }

  readonly #fixed = new Map<string, ReadonlyMap<string, string>>();

  /**
   * A quick no before compiling a definition: the members its schema fixes to one string at the
   * top (a method, a fisk-ai protocol id, jsonrpc), through $ref and allOf, must have that value.
   */
  #fixedMembersMatch(pack: SchemaPack, kind: MessageKind, value: unknown): boolean {
    const key = `${pack.id} ${kind.definition}`;
    let fixed = this.#fixed.get(key);
    if (!fixed) {
      const schema = this.#schema(pack);
      const found = new Map<string, string>();
      const visit = (path: string, depth: number): void => {
        const node = schema.node(path);
        if (!isObject(node) || depth > 64) return;
        if (typeof node.$ref === "string") visit(PackSchema.target(node.$ref), depth + 1);
        if (Array.isArray(node.allOf)) node.allOf.forEach((_, i) => visit(`${path}/allOf/${i}`, depth + 1));
        if (!isObject(node.properties)) return;
        for (const member of Object.keys(node.properties)) {
          const only = schema.values(`${path}/properties/${escapeToken(member)}`);
          if (only?.length === 1) found.set(member, only[0]!);
        }
      };
      visit(schema.rootOf(kind), 0);
      this.#fixed.set(key, (fixed = found));
    }
    if (fixed.size === 0) return true;
    if (!isObject(value)) return false;
    for (const [member, only] of fixed) if (member in value && value[member] !== only) return false;
    return true;
  }

  /** Whether every member `value` uses (down to the enum depth, first array items) is one the kind's schema declares. */
  #declared(pack: SchemaPack, kind: MessageKind, value: unknown): boolean {
    const schema = this.#schema(pack);
    const check = (paths: readonly string[], at: unknown, depth: number): boolean => {
      if (depth > ENUM_DEPTH || paths.length === 0) return true;
      if (Array.isArray(at)) return at.length === 0 || check(schema.facts(paths, at).items, at[0], depth + 1);
      if (!isObject(at)) return true;
      const facts = schema.facts(paths, at);
      // An object whose schema declares no members at all (arguments, _meta maps) is free-form by design.
      const open = facts.props.size === 0 && facts.patterns.length === 0 && facts.additional.length === 0;
      return Object.entries(at).every(([key, member]) => {
        const memberPaths = PackSchema.memberPaths(facts, key);
        return (open || memberPaths.length > 0) && check(memberPaths, member, depth + 1);
      });
    };
    return check([schema.rootOf(kind)], value, 0);
  }

  /**
   * Null when the mutant is a genuine error by the schemas. It is not one when the seed's own
   * definition still accepts it, or when it is a valid message of the family as it stands: of the
   * seed's kind in another version, or of another kind (a result emptied of its members is a valid
   * empty result). Only versions the mutant does not contradict count: one that names its version
   * is judged by that version alone. Catch-alls (MCP's "method not defined" request, any result)
   * and payload fragments never excuse a mutant: being valid as those is what the suite looks for.
   */
  #excluded(seed: Seed, value: unknown): Reason {
    if (this.#compiler.isValid(seed.pack, seed.kind.definition, value)) return { rule: "own schema accepts it", detail: `${seed.kind.definition} (${seed.pack.id}) accepts it` };
    const declared = isObject(value) ? versionFields(value).map((f) => packNamed(this.#packs(seed.family), read(value, f))).find((p) => p !== null) : undefined;
    const valid = this.#validAs(value, declared ? [declared] : this.#packs(seed.family), (k) => countsAsMessage(k, seed.kind));
    if (!valid) return null;
    return { rule: "another valid message", detail: `valid as ${valid}${declared ? ", the version it names" : ", and it names no version"}` };
  }

  generate(seed: Seed): { mutants: Mutant[]; excluded: Exclusion[] } {
    const mutants: Mutant[] = [];
    const excluded: Exclusion[] = [];
    const keep: Keep = (draft, reason) => {
      if (reason) excluded.push({ seed, cls: draft.cls, label: draft.label, rule: reason.rule, reason: reason.detail, value: draft.value });
      else mutants.push({ seed, ...draft });
    };
    const schema = this.#schema(seed.pack);
    this.#typos(seed, keep);
    this.#walk(seed, schema, [schema.rootOf(seed.kind)], seed.message, "", 0, keep);
    this.#eras(seed, keep);
    return { mutants, excluded };
  }

  /** (a): a JSON-RPC method, or a fisk-ai protocol id, one letter off, and not another known method or id. */
  #typos(seed: Seed, keep: Keep): void {
    const method = methodOf(seed.kind);
    if (!isObject(seed.message) || method === null) return;
    const packs = this.#packs(seed.family);
    if (seed.message.method === method) {
      // Methods of every family: a slip that lands on another family's method is that family's message.
      const known = new Set([...this.#families.values()].flatMap((f) => f.packs.flatMap((p) => p.kinds.map(methodOf))));
      for (const typo of typos(method)) {
        if (known.has(typo)) continue;
        keep({ cls: "method-typo", label: `method "${typo}"`, field: "/method", pointers: [], value: edited(seed.message, "/method", typo) }, null);
      }
      return;
    }
    const protocol = seed.message.protocol;
    if (typeof protocol !== "string" || !protocol.endsWith(`.${seed.kind.id}`)) return;
    const namespace = protocol.slice(0, -seed.kind.id.length - 1);
    const ids = new Set(packs.flatMap((p) => p.kinds.map((k) => k.id)));
    // A kind id with a wildcard (gen2's `event.*`) accepts every id of its shape: a typo there names an unknown kind the protocol accepts.
    const wildcards = [...ids].filter((id) => id.includes("*")).map((id) => ({ id, pattern: new RegExp(`^${id.replaceAll(".", "\\.").replace("*", "[^.]+")}$`, "u") }));
    for (const typo of typos(seed.kind.id)) {
      if (ids.has(typo)) continue;
      const wildcard = wildcards.find((w) => w.pattern.test(typo));
      const draft: Draft = { cls: "method-typo", label: `protocol "…${typo}"`, field: "/protocol", pointers: [], value: edited(seed.message, "/protocol", `${namespace}.${typo}`) };
      keep(draft, wildcard ? { rule: "id matches a wildcard kind", detail: `matches the kind ${wildcard.id}` } : null);
    }
  }

  /** (b), (c) and (d), member by member. */
  #walk(seed: Seed, schema: PackSchema, paths: readonly string[], value: unknown, pointer: string, depth: number, keep: Keep): void {
    if (paths.length === 0) return;
    if (Array.isArray(value)) {
      if (value.length === 0 || depth >= ENUM_DEPTH) return;
      this.#walk(seed, schema, schema.facts(paths, value).items, value[0], `${pointer}/0`, depth + 1, keep);
      return;
    }
    if (!isObject(value)) return;
    const facts = schema.facts(paths, value);
    // The top level and one level down, through objects only: an array's items are not "one level down".
    const shallow = depth <= SHALLOW_DEPTH && !pointer.split("/").some((t) => /^\d+$/.test(t));
    for (const [key, member] of Object.entries(value)) {
      const field = `${pointer}/${escapeToken(key)}`;
      const memberPaths = PackSchema.memberPaths(facts, key);
      if (shallow && facts.required.has(key)) {
        const mutant = edited(seed.message, field, REMOVE);
        keep({ cls: "required-removed", label: `removed ${field}`, field, pointers: [field], parent: { pointer, member: key }, value: mutant }, this.#excluded(seed, mutant));
      }
      if (shallow && memberPaths.length > 0) this.#wrongType(seed, schema, memberPaths, member, field, keep);
      // method and protocol are (a)'s and (e)'s to break.
      if (typeof member === "string" && memberPaths.length > 0 && !(depth === 0 && (key === "method" || key === "protocol"))) {
        const allowed = memberPaths.map((p) => schema.values(p)).find((v) => v !== null);
        const wrong = allowed?.includes(member) ? misspelt(member, allowed) : null;
        if (wrong !== null) {
          const mutant = edited(seed.message, field, wrong);
          keep({ cls: "enum-misspelled", label: `${field} "${member}" → "${wrong}"`, field, pointers: [field], value: mutant }, this.#excluded(seed, mutant));
        }
      }
      if (depth < ENUM_DEPTH && (isObject(member) || Array.isArray(member))) this.#walk(seed, schema, memberPaths, member, field, depth + 1, keep);
    }
  }

  #wrongType(seed: Seed, schema: PackSchema, memberPaths: readonly string[], member: unknown, field: string, keep: Keep): void {
    const type = jsonType(member);
    const replacements = WRONG_TYPES[type];
    if (!replacements) return;
    let allowed: Set<string> | null = null;
    for (const path of memberPaths) {
      const set = schema.types(path);
      if (set) allowed = allowed ? intersect(allowed, set) : set;
    }
    const draft = (r: unknown): Draft => ({ cls: "wrong-type", label: `${field} ${type} → ${jsonType(r)} ${JSON.stringify(r)}`, field, pointers: [field], value: edited(seed.message, field, r) });
    if (allowed === null) {
      keep(draft(replacements[0]), { rule: "any type allowed", detail: "the schema allows every type here" });
      return;
    }
    const fixed = allowed;
    const replacement = replacements.find((r) => !typeAllowed(jsonType(r), fixed));
    if (replacement === undefined) return;
    const made = draft(replacement);
    keep(made, this.#excluded(seed, made.value));
  }

  /**
   * (e): the message names another version than the one its members belong to: a protocolVersion
   * (MCP initialize, A2A card; MCP 2026-07-28 request _meta), or a fisk-ai protocol id of the other
   * generation. A genuine error only when the named version's schema refuses the message; a
   * version without the kind at all is no near-miss of it and is skipped.
   */
  #eras(seed: Seed, keep: Keep): void {
    const message = seed.message;
    if (!isObject(message)) return;
    const packs = this.#packs(seed.family);
    const sameKind = (k: MessageKind): boolean => kindKey(k) === kindKey(seed.kind);
    for (const field of versionFields(message)) {
      for (const pack of packs) {
        if (pack === seed.pack || !pack.kinds.some(sameKind)) continue;
        const mutant = edited(message, field, pack.version);
        const valid = this.#validAs(mutant, [pack], sameKind);
        keep({ cls: "other-era", label: `${field} "${pack.version}" (${pack.id})`, field, pointers: [], value: mutant }, valid ? { rule: "named version accepts it", detail: `valid as ${valid}` } : null);
      }
    }
    const protocol = message.protocol;
    if (typeof protocol !== "string" || !protocol.endsWith(`.${seed.kind.id}`)) return;
    const namespace = protocol.slice(0, -seed.kind.id.length - 1);
    for (const pack of packs) {
      if (pack === seed.pack || pack.kinds.some((k) => k.id === seed.kind.id)) continue;
      // The other generation's counterpart: `request` for `request.prompt`, `event.text` for `event`, and so on.
      for (const other of pack.kinds) {
        if (other.id.includes("*") || !(other.id.startsWith(`${seed.kind.id}.`) || seed.kind.id.startsWith(`${other.id}.`))) continue;
        const mutant = edited(message, "/protocol", `${namespace}.${other.id}`);
        const valid = this.#compiler.isValid(pack, other.definition, mutant);
        const draft: Draft = { cls: "other-era", label: `protocol "…${other.id}" (${pack.id})`, field: "/protocol", pointers: [], value: mutant };
        keep(draft, valid ? { rule: "named version accepts it", detail: `valid as ${other.id} in ${pack.id}` } : null);
      }
    }
  }
}
