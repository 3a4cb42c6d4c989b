import type { JsonObject, ToolDescriptor } from "../../../core/fisk/codec/index.ts";
import { isJsonObject, parseJsonText } from "../../../core/json/index.ts";

/** What a tool without a schema is taken to accept. */
export const DEFAULT_INPUT_SCHEMA: JsonObject = { type: "object" };

export function inputSchemaOf(tool: ToolDescriptor | undefined): JsonObject {
  return isJsonObject(tool?.input_schema) ? tool.input_schema : DEFAULT_INPUT_SCHEMA;
}

function placeholder(schema: unknown): unknown {
  if (!isJsonObject(schema)) return null;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

/** A starting input: the schema's required properties with empty values of their types. */
export function inputSkeleton(schema: JsonObject): string {
  const props = isJsonObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = placeholder(props[name]);
  return JSON.stringify(out, null, 2);
}

export type ParsedInput = { readonly ok: true; readonly input: Record<string, unknown> | null } | { readonly ok: false; readonly error: string };

/** The typed input: empty text sends no `input` at all; anything else must be one JSON object. */
export function parseToolInput(text: string): ParsedInput {
  if (text.trim() === "") return { ok: true, input: null };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `the input is not valid JSON: ${parsed.message} at line ${parsed.line}, column ${parsed.column}` };
  if (!isJsonObject(parsed.value)) return { ok: false, error: "the input must be a JSON object (or empty for no input)" };
  return { ok: true, input: parsed.value };
}
