/**
 * Two tool lists compared by tool name: MCP tools (name, title, description, inputSchema,
 * outputSchema, annotations, anything else) and fisk-ai card tools (name, description,
 * input_schema, behavior). Schemas are compared as schemas; other members at their pointers.
 */
import { jsonTypeName } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { NAMESPACE } from "../packs/fisk-ai/protocol.ts";
import { ChangeSink, DiffInputError, diffJsonInto, type DiffChange, DIFF_MAX_DEPTH } from "./diff-json.ts";
import { diffSchemaInto } from "./diff-schema.ts";

export interface ToolSummary {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
}

export interface ToolChange {
  readonly name: string;
  /** Members other than the schemas, pointers from the tool (`/description`, `/annotations/readOnlyHint`). */
  readonly fields: readonly DiffChange[];
  /** Pointers into the input schema (`/properties/options/properties/depth`). */
  readonly inputSchema: readonly DiffChange[];
  readonly outputSchema: readonly DiffChange[];
}

export interface ToolListDiff {
  readonly added: readonly ToolSummary[];
  readonly removed: readonly ToolSummary[];
  readonly changed: readonly ToolChange[];
  readonly unchanged: readonly string[];
  /** Entries that could not be compared (no name) or names given twice, by side and position. */
  readonly problems: readonly string[];
}

export interface ToolDiffOptions {
  readonly maxDepth?: number;
  readonly maxChanges?: number;
}

interface NormalTool {
  readonly key: string;
  readonly summary: ToolSummary;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  /** Everything else, by member name. */
  readonly rest: Record<string, unknown>;
}

/** fisk-ai sends no input_schema for a tool without arguments; it means this. */
const FISK_DEFAULT_SCHEMA = { type: "object" };

/** A fisk-ai card or discovery reply: tools without MCP's camelCase schema member. */
function isFiskWrapper(v: Record<string, unknown>): boolean {
  return (typeof v.protocol === "string" && v.protocol.startsWith(`${NAMESPACE}.`)) || Array.isArray(v.protocols);
}

/** The tool array of a list, a tools/list result or response, or a fisk-ai card. */
function toolArray(value: unknown, side: string): { tools: readonly unknown[]; fisk: boolean } {
  if (Array.isArray(value)) return { tools: value, fisk: false };
  if (isJsonObject(value)) {
    if (Array.isArray(value.tools)) return { tools: value.tools, fisk: isFiskWrapper(value) };
    if (isJsonObject(value.result) && Array.isArray(value.result.tools)) return { tools: value.result.tools, fisk: false };
  }
  throw new DiffInputError(`${side}: expected an array of tools, a tools/list result or a fisk-ai card with "tools", got ${jsonTypeName(value)}`);
}

function normalise(value: unknown, side: string, problems: string[]): Map<string, NormalTool> {
  const { tools, fisk } = toolArray(value, side);
  const out = new Map<string, NormalTool>();
  const seen = new Map<string, number>();
  tools.forEach((t, i) => {
    if (!isJsonObject(t) || typeof t.name !== "string") {
      problems.push(`${side}[${i}]: a tool must be an object with a string "name"; got ${jsonTypeName(isJsonObject(t) ? t.name : t)}, not compared`);
      return;
    }
    const count = (seen.get(t.name) ?? 0) + 1;
    seen.set(t.name, count);
    if (count > 1) problems.push(`${side}[${i}]: tool ${JSON.stringify(t.name)} is listed ${count} times; compared as "${t.name} #${count}"`);
    const key = count === 1 ? t.name : `${t.name} #${count}`;
    const fiskTool = fisk || "input_schema" in t || "behavior" in t;
    const { name, inputSchema, input_schema, outputSchema, ...rest } = t;
    const summary: ToolSummary = {
      name: name as string,
      ...(typeof t.title === "string" ? { title: t.title } : {}),
      ...(typeof t.description === "string" ? { description: t.description } : {}),
    };
    const input = inputSchema ?? input_schema ?? (fiskTool ? FISK_DEFAULT_SCHEMA : undefined);
    out.set(key, { key, summary, inputSchema: input, outputSchema, rest });
  });
  return out;
}

function compareTool(b: NormalTool, a: NormalTool, options: ToolDiffOptions): ToolChange {
  const maxDepth = options.maxDepth ?? DIFF_MAX_DEPTH;
  const fields = new ChangeSink(options.maxChanges);
  diffJsonInto(fields, b.rest, a.rest, [], { maxDepth });
  const input = new ChangeSink(options.maxChanges);
  diffSchemaInto(input, b.inputSchema, a.inputSchema, [], maxDepth);
  const output = new ChangeSink(options.maxChanges);
  diffSchemaInto(output, b.outputSchema, a.outputSchema, [], maxDepth);
  return { name: a.key, fields: fields.changes, inputSchema: input.changes, outputSchema: output.changes };
}

/**
 * What changed between two tool lists: tools added and removed (by name, in list order), and
 * for tools in both, their member and schema changes. Throws DiffInputError for a side that is
 * not a list of tools; entries without a name are listed in `problems` and left out.
 */
export function diffToolLists(before: unknown, after: unknown, options: ToolDiffOptions = {}): ToolListDiff {
  const problems: string[] = [];
  const b = normalise(before, "before", problems);
  const a = normalise(after, "after", problems);
  const added: ToolSummary[] = [];
  const removed: ToolSummary[] = [];
  const changed: ToolChange[] = [];
  const unchanged: string[] = [];
  for (const [key, tool] of b) {
    const other = a.get(key);
    if (!other) {
      removed.push(tool.summary);
      continue;
    }
    const change = compareTool(tool, other, options);
    if (change.fields.length + change.inputSchema.length + change.outputSchema.length === 0) unchanged.push(key);
    else changed.push(change);
  }
  for (const [key, tool] of a) if (!b.has(key)) added.push(tool.summary);
  return { added, removed, changed, unchanged, problems };
}

/** True when the diff found nothing to show. */
export const toolListsEqual = (d: ToolListDiff): boolean => d.added.length + d.removed.length + d.changed.length === 0;
