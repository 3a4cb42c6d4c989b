import { isJsonObject } from "../../json/index.ts";
import { NAME_RE } from "../../packs/fisk-ai/protocol.ts";
import { filterByName, type ToolFilter } from "./import-filter.ts";
import type { AgentCard, JsonObject, ToolBehavior, ToolDescriptor } from "./types-common.ts";

/**
 * fisk-ai's remote tool import rule (§5), as a preview: which discovered tools a run would get and
 * under which names. A bare name is kept unless a local tool holds it or more than one host
 * offers it; then it becomes `<alias>_<name>` on every host offering it. A final name that still
 * collides drops every tool holding it. Nothing depends on the order hosts are listed in.
 */

export interface ImportHost {
  /** The agent identity: keys the subjects, and is the recipient of calls. */
  readonly identity: string;
  /** Prefix for clashing names; the identity when unset. */
  readonly alias?: string;
  readonly include?: ToolFilter;
  readonly exclude?: ToolFilter;
  /** The discovered card, or null when discovery failed. */
  readonly card: AgentCard | null;
  /** Why discovery failed, when `card` is null. */
  readonly discoveryError?: string;
}

export interface PlannedTool {
  /** The model-facing name. */
  readonly name: string;
  /** The name sent on the wire in `tool.request`. */
  readonly remoteName: string;
  readonly host: string;
  readonly prefixed: boolean;
  readonly description: string;
  /** The peer's schema, forwarded unchanged; `{"type":"object"}` when it sent none. */
  readonly inputSchema: JsonObject;
  /** The peer's claim, with read-only and destructive together read as not read-only. */
  readonly behavior?: ToolBehavior;
}

export type ImportSkipReason = "invalid-name" | "collision" | "unparsable-schema" | "no-description";

export interface ImportSkip {
  readonly host: string;
  readonly remoteName: string;
  readonly finalName: string;
  readonly reason: ImportSkipReason;
  readonly message: string;
}

export interface HostPlan {
  readonly identity: string;
  readonly alias: string;
  /** Set when the host contributes nothing: discovery failed, bad config, or a bad pattern. */
  readonly error?: string;
  readonly discovered: number;
  /** Remote names that passed the include/exclude filters. */
  readonly kept: readonly string[];
  /** The include filter named tags, which discovery cannot carry, so that part was ignored. */
  readonly ignoredIncludeTags: boolean;
}

export interface ImportPlan {
  /** Sorted by model-facing name. */
  readonly tools: readonly PlannedTool[];
  /** Sorted by host, then remote name. */
  readonly skipped: readonly ImportSkip[];
  /** In the order given. */
  readonly hosts: readonly HostPlan[];
  /** Final names dropped for colliding, with the host of each dropped tool; sorted. */
  readonly collisions: readonly { readonly name: string; readonly host: string }[];
  /** The error a run would stop with, or null when nothing collided. */
  readonly collisionError: string | null;
}

interface Kept {
  readonly host: ImportHost;
  readonly alias: string;
  readonly tool: ToolDescriptor;
  readonly bare: string;
}

const DEFAULT_SCHEMA: JsonObject = { type: "object" };
const nameOf = (tool: ToolDescriptor): string => (typeof tool.name === "string" ? tool.name : "");
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function hostError(host: ImportHost): string | null {
  if (!NAME_RE.test(host.identity)) return `remote host name ${JSON.stringify(host.identity)} must match ${NAME_RE.source}`;
  if (host.alias !== undefined && host.alias !== "" && !NAME_RE.test(host.alias)) {
    return `alias ${JSON.stringify(host.alias)} of remote host ${JSON.stringify(host.identity)} must match ${NAME_RE.source}`;
  }
  if ((host.exclude?.tags?.length ?? 0) > 0) return "exclude by tag is not supported: discovery carries no tags";
  if (!host.card) return host.discoveryError ?? "the host was not discovered";
  return null;
}

/** The card's tools; a card read off the wire is not trusted to have the right shapes. */
function toolsOf(card: AgentCard | null): ToolDescriptor[] {
  const tools: unknown = card?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.map((t: unknown) => (isJsonObject(t) ? (t as unknown as ToolDescriptor) : { name: "" }));
}

function planHost(host: ImportHost): { plan: HostPlan; kept: Kept[] } {
  const alias = host.alias || host.identity;
  const tools = toolsOf(host.card);
  const base = { identity: host.identity, alias, discovered: tools.length };
  const error = hostError(host);
  if (error !== null) return { plan: { ...base, error, kept: [], ignoredIncludeTags: false }, kept: [] };
  try {
    const { kept, ignoredIncludeTags } = filterByName(tools, nameOf, host.include, host.exclude);
    return {
      plan: { ...base, kept: kept.map(nameOf), ignoredIncludeTags },
      kept: kept.map((tool) => ({ host, alias, tool, bare: nameOf(tool) })),
    };
  } catch (err) {
    return { plan: { ...base, error: (err as Error).message, kept: [], ignoredIncludeTags: false }, kept: [] };
  }
}

function resolveBehavior(b: ToolBehavior | undefined): ToolBehavior | undefined {
  if (!isJsonObject(b)) return undefined;
  const out: ToolBehavior = {};
  for (const key of ["read_only", "destructive", "idempotent", "open_world"] as const) {
    if (typeof b[key] === "boolean") out[key] = b[key];
  }
  // A peer contradicting itself gets the dangerous reading rather than losing the tool.
  if (out.read_only && out.destructive) out.read_only = false;
  return Object.keys(out).length > 0 ? out : undefined;
}

function count(names: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

export function planImport(hosts: readonly ImportHost[], localNames: readonly string[]): ImportPlan {
  const taken = new Set(localNames);
  const planned = hosts.map(planHost);
  const kept = planned.flatMap((p) => p.kept);
  const bareCount = count(kept.map((k) => k.bare));
  const finalName = (k: Kept): string => (taken.has(k.bare) || (bareCount.get(k.bare) ?? 0) > 1 ? `${k.alias}_${k.bare}` : k.bare);
  const finalCount = count(kept.map(finalName));

  const tools: PlannedTool[] = [];
  const skipped: ImportSkip[] = [];
  const collisions: { name: string; host: string }[] = [];
  for (const k of kept) {
    const name = finalName(k);
    const skip = (reason: ImportSkipReason, message: string): void => {
      skipped.push({ host: k.host.identity, remoteName: k.bare, finalName: name, reason, message });
    };
    const agent = `tool ${JSON.stringify(k.bare)} from agent ${JSON.stringify(k.host.identity)}`;
    if (!NAME_RE.test(name)) {
      skip("invalid-name", `${k.bare} (invalid name ${JSON.stringify(name)})`);
    } else if (taken.has(name) || (finalCount.get(name) ?? 0) > 1) {
      skip("collision", `${k.bare} (name ${JSON.stringify(name)} collides)`);
      collisions.push({ name, host: k.host.identity });
    } else if (k.tool.input_schema !== undefined && !isJsonObject(k.tool.input_schema)) {
      skip("unparsable-schema", `${agent} has an unparsable input schema: it is not a JSON object`);
    } else if (typeof k.tool.description !== "string" || k.tool.description === "") {
      skip("no-description", `${agent} advertises no description`);
    } else {
      const behavior = resolveBehavior(k.tool.behavior);
      tools.push({
        name,
        remoteName: k.bare,
        host: k.host.identity,
        prefixed: name !== k.bare,
        description: k.tool.description,
        inputSchema: k.tool.input_schema ?? DEFAULT_SCHEMA,
        ...(behavior ? { behavior } : {}),
      });
    }
  }

  tools.sort((a, b) => byText(a.name, b.name));
  skipped.sort((a, b) => byText(a.host, b.host) || byText(a.remoteName, b.remoteName) || byText(a.message, b.message));
  collisions.sort((a, b) => byText(a.name, b.name) || byText(a.host, b.host));
  const collisionError =
    collisions.length === 0
      ? null
      : `imported tool name collision: ${collisions.map((c) => `${JSON.stringify(c.name)} (agent ${JSON.stringify(c.host)})`).join(", ")}; set a distinct alias on the remote_tools host`;
  return { tools, skipped, hosts: planned.map((p) => p.plan), collisions, collisionError };
}
