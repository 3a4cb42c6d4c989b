import { isJsonObject } from "../json/index.ts";
import { editorOnly, enumNode, kindLabel, num, readInfo, str, titledConsts, typeList } from "./field-info.ts";
import {
  DEFAULT_FORM_LIMITS,
  type ArrayNode,
  type FieldInfo,
  type FormLimits,
  type FormModel,
  type FormNode,
  type FormProperty,
  type FormVariant,
  type ObjectNode,
} from "./form-model.ts";
import { putOwn } from "./json-values.ts";
import { flatten, withSiblings } from "./schema-merge.ts";
import { RefResolver } from "./schema-refs.ts";

type Schema = Record<string, unknown>;
type Built = { readonly node: FormNode; readonly refName: string | undefined };

// Keywords of the union's own field, not of each variant: they label the choice itself.
const CHOICE_ANNOTATIONS = new Set(["oneOf", "anyOf", "title", "description", "default", "examples", "deprecated", "readOnly", "nullable"]);

/** The type a schema without `type` implies by its other keywords; undefined when it allows anything. */
function impliedTypes(s: Schema): string[] {
  if (["properties", "required", "additionalProperties", "patternProperties", "minProperties"].some((k) => Object.hasOwn(s, k))) return ["object"];
  if (["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"].some((k) => Object.hasOwn(s, k))) return ["array"];
  if (["minLength", "maxLength", "pattern", "format"].some((k) => Object.hasOwn(s, k))) return ["string"];
  if (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].some((k) => Object.hasOwn(s, k))) return ["number"];
  return [];
}

const nonEmpty = (v: unknown): boolean => isJsonObject(v) && Object.keys(v).length > 0;

class FormBuilder {
  nodes = 0;
  readonly #limits: FormLimits;
  readonly #resolver: RefResolver;
  // Reading schemas costs steps too (refs, allOf parts), bounded apart from the fields built.
  readonly #flatten: { budget: number };

  constructor(root: unknown, limits: FormLimits) {
    this.#limits = limits;
    this.#resolver = new RefResolver(root);
    this.#flatten = { budget: limits.maxNodes * 20 };
  }

  build(schema: unknown, depth: number, active: ReadonlySet<object>): Built {
    const raw = readInfo(schema, this.#limits);
    if (depth > this.#limits.maxDepth) return this.#plain(editorOnly(raw, `it is nested more than ${this.#limits.maxDepth} levels deep`));
    if (this.nodes >= this.#limits.maxNodes) return this.#plain(editorOnly(raw, `the schema is too large for a form (more than ${this.#limits.maxNodes} fields)`));
    this.nodes++;
    const ctx = { resolver: this.#resolver, active, budget: this.#flatten.budget };
    const flat = flatten(schema, ctx);
    this.#flatten.budget = ctx.budget;
    if (!flat.ok) return this.#plain(editorOnly(raw, flat.reason));
    const s = flat.schema;
    const inner = new Set([...active, ...flat.sources]);
    return { node: this.#node(s, readInfo(s, this.#limits), depth, inner), refName: flat.refName };
  }

  #plain(node: FormNode): Built {
    return { node, refName: undefined };
  }

  #node(s: Schema, info: FieldInfo, depth: number, active: ReadonlySet<object>): FormNode {
    if (Object.hasOwn(s, "not")) return editorOnly(info, "it uses `not`, which a form cannot express");
    if (Object.hasOwn(s, "if")) return editorOnly(info, "it uses if/then/else, so its shape depends on the value");
    if (Object.hasOwn(s, "oneOf") && Object.hasOwn(s, "anyOf")) return editorOnly(info, "it has both oneOf and anyOf");
    if (Object.hasOwn(s, "oneOf")) return this.#union("oneOf", s, info, depth, active);
    if (Object.hasOwn(s, "anyOf")) return this.#union("anyOf", s, info, depth, active);
    if (Object.hasOwn(s, "const") || Object.hasOwn(s, "enum")) return enumNode(s, info, this.#limits);
    const declared = typeList(s.type);
    const types = (declared.length > 0 ? declared : impliedTypes(s)).filter((t) => t !== "null");
    if (types.length === 0) {
      if (declared.includes("null")) return { ...info, kind: "null" };
      return editorOnly(info, "it accepts any JSON value, which only the editor can take");
    }
    if (types.length === 1) return this.#typed(types[0] as string, s, info, depth, active);
    const variants = types.map((type) => {
      this.nodes++;
      return { label: type, node: this.#typed(type, s, { ...info, nullable: false }, depth + 1, active) };
    });
    return { ...info, kind: "choice", keyword: "type", variants };
  }

  #typed(type: string, s: Schema, info: FieldInfo, depth: number, active: ReadonlySet<object>): FormNode {
    switch (type) {
      case "string":
        return { ...info, kind: "string", format: str(s.format), minLength: num(s.minLength), maxLength: num(s.maxLength), pattern: str(s.pattern) };
      case "number":
      case "integer": {
        // Draft-04 style: a boolean exclusiveMinimum makes `minimum` exclusive.
        const exMin = s.exclusiveMinimum === true ? num(s.minimum) : num(s.exclusiveMinimum);
        const exMax = s.exclusiveMaximum === true ? num(s.maximum) : num(s.exclusiveMaximum);
        return {
          ...info,
          kind: "number",
          integer: type === "integer",
          minimum: s.exclusiveMinimum === true ? undefined : num(s.minimum),
          maximum: s.exclusiveMaximum === true ? undefined : num(s.maximum),
          exclusiveMinimum: exMin,
          exclusiveMaximum: exMax,
          multipleOf: num(s.multipleOf),
        };
      }
      case "boolean":
        return { ...info, kind: "boolean" };
      case "object":
        return this.#object(s, info, depth, active);
      case "array":
        return this.#array(s, info, depth, active);
      default:
        return editorOnly(info, `its type "${type}" is not a JSON Schema type`);
    }
  }

  #object(s: Schema, info: FieldInfo, depth: number, active: ReadonlySet<object>): FormNode {
    const declared = isJsonObject(s.properties) ? Object.entries(s.properties) : [];
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
    const patterned = nonEmpty(s.patternProperties);
    const mapped = nonEmpty(s.additionalProperties);
    if (declared.length === 0 && patterned) return editorOnly(info, "its members have free-form names (patternProperties), which a form cannot list");
    if (declared.length === 0 && mapped) return editorOnly(info, "its members have free-form names (additionalProperties), which a form cannot list");
    const properties: FormProperty[] = [];
    const notes: string[] = [];
    for (const [name, schema] of declared) {
      if (this.nodes >= this.#limits.maxNodes) {
        notes.push(`${declared.length - properties.length} more members are left to the editor: the schema is too large for a form.`);
        break;
      }
      properties.push({ name, required: required.has(name), node: this.build(schema, depth + 1, active).node });
    }
    if (patterned) notes.push("Members whose names match its patternProperties are edited in the editor.");
    if (mapped) notes.push("Further members (additionalProperties) are edited in the editor.");
    const undeclared = [...required].filter((name) => !declared.some(([n]) => n === name));
    if (undeclared.length > 0) notes.push(`It requires members it does not describe: ${undeclared.slice(0, 10).join(", ")}.`);
    const node: ObjectNode = {
      ...info,
      kind: "object",
      properties,
      closed: s.additionalProperties === false || s.unevaluatedProperties === false,
      note: notes.length > 0 ? notes.join(" ") : undefined,
    };
    return node;
  }

  #array(s: Schema, info: FieldInfo, depth: number, active: ReadonlySet<object>): FormNode {
    if (Array.isArray(s.prefixItems) || Array.isArray(s.items)) return editorOnly(info, "it is a tuple (prefixItems): each position has its own schema");
    const items = this.build(s.items ?? true, depth + 1, active).node;
    if (items.kind === "editor") return editorOnly(info, `its items are edited in the editor: ${items.reason}`);
    const node: ArrayNode = { ...info, kind: "array", items, minItems: num(s.minItems), maxItems: num(s.maxItems), uniqueItems: s.uniqueItems === true };
    return node;
  }

  #union(keyword: "oneOf" | "anyOf", s: Schema, info: FieldInfo, depth: number, active: ReadonlySet<object>): FormNode {
    const list = s[keyword];
    if (!Array.isArray(list) || list.length === 0) return editorOnly(info, `its ${keyword} is not a list of schemas`);
    if (list.length > this.#limits.maxVariants) return editorOnly(info, `it offers ${list.length} variants, more than a form offers (${this.#limits.maxVariants})`);
    const consts = titledConsts(list);
    if (consts) return { ...info, nullable: s.nullable === true, kind: "enum", options: consts, isConst: false };
    const siblings: Schema = {};
    for (const [key, value] of Object.entries(s)) if (!CHOICE_ANNOTATIONS.has(key)) putOwn(siblings, key, value);
    let nullable = info.nullable;
    const variants: FormVariant[] = [];
    list.forEach((variant, i) => {
      const built = this.build(withSiblings(siblings, variant), depth + 1, active);
      if (built.node.kind === "null") nullable = true;
      else variants.push({ label: variantLabel(built, i), node: built.node });
    });
    if (variants.length === 0) return { ...info, kind: "null" };
    if (variants.length === 1) {
      // A union with null collapses to the one real shape, keeping the outer field's words.
      const only = (variants[0] as FormVariant).node;
      return {
        ...only,
        title: info.title ?? only.title,
        description: info.description ?? only.description,
        hasDefault: info.hasDefault || only.hasDefault,
        default: info.hasDefault ? info.default : only.default,
        nullable: nullable || only.nullable,
      };
    }
    return { ...info, nullable, kind: "choice", keyword, variants: uniqueLabels(variants) };
  }
}

/** A variant reads by its title, its discriminating constant, the name it was referenced by, or its type. */
function variantLabel(built: Built, index: number): string {
  const { node } = built;
  if (node.title !== undefined) return node.title;
  if (node.kind === "object") {
    const tag = node.properties.find((p) => p.node.kind === "enum" && p.node.isConst);
    if (tag && tag.node.kind === "enum") return `${tag.name}: ${kindLabel(tag.node)}`;
  }
  if (built.refName !== undefined) return built.refName;
  if (node.kind === "object") {
    // Variants that differ only in what they require (`oneOf: [{required: [a]}, {required: [b]}]`) read by it.
    const required = node.properties.filter((p) => p.required).map((p) => p.name);
    if (required.length > 0) return `with ${required.slice(0, 3).join(", ")}${required.length > 3 ? ", …" : ""}`;
  }
  return node.kind === "editor" ? `Option ${index + 1}` : kindLabel(node);
}

function uniqueLabels(variants: readonly FormVariant[]): FormVariant[] {
  const counts = new Map<string, number>();
  for (const v of variants) counts.set(v.label, (counts.get(v.label) ?? 0) + 1);
  return variants.map((v, i) => ((counts.get(v.label) ?? 0) > 1 ? { ...v, label: `${v.label} (${i + 1})` } : v));
}

/**
 * The form for a tool's `inputSchema` (draft-07 or 2020-12). Parts no form can express are
 * "editor only" fields that say why; a hostile schema meets the limits, never a hang.
 */
export function buildFormModel(schema: unknown, limits: Partial<FormLimits> = {}): FormModel {
  const builder = new FormBuilder(schema, { ...DEFAULT_FORM_LIMITS, ...limits });
  const { node } = builder.build(schema ?? true, 0, new Set());
  return { root: node, nodeCount: builder.nodes };
}
