/**
 * The change record every diff produces, and the generic walk: two JSON values compared member by
 * member, each difference named by its JSON pointer. Arrays are compared by position unless a rule
 * says they are sets (media types, tags) or keyed lists (interfaces by URL). Depth and the number of
 * changes are bounded, with a note saying so, so a hostile value costs a bounded amount of work.
 */
import { jsonEqual, jsonTypeName, preview } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { formatPointer } from "../json/pointer.ts";

export type ChangeKind =
  | "added"
  | "removed"
  | "changed"
  | "item-added"
  | "item-removed"
  | "property-added"
  | "property-removed"
  | "type-changed"
  | "required-added"
  | "required-removed"
  | "enum-added"
  | "enum-removed"
  | "description-changed"
  | "items-added"
  | "items-removed"
  /** Not a difference: where the comparison stopped (too deep, too many changes). */
  | "note";

export interface DiffChange {
  readonly kind: ChangeKind;
  /** Where, as an RFC 6901 pointer into the compared value ("" is the whole value). */
  readonly pointer: string;
  /** The property or required name, for schema changes. */
  readonly name?: string;
  readonly before?: unknown;
  readonly after?: unknown;
  /** The change in words, for a CLI or a tooltip. */
  readonly text: string;
}

/** Bad input a diff cannot start from (not an array, not an object); the message names the side. */
export class DiffInputError extends Error {
  override readonly name = "DiffInputError";
}

/** Nesting levels compared before a subtree is only noted as different. */
export const DIFF_MAX_DEPTH = 32;
/** Changes listed per compared item before the rest are only noted. */
export const DIFF_MAX_CHANGES = 500;

export type Tokens = readonly (string | number)[];

export const show = (value: unknown): string => preview(value, 80);
export const where = (pointer: string): string => (pointer === "" ? "(root)" : pointer);

/** Collects changes up to a limit, then one note. */
export class ChangeSink {
  readonly changes: DiffChange[] = [];
  readonly limit: number;
  #full = false;
  constructor(limit: number = DIFF_MAX_CHANGES) {
    this.limit = limit;
  }

  get full(): boolean {
    return this.#full;
  }

  add(change: DiffChange): void {
    if (this.#full) return;
    if (this.changes.length >= this.limit) {
      this.#full = true;
      this.changes.push({ kind: "note", pointer: "", text: `more changes not listed: only the first ${this.limit} are` });
      return;
    }
    this.changes.push(change);
  }

  /** The subtree at `tokens` is too deep to walk: a note when it may differ. */
  deep(tokens: Tokens, before: unknown, after: unknown, maxDepth: number): void {
    if (jsonEqual(before, after)) return;
    const pointer = formatPointer(tokens);
    this.add({ kind: "note", pointer, text: `not compared below ${where(pointer)}: nested deeper than ${maxDepth} levels` });
  }
}

/** Sorted-key JSON text of a value, for matching set members; bounded in depth. */
export function stableKey(value: unknown, depth = 0): string {
  if (depth > 64) return "…";
  if (Array.isArray(value)) return `[${value.map((v) => stableKey(v, depth + 1)).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableKey(value[k], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/** How the items of one array are matched: by value, by an identity, or (undefined) by position. */
export type ArrayMatch = "set" | ((item: unknown) => string | undefined) | undefined;

export interface JsonDiffRules {
  /** Member names skipped at any depth (ids, timestamps). */
  readonly ignoreKeys?: ReadonlySet<string>;
  readonly arrayMatch?: (tokens: Tokens) => ArrayMatch;
  readonly maxDepth?: number;
}

export function valueChange(kind: "added" | "removed" | "changed", tokens: Tokens, before: unknown, after: unknown): DiffChange {
  const pointer = formatPointer(tokens);
  if (kind === "added") return { kind, pointer, after, text: `added ${where(pointer)}: ${show(after)}` };
  if (kind === "removed") return { kind, pointer, before, text: `removed ${where(pointer)}: ${show(before)}` };
  const types = jsonTypeName(before) !== jsonTypeName(after) ? ` (${jsonTypeName(before)} → ${jsonTypeName(after)})` : "";
  return { kind, pointer, before, after, text: `changed at ${where(pointer)}: ${show(before)} → ${show(after)}${types}` };
}

function diffSet(sink: ChangeSink, before: readonly unknown[], after: readonly unknown[], tokens: Tokens): void {
  const pointer = formatPointer(tokens);
  const had = new Set(before.map((v) => stableKey(v)));
  const has = new Set(after.map((v) => stableKey(v)));
  for (const v of before) if (!has.has(stableKey(v))) sink.add({ kind: "item-removed", pointer, before: v, text: `${where(pointer)} lost ${show(v)}` });
  for (const v of after) if (!had.has(stableKey(v))) sink.add({ kind: "item-added", pointer, after: v, text: `${where(pointer)} gained ${show(v)}` });
}

function diffKeyed(sink: ChangeSink, before: readonly unknown[], after: readonly unknown[], tokens: Tokens, key: (item: unknown) => string | undefined, rules: JsonDiffRules, depth: number): void {
  const pointer = formatPointer(tokens);
  const index = new Map<string, number>();
  after.forEach((item, i) => {
    const k = key(item);
    if (k !== undefined && !index.has(k)) index.set(k, i);
  });
  const matched = new Set<number>();
  before.forEach((item, i) => {
    const k = key(item);
    const j = k !== undefined ? index.get(k) : undefined;
    if (j === undefined || matched.has(j)) {
      // Unkeyed items fall back to their position.
      if (k === undefined && i < after.length && key(after[i]) === undefined) {
        matched.add(i);
        walk(sink, item, after[i], [...tokens, i], rules, depth + 1);
      } else sink.add({ kind: "item-removed", pointer, before: item, text: `${where(pointer)} lost ${show(item)}` });
      return;
    }
    matched.add(j);
    walk(sink, item, after[j], [...tokens, j], rules, depth + 1);
  });
  after.forEach((item, j) => {
    if (!matched.has(j)) sink.add({ kind: "item-added", pointer, after: item, text: `${where(pointer)} gained ${show(item)}` });
  });
}

function walk(sink: ChangeSink, before: unknown, after: unknown, tokens: Tokens, rules: JsonDiffRules, depth: number): void {
  if (sink.full || before === after) return;
  const maxDepth = rules.maxDepth ?? DIFF_MAX_DEPTH;
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  const bothObjects = isJsonObject(before) && isJsonObject(after);
  if (!bothArrays && !bothObjects) {
    if (!jsonEqual(before, after)) sink.add(valueChange(before === undefined ? "added" : after === undefined ? "removed" : "changed", tokens, before, after));
    return;
  }
  if (depth >= maxDepth) return sink.deep(tokens, before, after, maxDepth);
  if (bothArrays) {
    const match = rules.arrayMatch?.(tokens);
    if (match === "set") return diffSet(sink, before, after, tokens);
    if (typeof match === "function") return diffKeyed(sink, before, after, tokens, match, rules, depth);
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n && !sink.full; i++) {
      if (i >= after.length) sink.add(valueChange("removed", [...tokens, i], before[i], undefined));
      else if (i >= before.length) sink.add(valueChange("added", [...tokens, i], undefined, after[i]));
      else walk(sink, before[i], after[i], [...tokens, i], rules, depth + 1);
    }
    return;
  }
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const ignore = rules.ignoreKeys;
  for (const key of Object.keys(b)) {
    if (ignore?.has(key)) continue;
    if (!Object.hasOwn(a, key)) sink.add(valueChange("removed", [...tokens, key], b[key], undefined));
    else walk(sink, b[key], a[key], [...tokens, key], rules, depth + 1);
  }
  for (const key of Object.keys(a)) {
    if (ignore?.has(key) || Object.hasOwn(b, key)) continue;
    sink.add(valueChange("added", [...tokens, key], undefined, a[key]));
  }
}

/** Adds the differences between two JSON values, below `tokens`, to the sink. */
export function diffJsonInto(sink: ChangeSink, before: unknown, after: unknown, tokens: Tokens = [], rules: JsonDiffRules = {}, depth = 0): void {
  walk(sink, before, after, tokens, rules, depth);
}

/** The differences between two JSON values, each at its pointer. */
export function diffJson(before: unknown, after: unknown, rules: JsonDiffRules & { readonly maxChanges?: number } = {}): DiffChange[] {
  const sink = new ChangeSink(rules.maxChanges);
  walk(sink, before, after, [], rules, 0);
  return sink.changes;
}

/** The last member name in a pointer's tokens, skipping array positions. */
export function lastName(tokens: Tokens): string | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) if (typeof tokens[i] === "string") return tokens[i] as string;
  return undefined;
}
