import { isJsonObject } from "../../json/index.ts";

/**
 * The v1.0 rule walk follows the pack's own schema along the message. Schema nodes come in many
 * shapes, so reading `$ref`, `items` and `properties` off them on every message is slow; each node
 * is reduced once to a plan of one shape that says only what the walk follows.
 */

type SchemaNode = Readonly<Record<string, unknown>>;

export interface SchemaPlan {
  /** The definition a `$ref` names; the walk then follows nothing else of the node. */
  readonly definition: string | null;
  /** The plan for array items, when `items` is a schema object. */
  readonly items: SchemaPlan | null;
  /** Declared members: a member here never falls back to `extra`, even when its plan is a leaf. */
  readonly properties: ReadonlyMap<string, SchemaPlan> | null;
  /** The plan for undeclared members, when `additionalProperties` is a schema object. */
  readonly extra: SchemaPlan | null;
  /** Nothing to follow below: walking such a value finds nothing, so it is skipped. */
  readonly leaf: boolean;
}

const LEAF: SchemaPlan = { definition: null, items: null, properties: null, extra: null, leaf: true };
const PLANS = new WeakMap<object, SchemaPlan>();

/** The plan of a schema node, built on first use; a boolean or other non-object schema is a leaf. */
export function planOf(schema: unknown): SchemaPlan {
  if (!isJsonObject(schema)) return LEAF;
  let plan = PLANS.get(schema);
  if (!plan) PLANS.set(schema, (plan = build(schema)));
  return plan;
}

function build(schema: SchemaNode): SchemaPlan {
  const ref = schema.$ref;
  if (typeof ref === "string") return { definition: ref.slice(ref.lastIndexOf("/") + 1), items: null, properties: null, extra: null, leaf: false };
  const items = isJsonObject(schema.items) ? planOf(schema.items) : null;
  const declared = schema.properties as Readonly<Record<string, unknown>> | undefined;
  const properties = declared ? new Map(Object.keys(declared).map((key) => [key, planOf(declared[key])])) : null;
  const extra = isJsonObject(schema.additionalProperties) ? planOf(schema.additionalProperties) : null;
  const leaf = (items === null || items.leaf) && (extra === null || extra.leaf) && ![...(properties?.values() ?? [])].some((p) => !p.leaf);
  return { definition: null, items, properties, extra, leaf };
}
