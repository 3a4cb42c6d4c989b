import { isJsonObject } from "../json/index.ts";

/**
 * Sets an own member, even one named "__proto__": a plain assignment would replace the object's
 * prototype instead, and the member would vanish from the JSON.
 */
export function putOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A shallow copy that keeps every own member, "__proto__" included. */
export function copyObject(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) putOwn(out, key, value);
  return out;
}

/** Structural equality of JSON values; bounded in depth so a hostile value cannot exhaust the stack. */
export function jsonEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > 64 || typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i], depth + 1));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key], depth + 1));
}

/** A short one-line rendering of a value for labels and notes. */
export function preview(value: unknown, max = 60): string {
  let text: string;
  try {
    text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The JSON type of a value, in the words a note uses. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return "a boolean";
  return "nothing";
}
