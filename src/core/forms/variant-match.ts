import { isJsonObject } from "../json/index.ts";
import type { ChoiceNode, FormNode } from "./form-model.ts";
import { jsonEqual } from "./json-values.ts";

/** A value that cannot belong to the node. */
const MISMATCH = Number.NEGATIVE_INFINITY;
/** How deep matching looks into members and items; deeper parts count as neutral. */
const MAX_MATCH_DEPTH = 8;
/** Array items sampled when matching. */
const SAMPLE_ITEMS = 5;

/** Whether the value has the node's JSON type (members and items not looked at); absent always fits. */
export function fits(node: FormNode, value: unknown): boolean {
  if (value === undefined) return true;
  if (value === null && node.nullable) return true;
  switch (node.kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && (!node.integer || Number.isInteger(value));
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "enum":
      return node.options.some((o) => jsonEqual(o.value, value));
    case "object":
      return isJsonObject(value);
    case "array":
      return Array.isArray(value);
    case "choice":
      return node.variants.some((v) => fits(v.node, value));
    case "editor":
      return true;
  }
}

function objectScore(node: Extract<FormNode, { kind: "object" }>, value: Record<string, unknown>, depth: number): number {
  let score = 1;
  for (const property of node.properties) {
    if (!Object.hasOwn(value, property.name)) {
      if (property.required) score -= 1;
      continue;
    }
    const s = matchScore(property.node, value[property.name], depth + 1);
    // A constant member that differs (a discriminator such as `kind: "circle"`) rules the variant out.
    if (s === MISMATCH && property.node.kind === "enum") return MISMATCH;
    score += s === MISMATCH ? -1 : 1 + s / 4;
  }
  if (node.closed) {
    for (const key of Object.keys(value)) if (!node.properties.some((p) => p.name === key)) score -= 2;
  }
  return score;
}

/**
 * How well a value fits a node: MISMATCH when it cannot, higher for a closer fit. Constants
 * and discriminating members weigh most, so the variant the value was written for wins.
 */
export function matchScore(node: FormNode, value: unknown, depth = 0): number {
  if (value === undefined || depth > MAX_MATCH_DEPTH) return 0;
  if (value === null && node.kind !== "enum" && node.kind !== "null") return node.nullable ? 1 : MISMATCH;
  switch (node.kind) {
    case "enum":
      return node.options.some((o) => jsonEqual(o.value, value)) ? 4 : MISMATCH;
    case "object":
      return isJsonObject(value) ? objectScore(node, value, depth) : MISMATCH;
    case "array": {
      if (!Array.isArray(value)) return MISMATCH;
      let score = 2;
      for (const item of value.slice(0, SAMPLE_ITEMS)) score += matchScore(node.items, item, depth + 1) === MISMATCH ? -1 : 0.5;
      return score;
    }
    case "choice":
      return Math.max(...node.variants.map((v) => matchScore(v.node, value, depth + 1)));
    case "editor":
      return 0;
    default:
      return fits(node, value) ? 2 : MISMATCH;
  }
}

/** The variant the value was written for (the first when it is absent), and whether it fits at all. */
export function pickVariant(node: ChoiceNode, value: unknown): { readonly index: number; readonly fits: boolean } {
  if (value === undefined) return { index: 0, fits: true };
  let best = 0;
  let bestScore = MISMATCH;
  node.variants.forEach((variant, i) => {
    const score = matchScore(variant.node, value);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return { index: best, fits: bestScore !== MISMATCH };
}
