import { isJsonObject } from "../../json/index.ts";
import { tagIssues } from "./behaviour-tags.ts";
import {
  BUILTIN_TOOLS,
  type BuiltinTool,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_TOOL_TIMEOUT_MS,
  TOOLKIT_FORMAT,
  TOOLKIT_VERSION,
  type ToolDef,
  type ToolImpl,
  type Toolkit,
  type ToolkitIssue,
} from "./toolkit-types.ts";

export const MAX_TOOLS = 1_000;
const IDENTITY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface ReadToolkitResult {
  /** Absent when the file as a whole cannot be used; tools with errors are left out and reported. */
  readonly toolkit?: Toolkit;
  readonly issues: readonly ToolkitIssue[];
}

class Issues {
  readonly list: ToolkitIssue[] = [];
  error(pointer: string, message: string): void {
    this.list.push({ pointer, message, severity: "error" });
  }
  warn(pointer: string, message: string): void {
    this.list.push({ pointer, message, severity: "warning" });
  }
}

function stringList(value: unknown, pointer: string, issues: Issues): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    issues.error(pointer, "must be a list of strings");
    return [];
  }
  return value as string[];
}

function readImpl(raw: unknown, schema: Readonly<Record<string, unknown>>, at: string, issues: Issues): ToolImpl | undefined {
  if (!isJsonObject(raw)) return void issues.error(at, 'must be an object: {"builtin": name} or {"command": [program, …]}');
  if ("builtin" in raw) {
    if (!BUILTIN_TOOLS.includes(raw.builtin as BuiltinTool)) return void issues.error(`${at}/builtin`, `must be one of ${BUILTIN_TOOLS.join(", ")}`);
    return { kind: "builtin", builtin: raw.builtin as BuiltinTool };
  }
  const argv = raw.command;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string" && a !== "" && !a.includes("\0"))) {
    return void issues.error(`${at}/command`, "must be a non-empty list of non-empty strings: the program, then fixed arguments (no shell is used)");
  }
  const declared = isJsonObject(schema.properties) ? schema.properties : {};
  const positionals = stringList(raw.positionals, `${at}/positionals`, issues);
  const undeclared = positionals.find((p) => !Object.hasOwn(declared, p));
  if (undeclared !== undefined) return void issues.error(`${at}/positionals`, `"${undeclared}" is not a property of the input schema`);
  const timeoutMs = raw.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TOOL_TIMEOUT_MS) {
    return void issues.error(`${at}/timeoutMs`, `must be a whole number of milliseconds from 1 to ${MAX_TOOL_TIMEOUT_MS}`);
  }
  const env = raw.env ?? {};
  if (!isJsonObject(env) || !Object.values(env).every((v) => typeof v === "string")) return void issues.error(`${at}/env`, "must map names to strings");
  if (raw.cwd !== undefined && typeof raw.cwd !== "string") return void issues.error(`${at}/cwd`, "must be a string");
  return {
    kind: "command",
    argv: argv as string[],
    positionals,
    timeoutMs,
    env: env as Record<string, string>,
    ...(typeof raw.cwd === "string" ? { cwd: raw.cwd } : {}),
  };
}

function readTool(raw: unknown, at: string, issues: Issues): ToolDef | undefined {
  const before = issues.list.filter((i) => i.severity === "error").length;
  if (!isJsonObject(raw)) return void issues.error(at, "must be an object");
  const name = raw.name;
  if (typeof name !== "string" || name === "") issues.error(`${at}/name`, "must be a non-empty string");
  if (raw.description !== undefined && typeof raw.description !== "string") issues.error(`${at}/description`, "must be a string");
  if (raw.title !== undefined && typeof raw.title !== "string") issues.error(`${at}/title`, "must be a string");
  let inputSchema: Record<string, unknown> = { type: "object" };
  if (raw.inputSchema === undefined) issues.warn(`${at}/inputSchema`, 'is missing: the tool takes {"type": "object"}');
  else if (!isJsonObject(raw.inputSchema) || raw.inputSchema.type !== "object") issues.error(`${at}/inputSchema`, 'must be a JSON Schema object whose type is "object"');
  else inputSchema = raw.inputSchema;
  if (raw.outputSchema !== undefined && (!isJsonObject(raw.outputSchema) || raw.outputSchema.type !== "object")) {
    issues.error(`${at}/outputSchema`, 'must be a JSON Schema object whose type is "object"');
  }
  const tags = stringList(raw.tags, `${at}/tags`, issues);
  issues.list.push(...tagIssues(tags, `${at}/tags`));
  const impl = readImpl(raw.run, inputSchema, `${at}/run`, issues);
  if (issues.list.filter((i) => i.severity === "error").length > before || impl === undefined || typeof name !== "string") return undefined;
  return {
    name,
    ...(typeof raw.title === "string" ? { title: raw.title } : {}),
    description: typeof raw.description === "string" ? raw.description : "",
    inputSchema,
    ...(isJsonObject(raw.outputSchema) ? { outputSchema: raw.outputSchema } : {}),
    tags,
    impl,
  };
}

/** The tools read, less the ones whose name an earlier tool already has: each such name is an error. */
function uniqueNames(read: readonly (ToolDef | undefined)[], issues: Issues): ToolDef[] {
  const first = new Map<string, number>();
  return read.flatMap((tool, i) => {
    if (!tool) return [];
    const earlier = first.get(tool.name);
    if (earlier !== undefined) {
      issues.error(`/tools/${i}/name`, `"${tool.name}" is already the name of /tools/${earlier}; tool names must be unique (this one is left out)`);
      return [];
    }
    first.set(tool.name, i);
    return [tool];
  });
}

/**
 * Checks a parsed toolkit file. Every problem is reported at its pointer; a tool with errors is left
 * out and the rest still load, so one typo does not take the whole agent down.
 */
export function readToolkit(raw: unknown): ReadToolkitResult {
  const issues = new Issues();
  if (!isJsonObject(raw)) {
    const kind = raw === null ? "null" : Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
    return { issues: [{ pointer: "", message: `a toolkit must be a JSON object, not ${kind}`, severity: "error" }] };
  }
  if (raw.format !== TOOLKIT_FORMAT) issues.error("/format", `must be "${TOOLKIT_FORMAT}"`);
  if (typeof raw.version !== "number" || !Number.isInteger(raw.version) || raw.version < 1) issues.error("/version", `must be ${TOOLKIT_VERSION}`);
  else if (raw.version > TOOLKIT_VERSION) issues.error("/version", `${raw.version} was written by a newer Patchbay; this one reads version ${TOOLKIT_VERSION}`);
  const name = raw.name;
  if (typeof name !== "string" || !IDENTITY.test(name)) issues.error("/name", "must be 1–64 letters, digits, _ or -, starting with a letter or digit (it is the agent identity)");
  if (raw.description !== undefined && typeof raw.description !== "string") issues.error("/description", "must be a string");
  if (raw.instructions !== undefined && typeof raw.instructions !== "string") issues.error("/instructions", "must be a string");
  const filter = isJsonObject(raw.filter) ? raw.filter : {};
  if (raw.filter !== undefined && !isJsonObject(raw.filter)) issues.error("/filter", "must be an object with include and exclude lists");
  const include = stringList(filter.include, "/filter/include", issues);
  const exclude = stringList(filter.exclude, "/filter/exclude", issues);
  if (!Array.isArray(raw.tools)) issues.error("/tools", "must be a list of tools");
  else if (raw.tools.length > MAX_TOOLS) issues.error("/tools", `has ${raw.tools.length} tools; at most ${MAX_TOOLS} are allowed`);
  if (issues.list.some((i) => i.severity === "error")) return { issues: issues.list };
  const tools = uniqueNames((raw.tools as unknown[]).map((t, i) => readTool(t, `/tools/${i}`, issues)), issues);
  const toolkit: Toolkit = {
    format: TOOLKIT_FORMAT,
    version: TOOLKIT_VERSION,
    name: name as string,
    description: typeof raw.description === "string" ? raw.description : "",
    ...(typeof raw.instructions === "string" ? { instructions: raw.instructions } : {}),
    filter: { include, exclude },
    tools,
  };
  return { toolkit, issues: issues.list };
}
