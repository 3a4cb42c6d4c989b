import type { Logger } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import { SchemaCompiler } from "../../schema/compiler.ts";
import type { FiskBridge } from "../bridge/fisk-bridge.ts";
import type { ConfirmMode } from "../confirm-gate.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { CommandRunner } from "../run-types.ts";
import { Semaphore } from "../semaphore.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import { servedSet, type ServedEntry } from "../toolkit/served-set.ts";
import type { ToolDef, Toolkit } from "../toolkit/toolkit-types.ts";
import { FIXTURE_TOOLS, type FixtureTool } from "./fixtures/fixture-tools.ts";
import { APPROVAL_TIMEOUT_MS, type OperatorDecider } from "./operator-approvals.ts";
import { REQUEST_STATE_KEY_BYTES, requestStateSigner, type RequestStateSigner } from "./request-state.ts";
import { McpTaskStore } from "./task-store.ts";

export const DEFAULT_MCP_CONCURRENCY = 2;
export { APPROVAL_TIMEOUT_MS };

export interface McpServingOptions {
  readonly toolkit: Toolkit;
  /** Default `auto`. */
  readonly confirmMode?: ConfirmMode;
  /** Calls running at once across every session; default 2. Further callers wait for a slot. */
  readonly concurrency?: number;
  /** A limit shared with other surfaces; `concurrency` is then ignored. */
  readonly semaphore?: Semaphore;
  /** Caps every call; without it each command tool keeps its own limit. */
  readonly timeoutMs?: number;
  /** Absent where programs cannot run; command tools then refuse. */
  readonly runner?: CommandRunner;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Serve the conformance suite's fixtures too; default on for the demo toolkit only. */
  readonly fixtures?: boolean;
  /** The serverInfo version; default 0.0.0. */
  readonly version?: string;
  /** Default 2 minutes; tests shorten it. */
  readonly approvalTimeoutMs?: number;
  /** Who decides in confirm mode `operator`; without it such calls are refused. */
  readonly approvals?: OperatorDecider;
  /** `crypto.getRandomValues`: the key that signs requestState, and task ids. */
  readonly randomBytes: (bytes: Uint8Array) => Uint8Array;
  /** Wall clock, epoch ms: task times. */
  readonly wallNow: () => number;
  /** Finished tasks kept; default 1,000 (tests lower it). */
  readonly maxFinishedTasks?: number;
  /** fisk-ai agents' tools served beside the toolkit's, discovered over NATS. */
  readonly bridge?: FiskBridge;
}

/** Lists whose changes modern clients hear about on a subscriptions/listen stream. */
export type ListKind = "tools" | "prompts" | "resources";

/** Who is told when a list changes: each modern serving entry listens while it runs. */
export class ChangeFeed {
  readonly #listeners = new Set<(kind: ListKind) => void>();
  /** Returns the unsubscribe. */
  on(listener: (kind: ListKind) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  emit(kind: ListKind): void {
    for (const listener of this.#listeners) listener(kind);
  }
}

/**
 * What every session of one served agent shares, in both eras: one semaphore, one schema cache,
 * one tool set, one task store and one requestState key.
 */
export interface McpServingContext {
  readonly toolkit: Toolkit;
  /** Every toolkit tool with whether it is served over MCP and why. */
  readonly entries: readonly ServedEntry[];
  /** The served toolkit tools by name, in toolkit order. */
  readonly tools: ReadonlyMap<string, ToolDef>;
  /** Fixture tools served alongside (empty unless fixtures are on), minus any a toolkit tool shadows. */
  readonly fixtureTools: readonly FixtureTool[];
  readonly fixtures: boolean;
  readonly confirmMode: ConfirmMode;
  readonly semaphore: Semaphore;
  readonly timeoutMs?: number;
  readonly runner?: CommandRunner;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly compiler: SchemaCompiler;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly approvalTimeoutMs: number;
  readonly approvals?: OperatorDecider;
  readonly tasks: McpTaskStore;
  readonly requestState: RequestStateSigner;
  readonly changes: ChangeFeed;
  readonly bridge?: FiskBridge;
}

function hexId(randomBytes: (bytes: Uint8Array) => Uint8Array): () => string {
  return () => [...randomBytes(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Builds the shared context, logging each tool left out of the MCP surface and why. */
export function createServingContext(options: McpServingOptions): McpServingContext {
  const { toolkit, logger } = options;
  const entries = servedSet(toolkit, "mcp");
  const tools = new Map<string, ToolDef>();
  for (const entry of entries) {
    if (entry.served) tools.set(entry.tool.name, entry.tool);
    else logger.warn(`not serving tool over MCP: ${entry.reason}`, { tool: entry.tool.name });
    for (const warning of readBehaviour(entry.tool.tags).warnings) logger.warn(`tool ${entry.tool.name}: ${warning}`);
  }
  const fixtures = options.fixtures ?? toolkit === DEMO_TOOLKIT;
  const fixtureTools = fixtures
    ? FIXTURE_TOOLS.filter((fixture) => {
        if (!tools.has(fixture.tool.name)) return true;
        logger.warn(`not serving the conformance fixture ${fixture.tool.name}: a toolkit tool has that name`);
        return false;
      })
    : [];
  const changes = new ChangeFeed();
  options.bridge?.onChange(() => changes.emit("tools"));
  return {
    toolkit,
    entries,
    tools,
    fixtureTools,
    fixtures,
    confirmMode: options.confirmMode ?? "auto",
    semaphore: options.semaphore ?? new Semaphore(options.concurrency ?? DEFAULT_MCP_CONCURRENCY),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.runner ? { runner: options.runner } : {}),
    scheduler: options.scheduler,
    logger,
    compiler: new SchemaCompiler(),
    serverInfo: { name: toolkit.name, version: options.version ?? "0.0.0" },
    approvalTimeoutMs: options.approvalTimeoutMs ?? APPROVAL_TIMEOUT_MS,
    ...(options.approvals ? { approvals: options.approvals } : {}),
    tasks: new McpTaskStore({
      now: options.wallNow,
      newId: hexId(options.randomBytes),
      ...(options.maxFinishedTasks !== undefined ? { maxFinished: options.maxFinishedTasks } : {}),
    }),
    requestState: requestStateSigner(options.randomBytes(new Uint8Array(REQUEST_STATE_KEY_BYTES))),
    changes,
    ...(options.bridge ? { bridge: options.bridge } : {}),
  };
}
