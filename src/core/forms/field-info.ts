import type { EditorOnlyNode, EnumNode, EnumOption, FieldInfo, FormLimits, FormNode } from "./form-model.ts";
import { preview } from "./json-values.ts";

type Schema = Record<string, unknown>;

export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function typeList(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string");
}

const MAX_LABEL = 200;
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const NO_INFO: FieldInfo = {
  title: undefined,
  description: undefined,
  hasDefault: false,
  default: undefined,
  nullable: false,
  readOnly: false,
  deprecated: false,
};

/** The annotations of one schema: title, help text (cut to `maxDescription`), default, nullability. */
export function readInfo(schema: unknown, limits: FormLimits): FieldInfo {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return NO_INFO;
  const s = schema as Schema;
  const title = str(s.title)?.trim();
  const description = str(s.description)?.trim();
  return {
    title: title === undefined || title === "" ? undefined : cut(title, MAX_LABEL),
    description: description === undefined || description === "" ? undefined : cut(description, limits.maxDescription),
    hasDefault: Object.hasOwn(s, "default"),
    default: s.default,
    nullable: s.nullable === true || typeList(s.type).includes("null"),
    readOnly: s.readOnly === true,
    deprecated: s.deprecated === true,
  };
}

export function editorOnly(info: FieldInfo, reason: string): EditorOnlyNode {
  return { ...info, kind: "editor", reason };
}

/** How an option reads in a select: strings as they are, anything else as JSON. */
export const optionLabel = (value: unknown): string => (typeof value === "string" ? cut(value, MAX_LABEL) : preview(value, 80));

/** `enum` (labelled by the legacy `enumNames`) or `const`, as a closed list of options. */
export function enumNode(s: Schema, info: FieldInfo, limits: FormLimits): EnumNode | EditorOnlyNode {
  const isConst = Object.hasOwn(s, "const");
  const values = isConst ? [s.const] : s.enum;
  if (!Array.isArray(values)) return editorOnly(info, "its enum is not a list of values");
  if (values.length === 0) return editorOnly(info, "its enum lists no values, so no value is valid");
  if (values.length > limits.maxEnum) return editorOnly(info, `it lists ${values.length} choices, more than a form lists (${limits.maxEnum})`);
  const names = Array.isArray(s.enumNames) ? s.enumNames : [];
  const options: EnumOption[] = values.map((value, i) => ({ value, label: cut(str(names[i]) ?? optionLabel(value), MAX_LABEL) }));
  return { ...info, nullable: s.nullable === true, kind: "enum", options, isConst };
}

/** A union of titled constants (`oneOf: [{const, title}, …]`) reads as one enum. */
export function titledConsts(variants: readonly unknown[]): EnumOption[] | undefined {
  const options: EnumOption[] = [];
  for (const variant of variants) {
    if (typeof variant !== "object" || variant === null || Array.isArray(variant)) return undefined;
    const v = variant as Schema;
    if (!Object.hasOwn(v, "const")) return undefined;
    if (Object.keys(v).some((k) => !["const", "title", "description", "type"].includes(k))) return undefined;
    options.push({ value: v.const, label: cut(str(v.title) ?? optionLabel(v.const), MAX_LABEL) });
  }
  return options.length > 0 ? options : undefined;
}

/** A type in words, for variant labels and notes. */
export function kindLabel(node: FormNode): string {
  switch (node.kind) {
    case "number":
      return node.integer ? "integer" : "number";
    case "array":
      return `list of ${kindLabel(node.items)}`;
    case "enum":
      return node.isConst ? optionLabel(node.options[0]?.value) : "choice";
    case "editor":
      return "JSON";
    default:
      return node.kind;
  }
}
