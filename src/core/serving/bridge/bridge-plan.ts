import type { DiscoveryOutcome } from "../../fisk/client/discovery.ts";
import { compileFilterPattern } from "../../fisk/codec/import-filter.ts";
import { planImport, type ImportPlan, type PlannedTool } from "../../fisk/codec/import-plan.ts";
import type { AgentCard } from "../../fisk/codec/types-common.ts";
import { NAME_RE } from "../../packs/fisk-ai/protocol.ts";

/** Which fisk-ai agents to bridge, and which of their tools. The filters apply to every agent. */
export interface BridgeConfig {
  readonly identities: readonly string[];
  /** Go RE2 patterns on the tool's name, unanchored; empty keeps every tool. */
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

/** What one discovery of one agent came to. */
export interface HostCard {
  readonly identity: string;
  readonly card: AgentCard | null;
  readonly error?: string;
}

export interface BridgePlan {
  /** Sorted by MCP name. */
  readonly tools: readonly PlannedTool[];
  /** Agents that contribute nothing, each with why. */
  readonly errors: readonly { readonly identity: string; readonly message: string }[];
  /** Things a person should hear about that do not stop serving: skipped tools, filters that match nothing. */
  readonly warnings: readonly string[];
  /** Set when names still collide after prefixing (every tool holding such a name is left out). */
  readonly collisionError: string | null;
}

/** Why the bridge configuration cannot work at all, or null. Checked before any discovery. */
export function bridgeConfigProblem(config: BridgeConfig): string | null {
  if (config.identities.length === 0) return "name at least one fisk-ai agent identity to bridge";
  for (const identity of config.identities) {
    if (!NAME_RE.test(identity)) return `cannot bridge ${JSON.stringify(identity)}: an agent identity has letters, digits, '-' and '_' only`;
  }
  const seen = new Set<string>();
  for (const identity of config.identities) {
    if (seen.has(identity)) return `${identity} is named twice`;
    seen.add(identity);
  }
  try {
    for (const pattern of [...(config.include ?? []), ...(config.exclude ?? [])]) compileFilterPattern(pattern);
  } catch (err) {
    return (err as Error).message;
  }
  return null;
}

/** A discovery that found no usable card, in words; null when it found one. */
export function discoveryProblem(identity: string, outcome: DiscoveryOutcome): string | null {
  switch (outcome.kind) {
    case "card":
      return null;
    case "no-such-agent":
      return `no agent answers discovery on choria.fisk-ai.discovery.${identity} (no responders: is ${identity} running on this NATS account?)`;
    case "timeout":
      return `discovery on choria.fisk-ai.discovery.${identity} got no reply within ${outcome.timeoutMs} ms`;
    case "refused":
      return `discovery was refused: ${outcome.code}: ${outcome.description}`;
    case "invalid":
      return `the agent's discovery reply is not a valid card: ${outcome.problem}`;
    case "error":
      return `discovery failed: ${outcome.message}`;
  }
}

function unmatched(kind: "include" | "exclude", patterns: readonly string[], names: readonly string[]): string[] {
  return patterns
    .filter((pattern) => !names.some((name) => compileFilterPattern(pattern).test(name)))
    .map((pattern) => `--bridge-${kind} ${JSON.stringify(pattern)} matches no tool of the bridged agents`);
}

/**
 * The bridged tools under fisk-ai's import naming (a bare name unless a local tool holds it or
 * several agents offer it, then `<identity>_<name>` on each), with the filters applied first.
 */
export function planBridge(config: BridgeConfig, cards: readonly HostCard[], localNames: readonly string[]): BridgePlan {
  const include = config.include?.length ? { tools: [...config.include] } : undefined;
  const exclude = config.exclude?.length ? { tools: [...config.exclude] } : undefined;
  const plan: ImportPlan = planImport(
    cards.map((c) => ({
      identity: c.identity,
      card: c.card,
      ...(c.error !== undefined ? { discoveryError: c.error } : {}),
      ...(include ? { include } : {}),
      ...(exclude ? { exclude } : {}),
    })),
    localNames,
  );
  const errors = plan.hosts.filter((h) => h.error !== undefined).map((h) => ({ identity: h.identity, message: h.error! }));
  const discovered = cards.flatMap((c) => (Array.isArray(c.card?.tools) ? c.card.tools.map((t) => (typeof t?.name === "string" ? t.name : "")) : []));
  const warnings = [
    ...(cards.some((c) => c.card) ? [...unmatched("include", config.include ?? [], discovered), ...unmatched("exclude", config.exclude ?? [], discovered)] : []),
    ...plan.hosts.filter((h) => h.error === undefined && h.kept.length === 0).map((h) => `agent ${h.identity} offers no tool to bridge (${h.discovered} discovered, none kept by the filters)`),
    ...plan.skipped.filter((s) => s.reason !== "collision").map((s) => `not bridging from agent ${s.host}: ${s.message}`),
  ];
  return { tools: plan.tools, errors, warnings, collisionError: plan.collisionError };
}
