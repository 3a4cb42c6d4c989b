/**
 * Lint of one tool schema (inputSchema or outputSchema) without compiling it: the mistakes that
 * make a schema mean something other than its author intended, or that LLM clients trip on.
 * Whether it compiles at all is the schema compiler's question (asked in the validation worker).
 */
import { isJsonObject } from "../json/index.ts";
import { draftOf } from "../schema/compiler.ts";
import type { LintFinding, LintRule, LintSeverity } from "./tool-lint.ts";

/** About 8,000 tokens: the schema goes to the model with every request that offers the tool. */
export const HUGE_SCHEMA_CHARS = 32 * 1024;
/** Subschemas looked at before giving up; keeps a hostile schema from stalling the page. */
export const MAX_LINT_NODES = 5_000;
export const MAX_LINT_DEPTH = 48;

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const ONE_SCHEMA = ["additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const COMPOSITION = ["allOf", "anyOf", "oneOf", "$ref"];
/** Keywords that say what a value may be; a property with none of them accepts anything. */
const CONSTRAINING = ["type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not", "properties", "items"];

interface Walk {
  readonly root: Record<string, unknown>;
  readonly input: boolean;
  readonly findings: LintFinding[];
  nodes: number;
  stopped: boolean;
}

function escape(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function add(walk: Walk, rule: LintRule, severity: LintSeverity, pointer: string, message: string): void {
  walk.findings.push({ rule, severity, pointer, message });
}

/** True when a `#…` reference names a place inside the root schema. */
function resolves(root: unknown, ref: string): boolean {
  if (ref === "#") return true;
  let tokens: string[];
  try {
    tokens = decodeURIComponent(ref.slice(2)).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  } catch {
    return false;
  }
  let at: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(at)) at = at[Number(token)];
    else if (isJsonObject(at)) at = Object.hasOwn(at, token) ? at[token] : undefined;
    else return false;
  }
  return at !== undefined;
}

function checkType(walk: Walk, schema: Record<string, unknown>, pointer: string): void {
  if (!("type" in schema)) return;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const bad = types.filter((t) => typeof t !== "string" || !TYPES.has(t));
  if (bad.length > 0) {
    add(walk, "schema.type-unknown", "error", `${pointer}/type`, `"type" ${JSON.stringify(bad[0])} is not a JSON Schema type (object, array, string, number, integer, boolean, null); the schema would not compile.`);
  }
}

function checkRef(walk: Walk, schema: Record<string, unknown>, pointer: string): void {
  const ref = schema.$ref;
  if (ref === undefined) return;
  if (typeof ref !== "string") return add(walk, "schema.ref-unresolved", "error", `${pointer}/$ref`, `"$ref" is not a string; the schema would not compile.`);
  if (ref === "#" || ref.startsWith("#/")) {
    if (!resolves(walk.root, ref)) add(walk, "schema.ref-unresolved", "error", `${pointer}/$ref`, `"$ref" ${JSON.stringify(ref)} points at nothing inside this schema; the schema would not compile.`);
  } else if (!ref.startsWith("#")) {
    add(walk, "schema.ref-remote", "warning", `${pointer}/$ref`, `"$ref" ${JSON.stringify(ref)} points outside this schema; clients do not fetch other documents, so they cannot apply it.`);
  }
}

function checkObjectKeywords(walk: Walk, schema: Record<string, unknown>, pointer: string): void {
  const properties = isJsonObject(schema.properties) ? schema.properties : undefined;
  const closed = schema.additionalProperties === false;
  const patterns = isJsonObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0;
  if ("required" in schema) {
    const required = schema.required;
    if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) {
      add(walk, "schema.required-invalid", "error", `${pointer}/required`, `"required" must be an array of property names; the schema would not compile.`);
    } else {
      required.forEach((name: string, i) => {
        if (properties && Object.hasOwn(properties, name)) return;
        const impossible = closed && !patterns && !COMPOSITION.some((k) => k in schema);
        add(
          walk,
          "schema.required-unknown",
          impossible ? "error" : "warning",
          `${pointer}/required/${i}`,
          impossible
            ? `"${name}" is required but not among the properties, and additionalProperties is false: no value can pass.`
            : `"${name}" is required but not among the properties, so nothing describes it (a typo?).`,
        );
      });
    }
  }
  if (!closed) return;
  const composed = COMPOSITION.filter((k) => k in schema);
  if (composed.length > 0) {
    add(walk, "schema.closed-composition", "warning", `${pointer}/additionalProperties`, `additionalProperties: false does not see properties declared inside ${composed.join(", ")}, so it rejects them; use unevaluatedProperties: false (JSON Schema 2020-12) instead.`);
  } else if (!properties || Object.keys(properties).length === 0) {
    if (!patterns) add(walk, "schema.closed-empty", "info", `${pointer}/additionalProperties`, "additionalProperties is false and no properties are declared: only an empty object is accepted. Right for a tool that takes no arguments; a mistake otherwise.");
  }
}

function checkProperty(walk: Walk, value: unknown, pointer: string, name: string, topLevel: boolean): void {
  if (typeof value === "boolean") {
    // The MCP schema types each top-level property as an object; some clients refuse `true` (Go's interface{}).
    const severity: LintSeverity = topLevel ? "error" : "warning";
    const message = value
      ? `Property "${name}" is the schema true (any value). The MCP schema wants an object here and some clients reject it; use {} or a typed schema.`
      : `Property "${name}" is the schema false: no value can be given for it.`;
    return add(walk, "schema.property-boolean", severity, pointer, message);
  }
  if (!walk.input || !isJsonObject(value) || "$ref" in value) return;
  if (typeof value.description !== "string" || value.description.trim() === "") {
    add(walk, "schema.property-description", "info", pointer, `Property "${name}" has no description, so the model has only its name to go on.`);
  }
  if (!CONSTRAINING.some((k) => k in value)) add(walk, "schema.property-untyped", "info", pointer, `Property "${name}" says nothing about its type, so any value is accepted and the model has to guess.`);
}

function visit(walk: Walk, node: unknown, pointer: string, depth: number, topLevelProperties: boolean): void {
  if (walk.stopped) return;
  if (++walk.nodes > MAX_LINT_NODES || depth > MAX_LINT_DEPTH) {
    walk.stopped = true;
    const why = depth > MAX_LINT_DEPTH ? `it nests deeper than ${MAX_LINT_DEPTH} levels` : `it has more than ${MAX_LINT_NODES} subschemas`;
    return add(walk, "schema.too-complex", "warning", pointer, `The lint stopped here: ${why}. Models and clients handle such schemas poorly.`);
  }
  if (typeof node === "boolean") return;
  if (!isJsonObject(node)) return add(walk, "schema.not-a-schema", "error", pointer, `This is ${describe(node)}, not a schema (an object or a boolean); the schema would not compile.`);
  checkType(walk, node, pointer);
  checkRef(walk, node, pointer);
  checkObjectKeywords(walk, node, pointer);
  for (const key of ONE_SCHEMA) if (key in node) visit(walk, node[key], `${pointer}/${key}`, depth + 1, false);
  if ("items" in node) {
    if (Array.isArray(node.items)) node.items.forEach((s, i) => visit(walk, s, `${pointer}/items/${i}`, depth + 1, false));
    else visit(walk, node.items, `${pointer}/items`, depth + 1, false);
  }
  for (const key of SCHEMA_LISTS) {
    if (!(key in node)) continue;
    const list = node[key];
    if (!Array.isArray(list)) add(walk, "schema.not-a-schema", "error", `${pointer}/${key}`, `"${key}" must be an array of schemas; the schema would not compile.`);
    else list.forEach((s, i) => visit(walk, s, `${pointer}/${key}/${i}`, depth + 1, false));
  }
  for (const key of SCHEMA_MAPS) {
    if (!(key in node)) continue;
    const map = node[key];
    if (!isJsonObject(map)) {
      add(walk, "schema.not-a-schema", "error", `${pointer}/${key}`, `"${key}" must be an object of schemas; the schema would not compile.`);
      continue;
    }
    for (const [name, sub] of Object.entries(map)) {
      const at = `${pointer}/${key}/${escape(name)}`;
      if (key === "properties") checkProperty(walk, sub, at, name, topLevelProperties);
      visit(walk, sub, at, depth + 1, false);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The findings for one schema of a tool. `pointer` is where the schema sits in the tool
 * (`/inputSchema`); `input` turns on the rules about what the model sees when it fills arguments.
 */
export function lintSchema(schema: unknown, pointer: string, input: boolean): LintFinding[] {
  const which = input ? "inputSchema" : "outputSchema";
  if (!isJsonObject(schema)) {
    const hint = schema === true ? " (true, meaning anything)" : "";
    return [{ rule: "schema.not-object", severity: "error", pointer, message: `The ${which} is ${describe(schema)}${hint}; MCP requires a JSON Schema object with "type": "object".` }];
  }
  const walk: Walk = { root: schema, input, findings: [], nodes: 0, stopped: false };
  if (schema.type !== "object") {
    const got = "type" in schema ? `"type" is ${JSON.stringify(schema.type)}` : `there is no "type"`;
    add(walk, "schema.root-type", "error", "type" in schema ? `${pointer}/type` : pointer, `At the root of the ${which} ${got}; MCP requires "type": "object".`);
  }
  if (typeof schema.$schema === "string" && draftOf(schema.$schema) === undefined) {
    add(walk, "schema.dialect", "warning", `${pointer}/$schema`, `"$schema" names a dialect clients may not know (${schema.$schema}); they will fall back to their default draft.`);
  }
  if (input && !("additionalProperties" in schema) && !("unevaluatedProperties" in schema)) {
    add(walk, "schema.open-arguments", "info", pointer, "additionalProperties is absent, which JSON Schema reads as \"anything goes\": a misspelt argument reaches the tool unnoticed, and strict tool modes of some LLM APIs require additionalProperties: false.");
  }
  const size = JSON.stringify(schema).length;
  if (size > HUGE_SCHEMA_CHARS) {
    add(walk, "schema.huge", "warning", pointer, `The ${which} is ${Math.round(size / 1024)} KiB of JSON (about ${Math.round(size / 4)} tokens); it is sent to the model with every request that offers this tool.`);
  }
  visit(walk, schema, pointer, 0, true);
  return walk.findings;
}
