/**
 * Two JSON Schemas compared as schemas, not as text: properties added and removed, type,
 * required and enum changes, descriptions, and the same inside nested properties, items and
 * combinators, each at the JSON pointer of the subschema. Any other keyword that differs is
 * reported as "changed at <pointer>" by the generic walk.
 */
import { jsonEqual } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { formatPointer } from "../json/pointer.ts";
import { ChangeSink, DIFF_MAX_DEPTH, diffJsonInto, show, stableKey, type DiffChange, type Tokens, valueChange, where } from "./diff-json.ts";

export interface SchemaDiffOptions {
  readonly maxDepth?: number;
  readonly maxChanges?: number;
}

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = new Set(["additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas (properties has its own words). */
const SCHEMA_MAPS = new Set(["$defs", "definitions", "patternProperties", "dependentSchemas"]);

const isSchema = (v: unknown): boolean => isJsonObject(v) || typeof v === "boolean";

function typeList(v: unknown): string[] | undefined {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.every((t) => typeof t === "string")) return [...(v as string[])].sort();
  return undefined;
}

const typeWords = (v: unknown): string => (typeof v === "string" ? v : Array.isArray(v) ? v.map(String).join(" | ") : show(v));

class SchemaWalk {
  readonly sink: ChangeSink;
  readonly maxDepth: number;
  constructor(sink: ChangeSink, maxDepth: number) {
    this.sink = sink;
    this.maxDepth = maxDepth;
  }

  schema(before: unknown, after: unknown, tokens: Tokens, depth: number): void {
    if (this.sink.full) return;
    if (!isJsonObject(before) || !isJsonObject(after)) {
      diffJsonInto(this.sink, before, after, tokens, { maxDepth: this.maxDepth }, depth);
      return;
    }
    if (depth >= this.maxDepth) return this.sink.deep(tokens, before, after, this.maxDepth);
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !Object.hasOwn(before, k))];
    for (const key of keys) this.keyword(key, before[key], after[key], [...tokens, key], depth);
  }

  keyword(key: string, b: unknown, a: unknown, tokens: Tokens, depth: number): void {
    if (this.sink.full || jsonEqual(b, a)) return;
    const pointer = formatPointer(tokens);
    const parent = formatPointer(tokens.slice(0, -1));
    if (key === "type" && (typeList(b) || typeList(a))) {
      this.sink.add({ kind: "type-changed", pointer, before: b, after: a, text: `type of ${where(parent)} changed: ${b === undefined ? "any" : typeWords(b)} → ${a === undefined ? "any" : typeWords(a)}` });
      return;
    }
    if (key === "description" && (typeof b === "string" || typeof a === "string")) {
      this.sink.add({ kind: "description-changed", pointer, before: b, after: a, text: `description of ${where(parent)} changed: ${show(b)} → ${show(a)}` });
      return;
    }
    if (key === "required" && (Array.isArray(b) || b === undefined) && (Array.isArray(a) || a === undefined)) return this.required(b ?? [], a ?? [], pointer, parent);
    if (key === "enum" && Array.isArray(b) && Array.isArray(a)) return this.enumValues(b, a, pointer, parent);
    if (key === "properties" && (isJsonObject(b) || b === undefined) && (isJsonObject(a) || a === undefined)) return this.properties(b ?? {}, a ?? {}, tokens, depth);
    if (key === "items") return this.items(b, a, tokens, depth);
    if (ONE_SCHEMA.has(key) && isSchema(b) && isSchema(a)) return this.schema(b, a, tokens, depth + 1);
    if (SCHEMA_LISTS.has(key) && Array.isArray(b) && Array.isArray(a)) return this.list(b, a, tokens, depth);
    if (SCHEMA_MAPS.has(key) && isJsonObject(b) && isJsonObject(a)) return this.map(b, a, tokens, depth);
    diffJsonInto(this.sink, b, a, tokens, { maxDepth: this.maxDepth }, depth + 1);
  }

  required(b: readonly unknown[], a: readonly unknown[], pointer: string, parent: string): void {
    const had = new Set(b.map((n) => stableKey(n)));
    const has = new Set(a.map((n) => stableKey(n)));
    for (const n of a) if (!had.has(stableKey(n))) this.sink.add({ kind: "required-added", pointer, name: String(n), after: n, text: `${show(n)} is now required in ${where(parent)}` });
    for (const n of b) if (!has.has(stableKey(n))) this.sink.add({ kind: "required-removed", pointer, name: String(n), before: n, text: `${show(n)} is no longer required in ${where(parent)}` });
  }

  enumValues(b: readonly unknown[], a: readonly unknown[], pointer: string, parent: string): void {
    const had = new Set(b.map((v) => stableKey(v)));
    const has = new Set(a.map((v) => stableKey(v)));
    for (const v of a) if (!had.has(stableKey(v))) this.sink.add({ kind: "enum-added", pointer, after: v, text: `${where(parent)} now allows ${show(v)}` });
    for (const v of b) if (!has.has(stableKey(v))) this.sink.add({ kind: "enum-removed", pointer, before: v, text: `${where(parent)} no longer allows ${show(v)}` });
    // Same values in another order: the generic walk would report positions, which mean nothing here.
  }

  properties(b: Record<string, unknown>, a: Record<string, unknown>, tokens: Tokens, depth: number): void {
    for (const name of Object.keys(b)) {
      const at = [...tokens, name];
      if (!Object.hasOwn(a, name)) this.sink.add({ kind: "property-removed", pointer: formatPointer(at), name, before: b[name], text: `property ${JSON.stringify(name)} removed at ${formatPointer(at)}` });
      else this.schema(b[name], a[name], at, depth + 2);
    }
    for (const name of Object.keys(a)) {
      if (Object.hasOwn(b, name)) continue;
      const at = formatPointer([...tokens, name]);
      this.sink.add({ kind: "property-added", pointer: at, name, after: a[name], text: `property ${JSON.stringify(name)} added at ${at}: ${show(a[name])}` });
    }
  }

  items(b: unknown, a: unknown, tokens: Tokens, depth: number): void {
    const pointer = formatPointer(tokens);
    if (b === undefined) return this.sink.add({ kind: "items-added", pointer, after: a, text: `items schema added at ${pointer}: ${show(a)}` });
    if (a === undefined) return this.sink.add({ kind: "items-removed", pointer, before: b, text: `items schema removed at ${pointer}: ${show(b)}` });
    if (Array.isArray(b) && Array.isArray(a)) return this.list(b, a, tokens, depth);
    if (isSchema(b) && isSchema(a)) return this.schema(b, a, tokens, depth + 1);
    this.sink.add(valueChange("changed", tokens, b, a));
  }

  list(b: readonly unknown[], a: readonly unknown[], tokens: Tokens, depth: number): void {
    const n = Math.max(b.length, a.length);
    for (let i = 0; i < n && !this.sink.full; i++) {
      if (i >= a.length) this.sink.add(valueChange("removed", [...tokens, i], b[i], undefined));
      else if (i >= b.length) this.sink.add(valueChange("added", [...tokens, i], undefined, a[i]));
      else this.schema(b[i], a[i], [...tokens, i], depth + 2);
    }
  }

  map(b: Record<string, unknown>, a: Record<string, unknown>, tokens: Tokens, depth: number): void {
    for (const name of Object.keys(b)) {
      if (!Object.hasOwn(a, name)) this.sink.add(valueChange("removed", [...tokens, name], b[name], undefined));
      else this.schema(b[name], a[name], [...tokens, name], depth + 2);
    }
    for (const name of Object.keys(a)) if (!Object.hasOwn(b, name)) this.sink.add(valueChange("added", [...tokens, name], undefined, a[name]));
  }
}

/** Adds the schema changes below `tokens` to the sink. */
export function diffSchemaInto(sink: ChangeSink, before: unknown, after: unknown, tokens: Tokens = [], maxDepth = DIFF_MAX_DEPTH): void {
  new SchemaWalk(sink, maxDepth).schema(before, after, tokens, 0);
}

/** Schema changes between two JSON Schemas, each at the pointer of the subschema it is in. */
export function diffSchemas(before: unknown, after: unknown, options: SchemaDiffOptions = {}): DiffChange[] {
  const sink = new ChangeSink(options.maxChanges);
  diffSchemaInto(sink, before, after, [], options.maxDepth ?? DIFF_MAX_DEPTH);
  return sink.changes;
}
