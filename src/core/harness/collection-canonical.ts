/**
 * One spelling for each collection, so two saves of the same content are byte-identical and a
 * diff shows only what changed. Key order:
 *   collection  name, description, timeoutMs, targets, environments, secrets, steps
 *   step        name, target, timeoutMs, action, assert, capture
 *   target, action, assertion, secret: the field order in collection-fields.ts
 * Maps by name (targets, environments and their variables, secrets, headers, capture) are sorted
 * by name; free-form values (params, input, message, an expected value) have their object keys
 * sorted at every depth. Arrays keep their order. Fields outside the known set are dropped.
 */
import {
  A2A_ACTION_FIELDS,
  ASSERTION_FIELDS,
  COLLECTION_FIELDS,
  COUNT_FIELDS,
  MCP_ACTION_FIELDS,
  NATS_ACTION_FIELDS,
  SECRET_FIELDS,
  STEP_FIELDS,
  TARGET_FIELDS,
} from "./collection-fields.ts";
import type { Assertion, Collection, Step, StepAction, TargetSpec } from "./collection-types.ts";

type Loose = Readonly<Record<string, unknown>>;
type Shape = (value: unknown) => unknown;

/** An own member, even one named "__proto__" (a plain assignment would set the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Keys sorted at every depth; deeper than the codec allows, a value is kept as it is. */
export function sortedJson(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth > 256) return value;
  if (Array.isArray(value)) return value.map((item) => sortedJson(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) put(out, key, sortedJson((value as Loose)[key], depth + 1));
  return out;
}

/** The listed fields that are present, in the listed order, each shaped by `shapes` if named there. */
function ordered(value: Loose, fields: readonly string[], shapes: Readonly<Record<string, Shape>> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(value, field) || value[field] === undefined) continue;
    const shape = Object.hasOwn(shapes, field) ? shapes[field] : undefined;
    put(out, field, shape ? shape(value[field]) : value[field]);
  }
  return out;
}

/** A map by name, sorted, each entry shaped. */
const byName =
  (entry: Shape = (v) => v): Shape =>
  (value) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Loose).sort()) put(out, key, entry((value as Loose)[key]));
    return out;
  };

const FREE: Readonly<Record<string, Shape>> = { params: sortedJson, message: sortedJson, input: sortedJson, value: sortedJson };

function target(spec: TargetSpec): unknown {
  return ordered(spec as unknown as Loose, TARGET_FIELDS[spec.protocol], { headers: byName() });
}

function action(a: StepAction): unknown {
  const loose = a as unknown as Loose;
  if (a.protocol === "mcp") return ordered(loose, MCP_ACTION_FIELDS, FREE);
  if (a.protocol === "a2a") return ordered(loose, A2A_ACTION_FIELDS, FREE);
  return ordered(loose, NATS_ACTION_FIELDS[a.kind], { ...FREE, headers: byName() });
}

function assertion(a: Assertion): unknown {
  const count: Shape = (c) => (typeof c === "object" && c !== null ? ordered(c as Loose, COUNT_FIELDS) : c);
  return ordered(a as unknown as Loose, ASSERTION_FIELDS[a.kind], { ...FREE, count, order: (o) => [...(o as string[])] });
}

function step(s: Step): unknown {
  return ordered(s as unknown as Loose, STEP_FIELDS, {
    action: (a) => action(a as StepAction),
    assert: (list) => (list as Assertion[]).map(assertion),
    capture: byName(),
  });
}

/** The same collection with every key in its fixed order (see above). */
export function canonicalCollection(c: Collection): Collection {
  return ordered(c as unknown as Loose, COLLECTION_FIELDS, {
    targets: byName((t) => target(t as TargetSpec)),
    environments: byName(byName()),
    secrets: byName((s) => ordered(s as Loose, SECRET_FIELDS)),
    steps: (list) => (list as Step[]).map(step),
  }) as unknown as Collection;
}
