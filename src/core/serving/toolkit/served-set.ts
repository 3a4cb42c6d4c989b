import { readBehaviour } from "./behaviour-tags.ts";
import type { ToolDef, ToolFilter, Toolkit } from "./toolkit-types.ts";

export type Surface = "mcp" | "nats" | "a2a";

export interface ServedSetOptions {
  /**
   * Keep ai:confirm tools for tasks, each call asking for approval in its task (A2A
   * input-required, a fisk-ai task's `elicit.request.approve`). Without it they are dropped: a
   * direct call from a peer agent has no operator to ask.
   */
  readonly askConfirm?: boolean;
}

/** One tool's place on a surface, with the reason a person can read. */
export interface ServedEntry {
  readonly tool: ToolDef;
  readonly served: boolean;
  readonly reason: string;
}

/** MCP tool names: 1–128 characters of letters, digits, `_`, `-` and `.`. */
const MCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** fisk-ai tool names: letters, digits, `_` and `-` (they are joined into subjects and prefixes). */
const FISK_NAME = /^[A-Za-z0-9_-]+$/;
/** A2A skill ids: kept to MCP's names, so an id reads the same in a card, a data part and a URL. */
const SKILL_ID = MCP_NAME;

/** A filter pattern matches a tool name (`*` is any run of characters) or, as `tag:x`, one of its tags. */
export function matchesPattern(tool: ToolDef, pattern: string): boolean {
  if (pattern.startsWith("tag:")) return tool.tags.includes(pattern.slice(4));
  const re = new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`);
  return re.test(tool.name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function filterReason(tool: ToolDef, filter: ToolFilter): string | undefined {
  const excluded = filter.exclude.find((p) => matchesPattern(tool, p));
  if (excluded !== undefined) return `excluded by "${excluded}"`;
  if (filter.include.length > 0 && !filter.include.some((p) => matchesPattern(tool, p))) return "not matched by any include pattern";
  return undefined;
}

/**
 * The exact served set of a surface, in toolkit order: `ai:deny` tools are never served; the
 * filter narrows; over NATS (and over A2A unless asked to keep them) there is no operator to
 * approve, so confirm-gated tools are dropped; a name the protocol rejects, or a repeated name, is
 * skipped; fisk-ai peers also refuse to import a tool without a description.
 */
export function servedSet(toolkit: Toolkit, surface: Surface, options: ServedSetOptions = {}): ServedEntry[] {
  const seen = new Set<string>();
  return toolkit.tools.map((tool) => {
    const out = (reason: string): ServedEntry => ({ tool, served: false, reason });
    const behaviour = readBehaviour(tool.tags);
    if (behaviour.deny) return out("tagged ai:deny: never served");
    const filtered = filterReason(tool, toolkit.filter);
    if (filtered !== undefined) return out(filtered);
    if (surface === "nats" && behaviour.confirm && !options.askConfirm) return out("needs approval (ai:confirm), and a peer agent has no operator to ask");
    if (surface === "a2a" && behaviour.confirm && !options.askConfirm) return out("needs approval (ai:confirm), and a peer agent has no operator to ask; serve with confirm asking to keep it");
    if (surface === "mcp" && !MCP_NAME.test(tool.name)) return out("the name is not a valid MCP tool name (1–128 of A–Z a–z 0–9 _ - .)");
    if (surface === "a2a" && !SKILL_ID.test(tool.name)) return out("the name is not a usable A2A skill id (1–128 of A–Z a–z 0–9 _ - .)");
    if (surface === "nats" && !FISK_NAME.test(tool.name)) return out("the name is not a valid fisk-ai tool name (letters, digits, _ and - only)");
    if (surface === "nats" && tool.description.trim() === "") return out("it has no description, and fisk-ai peers do not import a tool without one");
    if (seen.has(tool.name)) return out("another tool already has this name");
    seen.add(tool.name);
    const gate = surface === "mcp" && behaviour.confirm ? "served; each call needs approval" : surface === "a2a" && behaviour.confirm ? "served; each call asks for approval in its task (input-required)" : "served";
    return { tool, served: true, reason: gate };
  });
}
