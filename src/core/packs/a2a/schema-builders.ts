/**
 * Constructors for the JSON Schema fragments the A2A packs are written in, so each pack reads as
 * a list of protocol facts (names, types, required members, consts) rather than schema syntax.
 */

export type Schema = Readonly<Record<string, unknown>>;

export const anything = (): Schema => ({});
export const str = (): Schema => ({ type: "string" });
export const bool = (): Schema => ({ type: "boolean" });
export const int = (): Schema => ({ type: "integer" });
/** A string that must be exactly `value`: a method name, a `kind` discriminator, "2.0". */
export const lit = (value: string): Schema => ({ type: "string", const: value });
export const oneOfStrings = (values: readonly string[]): Schema => ({ type: "string", enum: values });
export const arrayOf = (items: Schema): Schema => ({ type: "array", items });
export const strings = (): Schema => arrayOf(str());
/** An object whose members all match `values` (a map keyed by name). */
export const mapOf = (values: Schema): Schema => ({ type: "object", additionalProperties: values });
/** An object with any members: `metadata`, `params`, `data`. */
export const looseObject = (): Schema => ({ type: "object" });
export const anyOf = (...members: Schema[]): Schema => ({ anyOf: members });
export const timestamp = (): Schema => ({ type: "string", format: "date-time" });

export interface ObjectOptions {
  /** Refuse members not named in `properties` (the v1.0 ProtoJSON messages do). */
  readonly closed?: boolean;
}

/** An object with known members, the listed ones required. */
export function object(properties: Readonly<Record<string, Schema>>, required: readonly string[] = [], options: ObjectOptions = {}): Schema {
  for (const name of required) {
    if (!(name in properties)) throw new Error(`required member "${name}" is not a declared property`);
  }
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(options.closed ? { additionalProperties: false } : {}),
  };
}

/** Builds `$ref`s into one document's definitions container (`definitions` or `$defs`). */
export function refBuilder(container: "definitions" | "$defs"): (name: string) => Schema {
  return (name) => ({ $ref: `#/${container}/${name}` });
}

/** How one protocol version writes its JSON-RPC envelopes. */
export interface EnvelopeStyle {
  /** The request id's type. */
  readonly requestId: Schema;
  /** The response id's type (null allowed where the version allows it). */
  readonly responseId: Schema;
  /** Whether `jsonrpc` and `id` are required members (v0.1's schema requires neither). */
  readonly strict: boolean;
}

/** A request envelope for one method; `params` null when the method takes none. */
export function rpcRequest(style: EnvelopeStyle, method: string, params: Schema | null, paramsRequired = params !== null): Schema {
  const properties: Record<string, Schema> = { jsonrpc: lit("2.0"), id: style.requestId, method: lit(method) };
  if (params) properties.params = params;
  const required = style.strict ? ["jsonrpc", "id", "method"] : ["method"];
  if (paramsRequired) required.push("params");
  return object(properties, required);
}

/** A success response envelope carrying `result`. */
export function rpcSuccess(style: EnvelopeStyle, result: Schema): Schema {
  return object({ jsonrpc: lit("2.0"), id: style.responseId, result }, style.strict ? ["jsonrpc", "id", "result"] : ["result"]);
}

/** An error response envelope carrying `error`. */
export function rpcError(style: EnvelopeStyle, error: Schema): Schema {
  return object({ jsonrpc: lit("2.0"), id: style.responseId, error }, style.strict ? ["jsonrpc", "id", "error"] : ["error"]);
}
