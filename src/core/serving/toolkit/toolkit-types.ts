/** The toolkit file's format name and the version this code writes; older versions are migrated on read. */
export const TOOLKIT_FORMAT = "patchbay.toolkit";
export const TOOLKIT_VERSION = 1;

/** Defaults for command tools (the fisk-ai MCP server's figures). */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
export const MAX_TOOL_TIMEOUT_MS = 3_600_000;
export const OUTPUT_CAP_BYTES = 64 * 1024;

/** The demo tools built into Patchbay, which need no program. */
export const BUILTIN_TOOLS = ["echo", "add", "sleep", "fail", "large-output", "slow", "confirm"] as const;
export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

/** A program run as an argv (never through a shell), its arguments mapped from the call's input. */
export interface CommandImpl {
  readonly kind: "command";
  /** The program and its fixed leading arguments. */
  readonly argv: readonly string[];
  /** Input properties passed as positionals after `--`, in this order; all others become flags. */
  readonly positionals: readonly string[];
  readonly timeoutMs: number;
  /** Variables added to the scrubbed environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface BuiltinImpl {
  readonly kind: "builtin";
  readonly builtin: BuiltinTool;
}

export type ToolImpl = CommandImpl | BuiltinImpl;

export interface ToolDef {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** A JSON Schema object, served verbatim. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
  readonly impl: ToolImpl;
}

/** Narrows the served set: a tool is served when it matches some include (or include is empty) and no exclude. */
export interface ToolFilter {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export interface Toolkit {
  readonly format: typeof TOOLKIT_FORMAT;
  readonly version: typeof TOOLKIT_VERSION;
  /** The agent identity: the MCP server name and the NATS identity. */
  readonly name: string;
  readonly description: string;
  readonly instructions?: string;
  readonly filter: ToolFilter;
  readonly tools: readonly ToolDef[];
}

/** A problem in a toolkit file, at a JSON pointer. */
export interface ToolkitIssue {
  readonly pointer: string;
  readonly message: string;
  readonly severity: "error" | "warning";
  /** The text is not JSON or YAML at all: an editor reports that itself, at its place. */
  readonly syntax?: true;
}
