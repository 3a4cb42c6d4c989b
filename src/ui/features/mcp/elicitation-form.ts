import { isJsonObject } from "../../../core/json/index.ts";

/** One choice of a select field: the value sent and the words shown. */
export interface ElicitOption {
  readonly value: string;
  readonly label: string;
}

/** A field of an elicitation form, read from one property of the flat requestedSchema. */
export interface ElicitField {
  readonly name: string;
  readonly label: string;
  readonly description: string | undefined;
  readonly required: boolean;
  readonly kind: "text" | "number" | "integer" | "boolean" | "select" | "multi";
  /** A string's format (email, uri, date, date-time), which picks the input type. */
  readonly format: string | undefined;
  readonly options: readonly ElicitOption[];
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly default: unknown;
}

/** What the user typed per field: text and numbers as typed, booleans as checked, selections as values. */
export type ElicitValue = string | boolean | string[];
export type ElicitValues = Record<string, ElicitValue>;

export interface ElicitForm {
  readonly fields: readonly ElicitField[];
  /** Properties this form cannot ask for (nested objects and the like); they are left out of the answer. */
  readonly unsupported: readonly string[];
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Choices from `enum` (labelled by the legacy `enumNames`) or from titled `oneOf`/`anyOf` consts. */
function optionsOf(schema: Record<string, unknown>): ElicitOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((v): v is string => typeof v === "string").map((value, i) => ({ value, label: str(names[i]) ?? value }));
  }
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!titled) return undefined;
  return titled.filter(isJsonObject).flatMap((o) => (typeof o.const === "string" ? [{ value: o.const, label: str(o.title) ?? o.const }] : []));
}

function kindOf(schema: Record<string, unknown>, options: ElicitOption[] | undefined): ElicitField["kind"] | undefined {
  switch (schema.type) {
    case "string":
      return options ? "select" : "text";
    case "number":
    case "integer":
    case "boolean":
      return schema.type;
    case "array":
      return options ? "multi" : undefined;
    default:
      return undefined;
  }
}

/**
 * Reads the fields of a form-mode requestedSchema; anything not a flat primitive is named as
 * unsupported. Multi-select (array) answers exist from 2025-11-25: `multiSelect: false` leaves
 * such fields out for older versions, so the answer stays valid for the session.
 */
export function elicitForm(requestedSchema: unknown, options: { readonly multiSelect?: boolean } = {}): ElicitForm {
  const multiSelect = options.multiSelect ?? true;
  const properties = isJsonObject(requestedSchema) && isJsonObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = isJsonObject(requestedSchema) && Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  const fields: ElicitField[] = [];
  const unsupported: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isJsonObject(schema)) {
      unsupported.push(name);
      continue;
    }
    const options = schema.type === "array" ? (isJsonObject(schema.items) ? optionsOf(schema.items) : undefined) : optionsOf(schema);
    const kind = kindOf(schema, options);
    if (!kind || (kind === "multi" && !multiSelect)) {
      unsupported.push(name);
      continue;
    }
    fields.push({
      name,
      label: str(schema.title) ?? name,
      description: str(schema.description),
      required: required.includes(name),
      kind,
      format: str(schema.format),
      options: options ?? [],
      min: num(schema.minimum) ?? num(schema.minItems),
      max: num(schema.maximum) ?? num(schema.maxItems),
      minLength: num(schema.minLength),
      maxLength: num(schema.maxLength),
      default: schema.default,
    });
  }
  return { fields, unsupported };
}

/** The starting values: each field's default where it fits, else empty. */
export function initialValues(fields: readonly ElicitField[]): ElicitValues {
  const values: ElicitValues = {};
  for (const f of fields) {
    const d = f.default;
    if (f.kind === "boolean") values[f.name] = d === true;
    else if (f.kind === "multi") values[f.name] = Array.isArray(d) ? d.filter((v): v is string => typeof v === "string") : [];
    else if (f.kind === "select") values[f.name] = typeof d === "string" ? d : "";
    else values[f.name] = typeof d === "string" || typeof d === "number" ? String(d) : "";
  }
  return values;
}

export type ElicitContent = Record<string, string | number | boolean | string[]>;

/** Checks one field's value and converts it for the answer; undefined means "leave it out". */
function convert(f: ElicitField, v: ElicitValue | undefined): { value?: ElicitContent[string]; error?: string } {
  if (f.kind === "boolean") return { value: v === true };
  if (f.kind === "multi") {
    const chosen = Array.isArray(v) ? v : [];
    if (chosen.length === 0 && !f.required) return {};
    if (f.min !== undefined && chosen.length < f.min) return { error: `Choose at least ${f.min}` };
    if (f.max !== undefined && chosen.length > f.max) return { error: `Choose at most ${f.max}` };
    return { value: chosen };
  }
  const text = typeof v === "string" ? (f.kind === "text" ? v : v.trim()) : "";
  if (text === "") return f.required ? { error: "Required" } : {};
  if (f.kind === "select") return f.options.some((o) => o.value === text) ? { value: text } : { error: "Choose one of the options" };
  if (f.kind === "text") {
    if (f.minLength !== undefined && text.length < f.minLength) return { error: `At least ${f.minLength} characters` };
    if (f.maxLength !== undefined && text.length > f.maxLength) return { error: `At most ${f.maxLength} characters` };
    return { value: text };
  }
  const n = Number(text);
  if (!Number.isFinite(n)) return { error: "Not a number" };
  if (f.kind === "integer" && !Number.isInteger(n)) return { error: "Not a whole number" };
  if (f.min !== undefined && n < f.min) return { error: `At least ${f.min}` };
  if (f.max !== undefined && n > f.max) return { error: `At most ${f.max}` };
  return { value: n };
}

/** The accept content for the values, or the per-field errors that keep it from being sent. */
export function buildContent(
  fields: readonly ElicitField[],
  values: ElicitValues,
): { ok: true; content: ElicitContent } | { ok: false; errors: Record<string, string> } {
  const content: ElicitContent = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const { value, error } = convert(f, values[f.name]);
    if (error !== undefined) errors[f.name] = error;
    else if (value !== undefined) content[f.name] = value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}
