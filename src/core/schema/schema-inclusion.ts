import type { SchemaDraft } from "../validation/types.ts";
import { definitionContainer, definitionNode } from "./schema-document.ts";

/**
 * Whether every value one schema accepts, another accepts too, proven from their structure.
 * Sound, not complete: a keyword it does not reason about, or a shape it cannot take apart, means
 * "not proven", and the caller validates as before. Its use: a message that passes a newer
 * version's definition passes an older one that merely lacks the newer members, with no check run.
 *
 * Each side is read so that a doubtful reading errs towards "not proven": the accepting side (b)
 * as strictly as it could be read, the accepted side (a) as loosely. So `$ref` siblings count on
 * b's side always, on a's side only under 2020-12; and an `a` keyword the proof does not use only
 * makes `a` stricter than the proof assumed.
 */

/** A schema document, the draft it is read by, and whether its formats assert. */
export interface SchemaSide {
  readonly document: Readonly<Record<string, unknown>>;
  readonly draft: SchemaDraft;
  readonly assertFormats: boolean;
}

type Node = Readonly<Record<string, unknown>>;

/** A schema's constraints, its `$ref`s and `allOf`s flattened into nodes that must all hold; false for the false schema. */
type Conjuncts = readonly Node[] | false;

/** Keywords that never reject a value. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
  "$schema", "definitions", "$defs", "contentMediaType", "contentEncoding", "contentSchema",
]);
/** Bounds `a` must hold at least as tightly as b: larger is tighter for these... */
const LOWER_BOUNDS: ReadonlySet<string> = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
/** ...and smaller for these. */
const UPPER_BOUNDS: ReadonlySet<string> = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

/** Refs followed in a row, and proofs nested, before giving up: a document that loops on itself proves nothing. */
const MAX_DEPTH = 64;

/** JSON's types, with numbers split so that "integer" is a part of "number". */
const FINE_TYPES: Readonly<Record<string, readonly string[]>> = {
  null: ["null"], boolean: ["boolean"], object: ["object"], array: ["array"], string: ["string"],
  integer: ["integer"], number: ["integer", "fraction"],
};

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON equality, member order aside. */
export function jsonEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) return x.length === (y as unknown[]).length && x.every((v, i) => jsonEqual(v, (y as unknown[])[i]));
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && jsonEqual((x as Node)[k], (y as Node)[k]));
}

function fineTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "fraction";
  return typeof value;
}

/** The fine types a `type` keyword allows; undefined for a malformed one. */
function fineTypes(type: unknown): Set<string> | undefined {
  const out = new Set<string>();
  for (const t of Array.isArray(type) ? type : [type]) {
    const fine = typeof t === "string" && Object.hasOwn(FINE_TYPES, t) ? FINE_TYPES[t] : undefined;
    if (!fine) return undefined;
    for (const f of fine) out.add(f);
  }
  return out;
}

export class SchemaInclusion {
  readonly #a: SchemaSide;
  readonly #b: SchemaSide;
  /** Pairs proven or under proof, by a's node then b's: a pair met again while under proof is assumed to hold (values are finite trees). */
  readonly #known = new Map<unknown, Map<unknown, boolean>>();
  /** Pairs in the order they were entered, so a failed proof can forget what was concluded under its assumption. */
  readonly #entered: [Map<unknown, boolean>, unknown][] = [];
  #depth = 0;

  /** `depth`: how deep the proof that asks this one already is. */
  constructor(a: SchemaSide, b: SchemaSide, depth = 0) {
    this.#a = a;
    this.#b = b;
    this.#depth = depth;
  }

  /** Whether every value schema `a` (of side a) accepts, schema `b` (of side b) accepts. */
  includes(a: unknown, b: unknown): boolean {
    let byB = this.#known.get(a);
    if (!byB) this.#known.set(a, (byB = new Map()));
    const known = byB.get(b);
    if (known !== undefined) return known;
    const mark = this.#entered.length;
    byB.set(b, true);
    this.#entered.push([byB, b]);
    const proven = this.#prove(this.#conjuncts(this.#a, a, false, 0), this.#conjuncts(this.#b, b, true, 0));
    if (!proven) {
      // Whatever was concluded since leaned on this pair holding.
      for (const [map, key] of this.#entered.splice(mark)) map.delete(key);
      byB.set(b, false);
    }
    return proven;
  }

  /** A definition by its `$ref`; undefined for a reference that leaves the document's own definitions. */
  #target(side: SchemaSide, ref: unknown): unknown {
    const prefix = `#/${definitionContainer(side.draft)}/`;
    if (typeof ref !== "string" || !ref.startsWith(prefix)) return undefined;
    const name = ref.slice(prefix.length);
    if (name.includes("/") || name.includes("%")) return undefined;
    return definitionNode(side, name.replaceAll("~1", "/").replaceAll("~0", "~"));
  }

  /** `strict`: read as b's side (see the module note). Null when the schema cannot be taken apart. */
  #conjuncts(side: SchemaSide, schema: unknown, strict: boolean, depth: number): Conjuncts | null {
    if (schema === true) return [];
    if (schema === false) return false;
    if (!isNode(schema) || depth > MAX_DEPTH || "$id" in schema) return null;
    const out: Node[] = [];
    const parts: unknown[] = [];
    if ("$ref" in schema) {
      if (!strict && side.draft === "draft-07") return this.#conjuncts(side, this.#target(side, schema.$ref) ?? null, strict, depth + 1);
      parts.push(this.#target(side, schema.$ref) ?? null);
    }
    if ("allOf" in schema) {
      if (!Array.isArray(schema.allOf)) return null;
      parts.push(...(schema.allOf as unknown[]));
    }
    for (const part of parts) {
      const inner = this.#conjuncts(side, part, strict, depth + 1);
      if (inner === null || inner === false) return inner;
      out.push(...inner);
    }
    out.push(parts.length === 0 ? schema : Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref" && k !== "allOf")));
    return out;
  }

  #prove(a: Conjuncts | null, b: Conjuncts | null): boolean {
    if (a === null || b === null || this.#depth > MAX_DEPTH) return false;
    if (a === false) return true;
    if (b === false) return false;
    this.#depth++;
    try {
      return b.every((node) => Object.entries(node).every(([key, want]) => ANNOTATIONS.has(key) || this.#holds(a, node, key, want)));
    } finally {
      this.#depth--;
    }
  }

  /** Whether `a`'s nodes together imply one keyword of a b node. */
  #holds(a: readonly Node[], b: Node, key: string, want: unknown): boolean {
    const stated = (k: string) => a.filter((n) => Object.hasOwn(n, k)).map((n) => n[k]);
    switch (key) {
      case "type":
        return this.#typesWithin(a, want);
      case "const":
      case "enum": {
        const allowed = key === "const" ? [want] : want;
        const values = this.#allowedValues(a);
        return Array.isArray(allowed) && values !== undefined && values.every((v) => allowed.some((w) => jsonEqual(v, w)));
      }
      case "required":
        return Array.isArray(want) && want.every((name) => stated("required").some((r) => Array.isArray(r) && r.includes(name)));
      case "properties":
        return isNode(want) && Object.entries(want).every(([name, schema]) => this.#memberWithin(a, name, schema));
      case "additionalProperties":
        return this.#othersWithin(a, b, want);
      case "items":
        return this.#itemsWithin(a, want);
      case "anyOf":
        return Array.isArray(want) && this.#someBranch(a, want);
      case "if":
        return a.some((n) => ["if", "then", "else"].every((k) => (n[k] === undefined && b[k] === undefined) || (n[k] !== undefined && b[k] !== undefined && this.#equivalent(n[k], b[k]))));
      case "then":
      case "else":
        // Without an `if` they do nothing; with one, the `if` case compared all three.
        return true;
      case "oneOf":
        return Array.isArray(want) && stated("oneOf").some((mine) => Array.isArray(mine) && mine.length === want.length && mine.every((m, i) => this.#equivalent(m, want[i])));
      case "not":
        return stated("not").some((mine) => this.#equivalent(mine, want));
      case "format":
        return !this.#b.assertFormats || (this.#a.assertFormats && stated("format").includes(want));
      case "pattern":
      case "multipleOf":
        return stated(key).includes(want);
      case "uniqueItems":
        return want !== true || stated(key).includes(true);
      default:
        if (LOWER_BOUNDS.has(key)) return typeof want === "number" && stated(key).some((mine) => typeof mine === "number" && mine >= want);
        if (UPPER_BOUNDS.has(key)) return typeof want === "number" && stated(key).some((mine) => typeof mine === "number" && mine <= want);
        return false;
    }
  }

  /** Every type a value of `a` can have is one `want` allows; with no type stated, judged by a const or enum. */
  #typesWithin(a: readonly Node[], want: unknown): boolean {
    const allowed = fineTypes(want);
    if (!allowed) return false;
    let mine: Set<string> | undefined;
    for (const node of a) {
      if (node.type === undefined) continue;
      const types = fineTypes(node.type);
      if (!types) return false;
      mine = mine ? new Set([...mine].filter((t) => types.has(t))) : types;
    }
    if (mine) return [...mine].every((t) => allowed.has(t));
    const values = this.#allowedValues(a);
    return values !== undefined && values.every((v) => allowed.has(fineTypeOf(v)));
  }

  /** The values a const or an enum of `a` restricts it to; undefined when none does. */
  #allowedValues(a: readonly Node[]): readonly unknown[] | undefined {
    for (const node of a) {
      if ("const" in node) return [node.const];
      if (Array.isArray(node.enum)) return node.enum;
    }
    return undefined;
  }

  /** b's schema for a named member holds for whatever `a` lets that member be, or `a` forbids the member. */
  #memberWithin(a: readonly Node[], name: string, schema: unknown): boolean {
    const mine = a.flatMap((node) => (isNode(node.properties) && Object.hasOwn(node.properties, name) ? [node.properties[name]] : []));
    if (mine.length > 0) return this.#allOf(mine, schema);
    const forbids = a.some((node) => node.additionalProperties === false && !("patternProperties" in node));
    return forbids || this.#prove([], this.#conjuncts(this.#b, schema, true, 0));
  }

  /** Several `a` schemas holding at once imply b's `schema`. */
  #allOf(mine: readonly unknown[], schema: unknown): boolean {
    if (mine.length === 1) return this.includes(mine[0], schema);
    const parts: Node[] = [];
    for (const m of mine) {
      const c = this.#conjuncts(this.#a, m, false, 0);
      if (c === null) return false;
      if (c === false) return true;
      parts.push(...c);
    }
    return this.#prove(parts, this.#conjuncts(this.#b, schema, true, 0));
  }

  /**
   * b's additionalProperties: accepting anything, or implied by one `a` node that declares no
   * member b leaves to it and whose own additionalProperties lie within b's.
   */
  #othersWithin(a: readonly Node[], b: Node, want: unknown): boolean {
    if (this.#prove([], this.#conjuncts(this.#b, want, true, 0))) return true;
    if ("patternProperties" in b) return false;
    const named = isNode(b.properties) ? b.properties : {};
    return a.some((node) => {
      if ("patternProperties" in node || !("additionalProperties" in node)) return false;
      const declared = isNode(node.properties) ? Object.keys(node.properties) : [];
      return declared.every((p) => Object.hasOwn(named, p)) && this.includes(node.additionalProperties, want);
    });
  }

  #itemsWithin(a: readonly Node[], want: unknown): boolean {
    if (!isNode(want) && typeof want !== "boolean") return false;
    if (a.some((node) => "prefixItems" in node || "additionalItems" in node || Array.isArray(node.items))) return false;
    const mine = a.flatMap((node) => ("items" in node ? [node.items] : []));
    if (mine.length > 0) return this.#allOf(mine, want);
    return this.#prove([], this.#conjuncts(this.#b, want, true, 0));
  }

  /** `a` fits one of b's branches; or `a` is a union itself and each of its branches (with the rest of `a`) fits one. */
  #someBranch(a: readonly Node[], branches: readonly unknown[]): boolean {
    const fits = (parts: readonly Node[]) => branches.some((branch) => this.#prove(parts, this.#conjuncts(this.#b, branch, true, 0)));
    if (fits(a)) return true;
    const at = a.findIndex((node) => Array.isArray(node.anyOf) || Array.isArray(node.oneOf));
    if (at < 0) return false;
    const node = a[at]!;
    const others = a.filter((_, i) => i !== at);
    return ((Array.isArray(node.anyOf) ? node.anyOf : node.oneOf) as unknown[]).every((branch) => {
      const c = this.#conjuncts(this.#a, branch, false, 0);
      return c !== null && (c === false || fits([...others, ...c]));
    });
  }

  /** Both schemas accept exactly the same values, as far as can be proven. */
  #equivalent(mine: unknown, want: unknown): boolean {
    return this.includes(mine, want) && new SchemaInclusion(this.#b, this.#a, this.#depth).includes(want, mine);
  }
}
