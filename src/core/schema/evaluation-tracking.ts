import type { Ajv } from "ajv";

/**
 * Ajv2020 always generates code that tracks which members and items each subschema evaluated
 * (for `unevaluatedProperties` and `unevaluatedItems`) and passes dynamic anchors along (for
 * `$dynamicRef`). Tracking also stops an `anyOf` from ending at its first passing branch: every
 * branch runs, and each failing one builds its error objects, so that the evaluated members of all
 * passing branches are known. A document with none of these keywords reads none of that, and its
 * yes/no validators give the same answers without it.
 */

/** Keywords that read what tracking records. */
const TRACKED: ReadonlySet<string> = new Set(["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);

/** Keywords whose values are data, not schemas: a keyword's name inside them is no keyword. */
const DATA_KEYS: ReadonlySet<string> = new Set(["const", "enum", "default", "examples"]);

/** Whether any schema in the document uses a keyword that needs evaluation tracking. */
export function needsEvaluationTracking(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(needsEvaluationTracking);
  if (typeof node !== "object" || node === null) return false;
  for (const [key, value] of Object.entries(node)) {
    if (TRACKED.has(key)) return true;
    if (!DATA_KEYS.has(key) && needsEvaluationTracking(value)) return true;
  }
  return false;
}

/**
 * Switches tracking off for what the instance compiles from now on. ajv reads these options when
 * it generates a validator's code, so they must change after the document is added (its
 * meta-schema, which uses `$dynamicRef`, is compiled then) and before any definition is compiled.
 */
export function withoutEvaluationTracking(ajv: Ajv): void {
  const options = ajv.opts as { unevaluated?: boolean; dynamicRef?: boolean };
  options.unevaluated = false;
  options.dynamicRef = false;
}
