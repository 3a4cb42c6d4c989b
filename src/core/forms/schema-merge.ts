import { isJsonObject } from "../json/index.ts";
import { copyObject, jsonEqual, putOwn } from "./json-values.ts";
import type { RefResolver } from "./schema-refs.ts";

type Schema = Record<string, unknown>;

/** A schema with its `$ref` followed and its `allOf` merged, or why that cannot be done. */
export type Flattened =
  | { readonly ok: true; readonly schema: Schema; readonly refName: string | undefined; readonly sources: readonly object[] }
  | { readonly ok: false; readonly reason: string };

/** What flattening may touch: the resolver, the schemas being built above (a cycle), and a step budget. */
export interface FlattenContext {
  readonly resolver: RefResolver;
  readonly active: ReadonlySet<object>;
  /** Steps left; flattening spends one per schema it reads. */
  budget: number;
}

const MAX_CHAIN = 32;
const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

class Refusal extends Error {}

const both = (a: unknown, b: unknown): Schema => ({ allOf: [a, b] });

function typeList(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string");
}

function intersectTypes(a: unknown, b: unknown): string[] {
  const right = typeList(b);
  const out: string[] = [];
  for (const t of typeList(a)) {
    if (right.includes(t)) out.push(t);
    else if (t === "number" && right.includes("integer")) out.push("integer");
    else if (t === "integer" && right.includes("number")) out.push("integer");
  }
  return [...new Set(out)];
}

function mergeProperties(a: unknown, b: unknown): Schema {
  const out = isJsonObject(a) ? copyObject(a) : {};
  if (!isJsonObject(b)) return out;
  for (const [name, schema] of Object.entries(b)) putOwn(out, name, Object.hasOwn(out, name) ? both(out[name], schema) : schema);
  return out;
}

/** Folds `part` into `out`: constraints tighten, annotations keep the first (outermost) one. */
function mergeKeyword(out: Schema, key: string, value: unknown): void {
  if (!Object.hasOwn(out, key)) return putOwn(out, key, value);
  const have = out[key];
  if (key === "properties") return putOwn(out, key, mergeProperties(have, value));
  if (key === "required") return putOwn(out, key, [...new Set([...(Array.isArray(have) ? have : []), ...(Array.isArray(value) ? value : [])])]);
  if (key === "type") {
    const types = intersectTypes(have, value);
    if (types.length === 0) throw new Refusal(`its allOf parts disagree on the type (${typeList(have).join(", ")} against ${typeList(value).join(", ")})`);
    return putOwn(out, key, types.length === 1 ? types[0] : types);
  }
  if (key === "enum") {
    const common = Array.isArray(have) && Array.isArray(value) ? have.filter((x) => value.some((y) => jsonEqual(x, y))) : [];
    if (common.length === 0) throw new Refusal("its allOf parts allow no common value");
    return putOwn(out, key, common);
  }
  if (key === "const") {
    if (!jsonEqual(have, value)) throw new Refusal("its allOf parts require different constant values");
    return;
  }
  if (typeof have === "number" && typeof value === "number") {
    if (LOWER.has(key)) return putOwn(out, key, Math.max(have, value));
    if (UPPER.has(key)) return putOwn(out, key, Math.min(have, value));
  }
  if (key === "items" && (isJsonObject(have) || have === true) && (isJsonObject(value) || value === true)) return putOwn(out, key, both(have, value));
  if (key === "additionalProperties") {
    if (have === false || value === false) return putOwn(out, key, false);
    if (isJsonObject(have) && isJsonObject(value)) return putOwn(out, key, both(have, value));
    if (have === true) return putOwn(out, key, value);
    return;
  }
  if (key === "nullable") return putOwn(out, key, have === true && value === true);
  if ((key === "oneOf" || key === "anyOf") && have !== value) throw new Refusal(`its allOf parts combine several ${key} unions`);
}

function mergeParts(parts: readonly Schema[]): Schema {
  const out: Schema = {};
  for (const part of parts) for (const [key, value] of Object.entries(part)) mergeKeyword(out, key, value);
  return out;
}

const STRUCTURAL = new Set(["$ref", "allOf", "$defs", "definitions", "$schema", "$id", "$comment", "$anchor"]);

function ownPart(schema: Schema): Schema | undefined {
  const part: Schema = {};
  let any = false;
  for (const [key, value] of Object.entries(schema)) {
    if (STRUCTURAL.has(key)) continue;
    putOwn(part, key, value);
    any = true;
  }
  return any ? part : undefined;
}

/**
 * Follows `$ref` (siblings included, as 2020-12 allows) and merges `allOf` into one plain schema.
 * A reference back into a schema that is being built is a cycle: it is cut, with the reason.
 */
export function flatten(schema: unknown, ctx: FlattenContext): Flattened {
  const parts: Schema[] = [];
  const sources: object[] = [];
  // The schemas on the way down to this one: meeting one again is a loop, while a schema used twice side by side is not.
  const path = new Set<object>();
  let refName: string | undefined;

  const walk = (node: unknown, chain: number): void => {
    if (node === true) return;
    if (node === false) throw new Refusal("its schema is `false`, which allows no value");
    if (!isJsonObject(node)) throw new Refusal("its schema is not a JSON object");
    if (chain > MAX_CHAIN) throw new Refusal(`its references and allOf parts nest more than ${MAX_CHAIN} deep`);
    if (--ctx.budget < 0) throw new Refusal("the schema is too large for a form");
    if (ctx.active.has(node) || path.has(node)) {
      throw new Refusal(`it refers back to a schema that contains it${refName === undefined ? "" : ` ("${refName}")`}, a recursive schema a form cannot unfold`);
    }
    path.add(node);
    sources.push(node);
    if (typeof node.$dynamicRef === "string" || typeof node.$recursiveRef === "string") throw new Refusal("it uses a dynamic reference ($dynamicRef), which a form cannot follow");
    const own = ownPart(node);
    if (own) parts.push(own);
    if (typeof node.$ref === "string") {
      const target = ctx.resolver.resolve(node.$ref);
      if (!target.ok) throw new Refusal(target.reason);
      refName ??= target.name;
      walk(target.schema, chain + 1);
    }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) walk(part, chain + 1);
    else if (node.allOf !== undefined) throw new Refusal("its allOf is not a list of schemas");
    path.delete(node);
  };

  try {
    walk(schema, 0);
    return { ok: true, schema: parts.length === 1 ? (parts[0] as Schema) : mergeParts(parts), refName, sources };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

/** A union variant with the keywords beside the union folded in (`{properties, oneOf: [a, b]}`). */
export function withSiblings(siblings: Schema, variant: unknown): unknown {
  return Object.keys(siblings).length === 0 ? variant : both(siblings, variant);
}
