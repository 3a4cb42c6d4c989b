/**
 * The pieces the collection checker is built from: a problem list with RFC 6901 pointers, and
 * checks for one field at a time that report and carry on, so one pass names every problem.
 * Every walk is bounded (depth, values, problems), so hostile input gives problems, not a hang.
 */
import { jsonTypeName, preview } from "../forms/json-values.ts";
import { formatPointer, JsonPointerSyntaxError, parsePointer } from "../json/pointer.ts";
import { nearestNames } from "../validation/near-miss.ts";
import { IDENTIFIER } from "./variables.ts";

export interface CollectionProblem {
  /** RFC 6901 pointer into the collection document ("" is the whole document). */
  readonly pointer: string;
  readonly message: string;
}

export const LIMITS = {
  steps: 10_000,
  targets: 200,
  environments: 100,
  /** Entries of any other map (variables, headers, secrets, captures) and items of any other list. */
  entries: 10_000,
  assertions: 1_000,
  stringChars: 1024 * 1024,
  timeoutMs: 3_600_000,
  /** Nesting of a free-form value (params, input, message, an expected value). */
  depth: 64,
  /** Values in free-form JSON across the whole document. */
  values: 1_000_000,
  problems: 1_000,
} as const;

/** The rule for names a `{{name}}` reference must be able to spell. */
export const NAME_RULE = {
  test: (name: string): boolean => IDENTIFIER.test(name),
  rule: "letters, digits and _, not starting with a digit, so {{name}} can refer to it",
};

export type JsonRecord = Record<string, unknown>;

/** Collects problems; past the limit it only counts them. */
export class Checker {
  readonly problems: CollectionProblem[] = [];
  dropped = 0;
  values = 0;
  valuesReported = false;

  add(pointer: string, message: string): void {
    if (this.problems.length < LIMITS.problems) this.problems.push({ pointer, message });
    else this.dropped++;
  }
}

export const at = (pointer: string, key: string | number): string => pointer + formatPointer([key]);

/** A name as written, cut short when long, for messages that quote it. */
export const named = (name: string, max = 60): string => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

export const count = (n: number): string => n.toLocaleString("en-US");

/** A plain object, as JSON.parse makes them: not an array, a class instance or a Map. */
export function isPlainObject(value: unknown): value is JsonRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** What a wrong value is, for "must be X; got Y". */
export function described(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") return `a ${typeof value}`;
  if (typeof value === "object" && value !== null && !Array.isArray(value) && !isPlainObject(value)) return "an object that is not plain JSON";
  const type = jsonTypeName(value);
  return typeof value === "object" ? type : `${type} (${preview(value, 40)})`;
}

export function objectAt(ck: Checker, value: unknown, pointer: string, what: string): JsonRecord | undefined {
  if (isPlainObject(value)) return value;
  ck.add(pointer, `${what} must be an object; got ${described(value)}`);
  return undefined;
}

/** Reports each field not in `known`, with the nearest known name when one is close. */
export function knownFields(ck: Checker, obj: JsonRecord, pointer: string, known: readonly string[], what = ""): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const near = nearestNames(key, known)[0];
    const hint = near ? ` (did you mean '${near.name}'?)` : ` (known fields${what}: ${known.join(", ")})`;
    ck.add(pointer, `unknown field '${named(key)}'${hint}`);
  }
}

export function isString(ck: Checker, value: unknown, pointer: string): value is string {
  if (typeof value !== "string") {
    ck.add(pointer, `must be a string; got ${described(value)}`);
    return false;
  }
  if (value.length > LIMITS.stringChars) {
    ck.add(pointer, `is ${count(value.length)} characters long; at most ${count(LIMITS.stringChars)} are allowed`);
    return false;
  }
  return true;
}

/** A field's string value, or undefined after reporting why not (or because it is absent and optional). */
export function stringField(
  ck: Checker,
  obj: JsonRecord,
  key: string,
  pointer: string,
  opts: { readonly required?: boolean; readonly nonEmpty?: boolean } = {},
): string | undefined {
  if (!Object.hasOwn(obj, key)) {
    if (opts.required) ck.add(pointer, `missing required field '${key}'`);
    return undefined;
  }
  const value = obj[key];
  const where = at(pointer, key);
  if (!isString(ck, value, where)) return undefined;
  if (opts.nonEmpty && value.trim() === "") {
    ck.add(where, "must not be empty");
    return undefined;
  }
  return value;
}

/** One of a fixed set of strings. */
export function choiceField<T extends string>(
  ck: Checker,
  obj: JsonRecord,
  key: string,
  pointer: string,
  choices: readonly T[],
  required: boolean,
  label: string = key,
): T | undefined {
  const value = stringField(ck, obj, key, pointer, { required });
  if (value === undefined) return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  const near = nearestNames(value, choices)[0];
  const hint = near ? `did you mean '${near.name}'?` : `expected one of ${choices.join(", ")}`;
  ck.add(at(pointer, key), `'${named(value)}' is not a known ${label}: ${hint}`);
  return undefined;
}

export function integerField(ck: Checker, obj: JsonRecord, key: string, pointer: string, min: number, max: number): number | undefined {
  if (!Object.hasOwn(obj, key)) return undefined;
  const value = obj[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    ck.add(at(pointer, key), `must be an integer from ${count(min)} to ${count(max)}; got ${described(value)}`);
    return undefined;
  }
  return value;
}

export function timeoutField(ck: Checker, obj: JsonRecord, pointer: string): void {
  integerField(ck, obj, "timeoutMs", pointer, 1, LIMITS.timeoutMs);
}

export function booleanField(ck: Checker, obj: JsonRecord, key: string, pointer: string): void {
  if (Object.hasOwn(obj, key) && typeof obj[key] !== "boolean") ck.add(at(pointer, key), `must be true or false; got ${described(obj[key])}`);
}

/** A well-formed RFC 6901 pointer. */
export function pointerValue(ck: Checker, value: unknown, pointer: string): boolean {
  if (!isString(ck, value, pointer)) return false;
  try {
    parsePointer(value);
    return true;
  } catch (err) {
    if (!(err instanceof JsonPointerSyntaxError)) throw err;
    ck.add(pointer, err.message);
    return false;
  }
}

/**
 * A map by name: an object of at most `limit` entries, each key non-empty (and identifier-like
 * when `identifier` says why), each value handed to `each`.
 */
export function mapAt(
  ck: Checker,
  value: unknown,
  pointer: string,
  what: string,
  limit: number,
  each: (key: string, item: unknown, pointer: string) => void,
  identifier?: { readonly test: (name: string) => boolean; readonly rule: string },
): JsonRecord | undefined {
  const obj = objectAt(ck, value, pointer, what);
  if (!obj) return undefined;
  const keys = Object.keys(obj);
  if (keys.length > limit) {
    ck.add(pointer, `${what} has ${count(keys.length)} entries; at most ${count(limit)} are allowed`);
    return undefined;
  }
  for (const key of keys) {
    const where = at(pointer, key);
    if (key.trim() === "") ck.add(where, `a name in ${what} must not be empty`);
    else if (key.length > LIMITS.stringChars) ck.add(where, `a name in ${what} is longer than ${count(LIMITS.stringChars)} characters`);
    else if (identifier && !identifier.test(key)) ck.add(where, `'${named(key)}' is not a valid name: ${identifier.rule}`);
    each(key, obj[key], where);
  }
  return obj;
}

/** Free-form JSON: plain objects, arrays, finite numbers, strings, booleans, null; bounded. */
export function jsonValue(ck: Checker, value: unknown, pointer: string, depth = 0): void {
  if (++ck.values > LIMITS.values) {
    if (!ck.valuesReported) ck.add(pointer, `the document holds more than ${count(LIMITS.values)} values`);
    ck.valuesReported = true;
    return;
  }
  if (value === null || typeof value === "boolean") return;
  if (typeof value === "string") {
    isString(ck, value, pointer);
    return;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) ck.add(pointer, `must be a finite number; got ${String(value)}`);
    return;
  }
  if (Array.isArray(value) || isPlainObject(value)) {
    if (depth >= LIMITS.depth) {
      ck.add(pointer, `nests deeper than ${LIMITS.depth} levels`);
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && !ck.valuesReported; i++) jsonValue(ck, value[i], at(pointer, i), depth + 1);
    } else {
      for (const key of Object.keys(value)) {
        if (ck.valuesReported) break;
        if (key.length > LIMITS.stringChars) ck.add(pointer, `has a member name longer than ${count(LIMITS.stringChars)} characters`);
        else jsonValue(ck, value[key], at(pointer, key), depth + 1);
      }
    }
    return;
  }
  ck.add(pointer, `must be a JSON value; got ${described(value)}`);
}
