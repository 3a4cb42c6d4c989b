import type { Logger } from "../../env/environment.ts";
import type { DiscoveryResult } from "../../fisk/client/discovery.ts";
import type { CallOptions, ToolCallResult } from "../../fisk/client/tool-call.ts";
import type { PlannedTool } from "../../fisk/codec/import-plan.ts";
import type { AgentCard } from "../../fisk/codec/types-common.ts";
import type { McpToolResult } from "../mcp-result.ts";
import { progressRelay, type BridgeProgress } from "./bridge-progress.ts";
import { bridgeResult } from "./bridge-result.ts";
import { discoveryProblem, planBridge, type BridgeConfig, type BridgePlan, type HostCard } from "./bridge-plan.ts";

/** The two fisk-ai client calls the bridge makes; `FiskClient` has both. */
export interface BridgePeer {
  discover(identity: string, opts?: { timeoutMs?: number }): Promise<DiscoveryResult>;
  callTool(identity: string, tool: string, input: Record<string, unknown> | null, opts?: CallOptions): Promise<ToolCallResult>;
}

export interface FiskBridgeOptions {
  readonly peer: BridgePeer;
  readonly config: BridgeConfig;
  /** Names the MCP surface already serves: a bridged tool with one of these is prefixed. */
  readonly localNames?: readonly string[];
  readonly logger: Logger;
  /** Each discovery's wait; default 5 s. */
  readonly discoveryTimeoutMs?: number;
  /** The longest silence within a call's reply set; default the client's (120 s). */
  readonly idleMs?: number;
  /** For tests: let `idleMs` go under the client's 30 s floor. */
  readonly allowShortIdle?: boolean;
}

const EMPTY: BridgePlan = { tools: [], errors: [], warnings: [], collisionError: null };
const fingerprint = (tools: readonly PlannedTool[]): string => JSON.stringify(tools);

/**
 * fisk-ai agents' tools served as MCP tools. The tool set is discovered again on every tools/list
 * (concurrent lists share one discovery), so tools the agents add or drop show up, and list
 * subscribers hear of each change. An agent that stops answering discovery keeps its last tools
 * listed: calls to them then say the agent is unavailable, rather than the tools vanishing
 * during a restart.
 */
export class FiskBridge {
  readonly #opts: FiskBridgeOptions;
  readonly #cards = new Map<string, AgentCard>();
  readonly #listeners = new Set<() => void>();
  #plan: BridgePlan = EMPTY;
  #byName = new Map<string, PlannedTool>();
  #refreshing: Promise<BridgePlan> | null = null;
  #warned = new Set<string>();
  /** Agents listed from their last card because discovery failed since. */
  readonly #stale = new Set<string>();

  constructor(opts: FiskBridgeOptions) {
    this.#opts = opts;
  }

  get plan(): BridgePlan {
    return this.#plan;
  }

  get identities(): readonly string[] {
    return this.#opts.config.identities;
  }

  tools(): readonly PlannedTool[] {
    return this.#plan.tools;
  }

  find(name: string): PlannedTool | undefined {
    return this.#byName.get(name);
  }

  /** Called when the bridged tool set changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Discovers every agent again and re-plans; concurrent callers share one round. */
  refresh(): Promise<BridgePlan> {
    this.#refreshing ??= this.#discoverAll().finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  async #discoverAll(): Promise<BridgePlan> {
    const { peer, config, logger } = this.#opts;
    const timeoutMs = this.#opts.discoveryTimeoutMs ?? 5_000;
    const cards: HostCard[] = await Promise.all(
      config.identities.map(async (identity): Promise<HostCard> => {
        let problem: string;
        try {
          const found = await peer.discover(identity, { timeoutMs });
          if (found.outcome.kind === "card") {
            if (this.#stale.delete(identity)) logger.info(`bridge: agent ${identity} answers discovery again`);
            this.#cards.set(identity, found.outcome.card);
            return { identity, card: found.outcome.card };
          }
          problem = discoveryProblem(identity, found.outcome) ?? "discovery failed";
        } catch (err) {
          problem = `discovery failed: ${(err as Error).message}`;
        }
        const last = this.#cards.get(identity);
        if (last) {
          if (!this.#stale.has(identity)) logger.warn(`bridge: agent ${identity} did not answer discovery; keeping its last tools: ${problem}`);
          this.#stale.add(identity);
          return { identity, card: last };
        }
        return { identity, card: null, error: problem };
      }),
    );
    const plan = planBridge(config, cards, this.#opts.localNames ?? []);
    for (const line of [...plan.warnings, ...plan.errors.map((e) => `not bridging agent ${e.identity}: ${e.message}`), ...(plan.collisionError ? [plan.collisionError] : [])]) {
      // Said once, not on every tools/list.
      if (!this.#warned.has(line)) logger.warn(`bridge: ${line}`);
      this.#warned.add(line);
    }
    const changed = fingerprint(plan.tools) !== fingerprint(this.#plan.tools);
    this.#plan = plan;
    this.#byName = new Map(plan.tools.map((t) => [t.name, t]));
    if (changed) for (const listener of this.#listeners) listener();
    return plan;
  }

  /**
   * One call of a bridged tool: `tool.request` with the peer's own name, the arguments unchecked
   * (the serving agent checks them, as fisk-ai leaves them to it), the reply set mapped to a result;
   * `onProgress` hears the tool's progress and keepalives while it runs.
   */
  async call(name: string, args: Readonly<Record<string, unknown>>, signal?: AbortSignal, onProgress?: BridgeProgress): Promise<McpToolResult> {
    const tool = this.#byName.get(name);
    if (!tool) {
      return { content: [{ type: "text", text: `Unknown tool "${name}": no bridged agent offers it (any more). Call tools/list to see the tools on offer.` }], isError: true };
    }
    const result = await this.#opts.peer.callTool(tool.host, tool.remoteName, { ...args }, {
      ...(signal ? { signal } : {}),
      ...(this.#opts.idleMs !== undefined ? { idleMs: this.#opts.idleMs } : {}),
      ...(this.#opts.allowShortIdle ? { allowShortIdle: true } : {}),
      ...(onProgress ? { onEntry: progressRelay(tool.host, tool.remoteName, onProgress) } : {}),
    });
    // The agent no longer has the tool: look again so tools/list stops offering it.
    if (result.outcome.kind === "not-available") void this.refresh().catch(() => undefined);
    return bridgeResult(result.outcome, { remoteName: tool.remoteName, host: tool.host });
  }
}
