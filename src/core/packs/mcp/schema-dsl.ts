import type { McpVersion } from "./versions.ts";

/**
 * A small language for writing every MCP version's schema from one source. A definition is a tree
 * of plain JSON Schema fragments in which some nodes depend on the version (`since`, `until`,
 * `between`) or point at another definition (`ref`); `resolve` turns it into the plain schema of
 * one version, dropping whatever that version lacks.
 */

/** A fragment present from `from` (inclusive) up to `to` (exclusive); `otherwise` stands in elsewhere. */
class Versioned {
  readonly from: McpVersion | undefined;
  readonly to: McpVersion | undefined;
  readonly node: SchemaNode;
  readonly otherwise: SchemaNode | undefined;
  constructor(from: McpVersion | undefined, to: McpVersion | undefined, node: SchemaNode, otherwise: SchemaNode | undefined) {
    this.from = from;
    this.to = to;
    this.node = node;
    this.otherwise = otherwise;
  }
}

/** A reference to another definition of the same document, by name. */
class DefRef {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

export type SchemaNode = Versioned | DefRef | string | number | boolean | null | readonly SchemaNode[] | NodeObject;
export interface NodeObject {
  readonly [key: string]: SchemaNode;
}

/** Present from `version` on; `otherwise` (if given) before it. */
export function since(version: McpVersion, node: SchemaNode, otherwise?: SchemaNode): Versioned {
  return new Versioned(version, undefined, node, otherwise);
}

/** Present before `version` (exclusive); `otherwise` (if given) from it on. */
export function until(version: McpVersion, node: SchemaNode, otherwise?: SchemaNode): Versioned {
  return new Versioned(undefined, version, node, otherwise);
}

/** Present from `from` (inclusive) until `to` (exclusive). */
export function between(from: McpVersion, to: McpVersion, node: SchemaNode): Versioned {
  return new Versioned(from, to, node, undefined);
}

export function ref(name: string): DefRef {
  return new DefRef(name);
}

// Fragments. Keyword order follows no upstream file; only the constraints matter.

export const anything = (): NodeObject => ({});
export const str = (format?: string): NodeObject => (format ? { type: "string", format } : { type: "string" });
export const int = (): NodeObject => ({ type: "integer" });
export const num = (): NodeObject => ({ type: "number" });
export const bool = (): NodeObject => ({ type: "boolean" });
/** A string that must be exactly `value`: a method name, a content type, "2.0". */
export const lit = (value: string): NodeObject => ({ type: "string", const: value });
/** An integer that must be exactly `value`: an error code. */
export const code = (value: number): NodeObject => ({ type: "integer", const: value });
export const oneOfStrings = (...values: string[]): NodeObject => ({ type: "string", enum: values });
export const arr = (items: SchemaNode, extra: NodeObject = {}): NodeObject => ({ type: "array", items, ...extra });
/** A number in [0, 1], as MCP uses for priorities. */
export const unit = (): NodeObject => ({ type: "number", minimum: 0, maximum: 1 });
/** An object whose members are all `values`. */
export const record = (values: SchemaNode): NodeObject => ({ type: "object", additionalProperties: values });
/** An object with any members at all. */
export const looseObject = (): NodeObject => ({ type: "object" });
export const anyOf = (...members: SchemaNode[]): NodeObject => ({ anyOf: members });
export const allOf = (...members: SchemaNode[]): NodeObject => ({ allOf: members });

/**
 * An object with known properties. `required` may name properties that some versions lack; they
 * are dropped from those versions' lists, so a property declared `since(...)` is required only
 * where it exists.
 */
export function obj(properties: Record<string, SchemaNode>, required: readonly SchemaNode[] = [], extra: NodeObject = {}): NodeObject {
  return { type: "object", properties, required, ...extra };
}

const OMIT = Symbol("omit");

export interface ResolveContext {
  readonly version: McpVersion;
  /** `definitions` (draft-07) or `$defs` (2020-12). */
  readonly container: string;
}

function applies(node: Versioned, version: McpVersion): boolean {
  return (node.from === undefined || version >= node.from) && (node.to === undefined || version < node.to);
}

function resolveNode(node: SchemaNode, ctx: ResolveContext): unknown {
  if (node instanceof Versioned) {
    const chosen = applies(node, ctx.version) ? node.node : node.otherwise;
    return chosen === undefined ? OMIT : resolveNode(chosen, ctx);
  }
  if (node instanceof DefRef) return { $ref: `#/${ctx.container}/${node.name}` };
  if (Array.isArray(node)) {
    return node.map((item: SchemaNode) => resolveNode(item, ctx)).filter((item) => item !== OMIT);
  }
  if (node !== null && typeof node === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node as NodeObject)) {
      const resolved = resolveNode(value, ctx);
      if (resolved !== OMIT) out[key] = resolved;
    }
    return tidyRequired(out);
  }
  return node;
}

/** Keeps `required` to properties this version has, and drops it when nothing is left. */
function tidyRequired(schema: Record<string, unknown>): Record<string, unknown> {
  const required = schema.required;
  const properties = schema.properties;
  if (!Array.isArray(required) || typeof properties !== "object" || properties === null) return schema;
  const kept = required.filter((name) => typeof name === "string" && name in properties);
  if (kept.length === 0) delete schema.required;
  else schema.required = kept;
  return schema;
}

/** The plain schema of one version, or undefined when the node does not exist in that version. */
export function resolve(node: SchemaNode, ctx: ResolveContext): unknown {
  const resolved = resolveNode(node, ctx);
  return resolved === OMIT ? undefined : resolved;
}
