import type { NatsHeaders } from "../../nats/port.ts";
import { agentInfo, listAgents, type AgentInfo, type AgentListing, type ListingOptions } from "./agent-listing.ts";
import type { FiskClientDeps } from "./deps.ts";
import { discover, type DiscoveryResult } from "./discovery.ts";
import { listInstances, type InstanceListing } from "./instances.ts";
import { sendRaw, type RawExchange } from "./raw-exchange.ts";
import type { ReplySetEntry } from "./reply-set.ts";
import { startTask } from "./task.ts";
import type { TaskHandle, TaskOptions, TaskRequestInput } from "./task-types.ts";
import { callTool, type CallOptions, type ToolCallResult } from "./tool-call.ts";

/**
 * A fisk-ai peer's client over NATS: discovery, tool calls read as reply sets, raw exchanges and
 * tasks with cancel and questions. Everything goes through the injected (logged) port.
 */
export class FiskClient {
  readonly #deps: FiskClientDeps;

  constructor(deps: FiskClientDeps) {
    this.#deps = deps;
  }

  /** Live agents from `$SRV.INFO`: services described as "fisk-ai a2a tool server". */
  listAgents(opts?: ListingOptions): Promise<AgentListing> {
    return listAgents(this.#deps, opts);
  }

  /** `$SRV.INFO.<identity>`: the endpoints one instance of the agent serves. */
  agentInfo(identity: string, opts?: { timeoutMs?: number }): Promise<AgentInfo> {
    return agentInfo(this.#deps, identity, opts?.timeoutMs);
  }

  /** `$SRV.STATS.<identity>`: every instance of the identity with its load. */
  listInstances(identity: string, opts?: { timeoutMs?: number; stallMs?: number }): Promise<InstanceListing> {
    return listInstances(this.#deps, identity, opts);
  }

  /** `discovery.request` on `choria.fisk-ai.discovery.<identity>`; one reply. */
  discover(identity: string, opts?: { timeoutMs?: number }): Promise<DiscoveryResult> {
    return discover(this.#deps, identity, opts);
  }

  /** `tool.request`, then its reply set from a fresh inbox. */
  callTool(identity: string, tool: string, input: Record<string, unknown> | null, opts?: CallOptions): Promise<ToolCallResult> {
    return callTool(this.#deps, identity, tool, input, opts);
  }

  /** Any bytes, any headers, any subject; every reply until silence or a final header. */
  sendRaw(input: { subject: string; body: Uint8Array; headers?: NatsHeaders; idleMs: number; signal?: AbortSignal; onEntry?: (e: ReplySetEntry) => void }): Promise<RawExchange> {
    return sendRaw(this.#deps, input);
  }

  /** `request.*` on `choria.fisk-ai.task.<identity>`; a live handle. */
  startTask(identity: string, request: TaskRequestInput, opts?: TaskOptions): TaskHandle {
    return startTask(this.#deps, identity, request, opts);
  }
}
