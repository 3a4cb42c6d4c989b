/**
 * One toolkit served as an A2A agent: the served set for the a2a surface, the card built from
 * it, the SDK's request handler over the toolkit executor, and the JSON-RPC endpoint. HTTP is
 * the caller's (server/serving mounts it); everything protocol-shaped is here.
 */
import { AgentCard } from "@a2a-js/sdk";
import { DefaultExecutionEventBusManager, DefaultRequestHandler, ResultManager, type A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Logger } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import { SchemaCompiler } from "../../schema/compiler.ts";
import type { CommandRunner } from "../run-types.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { Semaphore } from "../semaphore.ts";
import { executeTool } from "../tool-executor.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import { servedSet, type ServedEntry } from "../toolkit/served-set.ts";
import type { ToolDef, Toolkit } from "../toolkit/toolkit-types.ts";
import { agentCard, legacyCard } from "./a2a-card.ts";
import { BoundedTaskStore } from "./bounded-task-store.ts";
import { JsonRpcEndpoint } from "./jsonrpc-endpoint.ts";
import { defaultSkillOf, type DefaultSkill } from "./message-call.ts";
import { ServedRequestHandler } from "./served-handler.ts";
import { tckHold } from "./tck-contract.ts";
import { ToolkitExecutor, type ToolExecutor } from "./toolkit-executor.ts";

export const DEFAULT_A2A_CONCURRENCY = 2;
/** What a text-only message runs on the demo agent. */
export const DEMO_DEFAULT_SKILL = "echo";
/** How long an ai:confirm call waits in input-required for its answer. */
export const A2A_APPROVAL_TIMEOUT_MS = 120_000;

/** ai:confirm tools: left out (a peer agent has no operator), or kept and asked about in the task. */
export type A2aConfirm = "omit" | "ask";

export interface A2aAgentOptions {
  readonly toolkit: Toolkit;
  /** Where the card says each binding is. */
  readonly jsonRpcUrl: string;
  readonly restUrl: string;
  /** The card's version (the serving build). */
  readonly version?: string;
  /** Default `omit`. */
  readonly confirm?: A2aConfirm;
  /** The skill a text-only message runs (one that takes one text argument); `false` for none; default: echo for the demo toolkit, none for others. */
  readonly defaultSkill?: string | false;
  /** Runs at once; default 2. Ignored when `semaphore` is given. */
  readonly concurrency?: number;
  /** A limit shared with other surfaces. */
  readonly semaphore?: Semaphore;
  readonly timeoutMs?: number;
  readonly runner?: CommandRunner;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly approvalTimeoutMs?: number;
  /** Every task waits this long before its tool starts; default 0 (with `tck`, the TCK's hold). */
  readonly holdMs?: number;
  /** The behaviours the A2A TCK documents (see tck-contract.ts), with its TCK_STREAMING_TIMEOUT in seconds. */
  readonly tck?: { readonly streamingTimeoutS: number };
  readonly newId: () => string;
  readonly now?: () => string;
  /** For tests that count what runs at once; `executeTool` otherwise. */
  readonly execute?: ToolExecutor;
  /** Finished tasks kept for tasks/get and tasks/list, the oldest-finished forgotten first; default 1,000. Live tasks are always kept. */
  readonly maxFinishedTasks?: number;
}

export interface A2aAgent {
  readonly toolkit: Toolkit;
  /** Every toolkit tool with whether the a2a surface serves it and why. */
  readonly entries: readonly ServedEntry[];
  readonly skills: ReadonlyMap<string, ToolDef>;
  readonly defaultSkill?: DefaultSkill;
  readonly confirm: A2aConfirm;
  readonly semaphore: Semaphore;
  readonly card: AgentCard;
  readonly handler: A2ARequestHandler;
  readonly executor: ToolkitExecutor;
  readonly jsonRpc: JsonRpcEndpoint;
  /** Tasks held: every live one and the most recently finished (at most `maxFinishedTasks`). */
  taskCount(): number;
  /** The card for a request's A2A-Version (absent: 0.3), or undefined for a version not served. */
  cardFor(version: string | undefined): Record<string, unknown> | undefined;
  /** Ends every task still running or waiting (canceled) and waits for the runs to stop. */
  close(): Promise<void>;
}

/** Builds the agent, logging each tool left out of the A2A surface and why. */
export function createA2aAgent(options: A2aAgentOptions): A2aAgent {
  const { toolkit, logger } = options;
  const confirm = options.confirm ?? "omit";
  const entries = servedSet(toolkit, "a2a", { askConfirm: confirm === "ask" });
  const skills = new Map<string, ToolDef>();
  for (const entry of entries) {
    if (entry.served) skills.set(entry.tool.name, entry.tool);
    else logger.warn(`not serving tool over A2A: ${entry.reason}`, { tool: entry.tool.name });
    for (const warning of readBehaviour(entry.tool.tags).warnings) logger.warn(`tool ${entry.tool.name}: ${warning}`);
  }
  const wanted = options.defaultSkill === false ? undefined : (options.defaultSkill ?? (toolkit === DEMO_TOOLKIT ? DEMO_DEFAULT_SKILL : undefined));
  const defaultSkill = defaultSkillOf([...skills.values()], wanted);
  const card = agentCard({ toolkit, tools: [...skills.values()], jsonRpcUrl: options.jsonRpcUrl, restUrl: options.restUrl, version: options.version ?? "0.0.0", ...(defaultSkill ? { defaultSkill } : {}) });
  const v1Card = AgentCard.toJSON(card) as Record<string, unknown>;
  const v03Card = legacyCard(card);
  const semaphore = options.semaphore ?? new Semaphore(options.concurrency ?? DEFAULT_A2A_CONCURRENCY);
  const buses = new DefaultExecutionEventBusManager();
  const store = new BoundedTaskStore(options.maxFinishedTasks !== undefined ? { maxFinished: options.maxFinishedTasks } : {});
  const fixedHold = options.holdMs ?? 0;
  const holdMs = options.tck ? tckHold(options.tck.streamingTimeoutS, options.holdMs) : () => fixedHold;
  const executor = new ToolkitExecutor({
    agentName: toolkit.name,
    skills,
    ...(defaultSkill ? { defaultSkill } : {}),
    semaphore,
    scheduler: options.scheduler,
    ...(options.runner ? { runner: options.runner } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    compiler: new SchemaCompiler(),
    logger,
    approvalTimeoutMs: options.approvalTimeoutMs ?? A2A_APPROVAL_TIMEOUT_MS,
    holdMs,
    execute: options.execute ?? executeTool,
    newId: options.newId,
    now: options.now ?? (() => new Date().toISOString()),
    releaseBus: (taskId, context) => buses.cleanupByTaskId(taskId, context),
    persist: (event, context) => new ResultManager(store, context).processEvent(event),
  });
  const inner = new DefaultRequestHandler(card, store, executor, buses);
  const handler = new ServedRequestHandler(inner, store, {
    isRunning: (id) => executor.isRunning(id),
    onMessage: (id) => executor.noteMessage(id),
    legacySendReturnsAtOnce: options.tck !== undefined,
    forgotten: (id, context) => (store.wasForgotten(id, context) ? store.maxFinished : undefined),
  });
  return {
    toolkit,
    entries,
    skills,
    ...(defaultSkill ? { defaultSkill } : {}),
    confirm,
    semaphore,
    card,
    handler,
    executor,
    jsonRpc: new JsonRpcEndpoint(handler),
    taskCount: () => store.size,
    cardFor: (version) => (version === undefined || version === "" || version === "0.3" ? v03Card : version === "1.0" ? v1Card : undefined),
    close: () => executor.close(),
  };
}
