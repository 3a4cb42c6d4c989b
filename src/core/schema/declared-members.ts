import type { SchemaPack } from "../validation/types.ts";
import { definitionNode, localRefTarget } from "./schema-document.ts";

/**
 * The members a pack definition declares, place by place: what `properties` (and pattern or
 * additionalProperties schemas) name at each level of a value, found by walking the schema
 * through `$ref`, `allOf`, `anyOf`, `oneOf` and `if`/`then`/`else`. A union declares what any of
 * its branches declares, so the answer never calls a member undeclared that some branch knows.
 * Schemas let unknown members through; comparing a message's members with these is how a member
 * of another version (one this definition knows nothing about) is told from a declared one.
 */

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** What one place in a value may hold, by the schemas that apply there. */
export class MemberShape {
  readonly #table: ShapeTable;
  readonly #nodes: readonly Json[];
  #properties: Map<string, Json[]> | undefined;
  #patterns: { readonly pattern: RegExp; readonly nodes: Json[] }[] = [];
  #additional: Json[] = [];
  #items: Json[] = [];
  #anyOther = false;
  readonly #children = new Map<string, MemberShape | null>();
  #itemShape: MemberShape | null | undefined;
  #additionalShape: MemberShape | null | undefined;

  constructor(table: ShapeTable, nodes: readonly Json[]) {
    this.#table = table;
    this.#nodes = nodes;
  }

  #gather(): Map<string, Json[]> {
    if (this.#properties) return this.#properties;
    const properties = new Map<string, Json[]>();
    const seen = new Set<Json>();
    const visit = (node: unknown): void => {
      if (!isObject(node) || seen.has(node)) return;
      seen.add(node);
      if (typeof node.$ref === "string") visit(this.#table.resolve(node.$ref));
      for (const union of ["allOf", "anyOf", "oneOf"] as const) {
        const branches = node[union];
        if (Array.isArray(branches)) for (const branch of branches) visit(branch);
      }
      for (const branch of ["then", "else"] as const) visit(node[branch]);
      if (isObject(node.properties)) {
        for (const [name, schema] of Object.entries(node.properties)) {
          if (!isObject(schema)) continue;
          const list = properties.get(name);
          if (list) list.push(schema);
          else properties.set(name, [schema]);
        }
      }
      if (isObject(node.patternProperties)) {
        for (const [pattern, schema] of Object.entries(node.patternProperties)) {
          if (isObject(schema)) this.#patterns.push({ pattern: new RegExp(pattern, "u"), nodes: [schema] });
        }
      }
      // Saying outright that any other member may appear (`true`, `{}`: an index signature) declares every name.
      for (const rest of ["additionalProperties", "unevaluatedProperties"] as const) {
        const schema = node[rest];
        if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) this.#anyOther = true;
        else if (isObject(schema)) this.#additional.push(schema);
      }
      if (Array.isArray(node.prefixItems)) this.#items.push(...node.prefixItems.filter(isObject));
      if (isObject(node.items)) this.#items.push(node.items);
      else if (Array.isArray(node.items)) this.#items.push(...node.items.filter(isObject));
    };
    for (const node of this.#nodes) visit(node);
    this.#properties = properties;
    return properties;
  }

  /** Declares no member and no items at all (arguments, a free-form map): anything may sit here and below. */
  get open(): boolean {
    return this.#gather().size === 0 && this.#patterns.length === 0 && this.#additional.length === 0 && this.#items.length === 0;
  }

  /**
   * Whether the schema says outright that any other member may appear (`additionalProperties:
   * true` or `{}`, an index signature): such members are allowed, though none is named.
   */
  get allowsOthers(): boolean {
    this.#gather();
    return this.#anyOther;
  }

  /** Whether `properties` here name `name` (not a pattern, not the other members' schema). */
  declaresByName(name: string): boolean {
    return this.#gather().has(name);
  }

  /** The names `properties` declare here. */
  names(): IterableIterator<string> {
    return this.#gather().keys();
  }

  /** The shape of the member `name`, or null when nothing here declares it. */
  member(name: string): MemberShape | null {
    const properties = this.#gather();
    const named = properties.get(name);
    if (named) {
      let child = this.#children.get(name);
      if (child === undefined) this.#children.set(name, (child = this.#table.shape(named)));
      return child;
    }
    // Names outside `properties` come from traffic: they are not remembered one by one.
    const patterned = this.#patterns.filter((p) => p.pattern.test(name)).flatMap((p) => p.nodes);
    if (patterned.length > 0) return this.#table.shape(patterned);
    return this.additional();
  }

  /** The shape members outside `properties` take, when a schema says what they hold. */
  additional(): MemberShape | null {
    this.#gather();
    if (this.#additionalShape === undefined) this.#additionalShape = this.#additional.length > 0 ? this.#table.shape(this.#additional) : null;
    return this.#additionalShape;
  }

  /** The shape of an array's items, or null when the schema says nothing of them. */
  items(): MemberShape | null {
    this.#gather();
    if (this.#itemShape === undefined) this.#itemShape = this.#items.length > 0 ? this.#table.shape(this.#items) : null;
    return this.#itemShape;
  }

  /** Pattern schemas, for comparing two shapes. */
  get hasPatterns(): boolean {
    this.#gather();
    return this.#patterns.length > 0;
  }
}

/** One pack's shapes, one per set of schema nodes, so recursive schemas give a finite graph. */
class ShapeTable {
  readonly #document: Json;
  readonly #ids = new Map<Json, number>();
  readonly #shapes = new Map<string, MemberShape>();

  constructor(document: Json) {
    this.#document = document;
  }

  /** A local `$ref`'s target; an unresolvable one is no schema (it declares nothing). */
  resolve(ref: string): unknown {
    return localRefTarget(this.#document, ref);
  }

  shape(nodes: readonly Json[]): MemberShape {
    const key = nodes
      .map((n) => {
        let id = this.#ids.get(n);
        if (id === undefined) this.#ids.set(n, (id = this.#ids.size));
        return id;
      })
      .sort((a, b) => a - b)
      .join(",");
    let found = this.#shapes.get(key);
    if (!found) this.#shapes.set(key, (found = new MemberShape(this, nodes)));
    return found;
  }
}

const TABLES = new WeakMap<SchemaPack, ShapeTable>();
const ROOTS = new WeakMap<SchemaPack, Map<string, MemberShape | null>>();

/** The members a pack's definition declares; worked out once per pack and definition, lazily below the top. */
export function declaredMembers(pack: SchemaPack, definition: string): MemberShape | null {
  let roots = ROOTS.get(pack);
  if (!roots) ROOTS.set(pack, (roots = new Map()));
  let root = roots.get(definition);
  if (root === undefined) {
    let table = TABLES.get(pack);
    if (!table) TABLES.set(pack, (table = new ShapeTable(pack.document)));
    const node = definitionNode(pack, definition);
    roots.set(definition, (root = isObject(node) ? table.shape([node]) : null));
  }
  return root;
}

const COVERS = new WeakMap<MemberShape, WeakMap<MemberShape, boolean>>();

const COVERS_LENIENT = new WeakMap<MemberShape, WeakMap<MemberShape, boolean>>();

/**
 * Whether `mine` declares every member `other` declares, at every depth: then no member of a
 * value can be known to `other` and unknown to `mine`. With `othersCount`, a place where `mine`
 * allows any other member covers every name there. Recursive schemas are assumed to agree where
 * the comparison comes back to a pair it is already comparing.
 */
export function covers(mine: MemberShape, other: MemberShape, othersCount = false, comparing?: Set<string>): boolean {
  if (mine === other || mine.open) return true;
  const memo = othersCount ? COVERS_LENIENT : COVERS;
  const known = memo.get(mine)?.get(other);
  if (known !== undefined) return known;
  comparing ??= new Set<string>();
  const pair = `${identity(mine)} ${identity(other)}`;
  if (comparing.has(pair)) return true;
  comparing.add(pair);
  const anyName = othersCount && mine.allowsOthers;
  let ok = !other.hasPatterns || mine.hasPatterns || mine.additional() !== null || anyName;
  for (const name of other.names()) {
    if (!ok) break;
    const theirs = other.member(name)!;
    const ours = mine.member(name);
    ok = ours === null ? anyName : covers(ours, theirs, othersCount, comparing);
  }
  const theirRest = other.additional();
  if (ok && theirRest) {
    const ourRest = mine.additional();
    ok = ourRest === null ? anyName : covers(ourRest, theirRest, othersCount, comparing);
  }
  const theirItems = other.items();
  const ourItems = mine.items();
  if (ok && theirItems && ourItems) ok = covers(ourItems, theirItems, othersCount, comparing);
  comparing.delete(pair);
  let byOther = memo.get(mine);
  if (!byOther) memo.set(mine, (byOther = new WeakMap()));
  byOther.set(other, ok);
  return ok;
}

const IDS = new WeakMap<MemberShape, number>();
let nextId = 0;
function identity(shape: MemberShape): number {
  let id = IDS.get(shape);
  if (id === undefined) IDS.set(shape, (id = nextId++));
  return id;
}
