/**
 * Reading a JSON pointer in a step's answer body, and when it names nothing, saying where the
 * path ran out, so a failed assertion or capture points at the part of the answer that differs.
 */
import { jsonTypeName } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { arrayIndex, formatPointer, JsonPointerSyntaxError, parsePointer } from "../json/pointer.ts";

export type PointerRead =
  | { readonly found: true; readonly value: unknown }
  | { readonly found: false; readonly reason: string };

/** A pointer as a person reads it: "" is the whole body. */
export const pointerLabel = (pointer: string): string => (pointer === "" ? "the body" : pointer);

export function readPointer(body: unknown, pointer: string): PointerRead {
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch (err) {
    if (err instanceof JsonPointerSyntaxError) return { found: false, reason: err.message };
    throw err;
  }
  let at: unknown = body;
  if (at === undefined) return { found: false, reason: `nothing at ${pointerLabel(pointer)}: the step has no answer body` };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const parent = pointerLabel(formatPointer(tokens.slice(0, i)));
    const nothing = `nothing at ${pointerLabel(pointer)}`;
    if (Array.isArray(at)) {
      const index = arrayIndex(token);
      if (index === undefined) return { found: false, reason: `${nothing}: ${parent} is an array and "${token}" is not an index` };
      if (index >= at.length) return { found: false, reason: `${nothing}: ${parent} is an array of ${at.length} item${at.length === 1 ? "" : "s"}` };
      at = at[index];
    } else if (isJsonObject(at)) {
      if (!Object.hasOwn(at, token)) return { found: false, reason: `${nothing}: ${parent} has no member "${token}"` };
      at = at[token];
    } else {
      return { found: false, reason: `${nothing}: ${parent} is ${jsonTypeName(at)}, not an object or array` };
    }
  }
  return { found: true, value: at };
}
