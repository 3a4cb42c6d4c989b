import type { ErrorObject } from "ajv";
import { localRefTarget } from "./schema-document.ts";

/**
 * Which branch of a failed anyOf/oneOf each of its errors came from. ajv reports an error inside
 * a `$ref`'d branch with a schema path relative to the referenced definition, so two branches'
 * errors can share a path; the schema object each error names (ajv's verbose `parentSchema`)
 * does not lie. A branch can raise an error in any schema object it reaches (through `$ref`s
 * too), and definitions are shared, so that alone can leave a choice; ajv checks the branches in
 * order, so the errors come branch by branch, and the choice is the earliest branch no earlier
 * than the previous error's.
 */

type Node = Readonly<Record<string, unknown>>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null;

const REACHED = new WeakMap<object, ReadonlySet<object>>();

/** Every schema object `branch` can check a value against, following `$ref`s within `root`. */
function reached(branch: object, root: unknown): ReadonlySet<object> {
  let found = REACHED.get(branch);
  if (found) return found;
  const set = new Set<object>();
  const visit = (at: unknown): void => {
    if (!isNode(at) || set.has(at)) return;
    set.add(at);
    for (const [key, child] of Object.entries(at)) {
      if (key === "$ref" && typeof child === "string") visit(localRefTarget(root, child));
      else visit(child);
    }
  };
  visit(branch);
  REACHED.set(branch, (found = set));
  return found;
}

/** By union (its list of branches), by schema object: the branches that reach it. */
const OWNERS = new WeakMap<readonly unknown[], WeakMap<object, readonly number[]>>();

/**
 * The branches of a union that reach `node`; both are parts of a pack's document, which does not
 * change, so the answer is worked out once (a failed union has many errors, often in many branches).
 */
function reachingBranches(branches: readonly unknown[], node: object, root: unknown): readonly number[] {
  let byNode = OWNERS.get(branches);
  if (!byNode) OWNERS.set(branches, (byNode = new WeakMap()));
  let owners = byNode.get(node);
  if (!owners) {
    owners = branches.flatMap((b, i) => (isNode(b) && reached(b, root).has(node) ? [i] : []));
    byNode.set(node, owners);
  }
  return owners;
}

/** The instance path's tokens below the union's own place. */
function tokensBelow(path: string, base: string): string[] {
  const rest = path.slice(base.length);
  return rest === "" ? [] : rest.split("/").slice(1).map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

const UNDER_SAME_VALUE = ["allOf", "anyOf", "oneOf"] as const;
const SINGLE_SAME_VALUE = ["not", "if", "then", "else"] as const;

/**
 * Whether `branch` checks the value at `tokens` below the union with `target`: the walk follows
 * `$ref`s and sub-schemas of the same value, and properties and items one token at a time.
 */
function checksAt(branch: unknown, tokens: readonly string[], target: object, root: unknown): boolean {
  const seen = new Set<string>();
  const ids = new Map<object, number>();
  const walk = (node: unknown, i: number): boolean => {
    if (!isNode(node)) return false;
    if (node === target && i === tokens.length) return true;
    let id = ids.get(node);
    if (id === undefined) ids.set(node, (id = ids.size));
    const key = `${id}:${i}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if (typeof node.$ref === "string" && walk(localRefTarget(root, node.$ref), i)) return true;
    for (const union of UNDER_SAME_VALUE) {
      const list = node[union];
      if (Array.isArray(list) && list.some((b) => walk(b, i))) return true;
    }
    for (const one of SINGLE_SAME_VALUE) if (walk(node[one], i)) return true;
    if (i >= tokens.length) return false;
    const token = tokens[i]!;
    const properties = node.properties;
    if (isNode(properties) && walk((properties as Record<string, unknown>)[token], i + 1)) return true;
    const patterns = node.patternProperties;
    if (isNode(patterns) && Object.entries(patterns).some(([p, schema]) => new RegExp(p, "u").test(token) && walk(schema, i + 1))) return true;
    if (walk(node.additionalProperties, i + 1) || walk(node.unevaluatedProperties, i + 1)) return true;
    if (/^\d+$/.test(token)) {
      const index = Number(token);
      const items = node.items;
      if (Array.isArray(node.prefixItems) && walk(node.prefixItems[index], i + 1)) return true;
      if (Array.isArray(items) ? walk(items[index], i + 1) : walk(items, i + 1)) return true;
    }
    return false;
  };
  return walk(branch, 0);
}

/**
 * The branch index of each member error, in order; undefined for all when ajv did not say which
 * schema objects are involved (errors collected without `verbose`). A schema object that several
 * branches reach goes to those that check it at the error's place in the value, then to the
 * earliest of them no earlier than the previous error's branch.
 */
export function unionBranches(union: ErrorObject, members: readonly ErrorObject[], root: unknown): (number | undefined)[] {
  const branches: unknown = union.schema;
  if (!Array.isArray(branches) || root === undefined) return members.map(() => undefined);
  let current = 0;
  return members.map((error) => {
    const parent = error.parentSchema;
    if (!isNode(parent)) return current;
    let owners = reachingBranches(branches, parent, root);
    if (owners.length > 1) {
      const tokens = tokensBelow(error.instancePath, union.instancePath);
      const placed = owners.filter((i) => checksAt(branches[i], tokens, parent, root));
      if (placed.length > 0) owners = placed;
    }
    if (owners.length === 0) return current;
    current = owners.find((i) => i >= current) ?? owners[owners.length - 1]!;
    return current;
  });
}
