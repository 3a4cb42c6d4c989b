import {
  discoverySubject,
  FISK_PROTOCOLS,
  isValidIdentityName,
  MAX_BODY_BYTES,
  taskSubject,
  toolSubject,
  type AgentCard,
  type DiscoveryRequest,
  type Identity,
  type RandomBytes,
} from "../../fisk/codec/index.ts";
import type { Clock, Logger } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import type { NatsMessage, NatsPort, NatsSubscription } from "../../nats/port.ts";
import type { CommandRunner } from "../run-types.ts";
import { Semaphore } from "../semaphore.ts";
import { executeTool } from "../tool-executor.ts";
import type { ServedEntry } from "../toolkit/served-set.ts";
import type { ToolDef, Toolkit } from "../toolkit/toolkit-types.ts";
import { servedSet } from "../toolkit/served-set.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import { serveConversations } from "./conversation-share.ts";
import { ConversationStore, DEFAULT_CONVERSATION_LIMIT } from "./conversations.ts";
import { agentCard, type FiskGeneration } from "./fisk-card.ts";
import { discoveryShape, intake, type FiskValidator } from "./fisk-intake.ts";
import { EndpointStats, serveMicro, serviceInstanceId, type MicroEndpoint } from "./micro-service.ts";
import { microError, replyBytes, send, type ReplyTarget } from "./reply-stream.ts";
import { TaskEndpoint } from "./task-endpoint.ts";
import { ToolEndpoint, type ToolExecutor } from "./tool-endpoint.ts";

/** fisk-ai's figures: a keepalive every 10 s, a served call bounded at 30 s, at most 1024 slots. */
export const DEFAULT_KEEPALIVE_MS = 10_000;
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
export const MAX_CONCURRENCY = 1024;
/** How long a task's question waits for its answer (fisk-ai's `request_timeout`), unless a waiting restarts it. */
export const DEFAULT_QUESTION_WINDOW_MS = 120_000;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A fresh instance name, `pb-` and 8 base62 characters: one per serving process. */
export function generatedInstance(random: RandomBytes): string {
  return `pb-${Array.from(random(new Uint8Array(8)), (b) => BASE62[b % 62]).join("")}`;
}

/** Tool calls in flight by default: the CPU count clamped to 2–8, as fisk-ai's `DefaultConcurrency`. */
export function defaultConcurrency(cpuCount: number): number {
  const cpus = Number.isFinite(cpuCount) ? Math.floor(cpuCount) : 2;
  return Math.max(2, Math.min(cpus, 8));
}

export interface FiskServeOptions {
  /** The connection to serve on; it stays the caller's (stop() does not close it). */
  readonly port: NatsPort;
  readonly toolkit: Toolkit;
  /** The identity served (the queue group every instance joins); default the toolkit's name. */
  readonly identity?: string;
  /** This process's name among the identity's instances, in every reply's `sender`; default generated. */
  readonly instance?: string;
  /** Tasks running at once before one is refused for capacity; default the tool concurrency. */
  readonly taskWorkers?: number;
  readonly questionWindowMs?: number;
  /** Conversations kept besides those with a turn running; default 1,000. */
  readonly conversationLimit?: number;
  /** How long to wait for a sibling instance to hand a conversation over; default 750 ms. */
  readonly shareWaitMs?: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** `crypto.getRandomValues`: KSUIDs and the service instance id. */
  readonly random: RandomBytes;
  /** The host's CPU count, for the default concurrency. */
  readonly cpuCount?: number;
  /** Tool calls in flight before the agent refuses (Gen 2) or queues (Gen 1); 1–1024. */
  readonly concurrency?: number;
  /** A limit shared with other surfaces; `concurrency` is then ignored. */
  readonly semaphore?: Semaphore;
  readonly keepaliveMs?: number;
  readonly callTimeoutMs?: number;
  /** Default `gen2`; `gen1` answers single replies for v0.0.x peers. */
  readonly generation?: FiskGeneration;
  /** The card's `version` (the serving build). */
  readonly version?: string;
  readonly validate?: FiskValidator;
  /** Absent where programs cannot run: command tools then answer a harness error. */
  readonly runner?: CommandRunner;
  /** For tests that count what runs at once; `executeTool` otherwise. */
  readonly execute?: ToolExecutor;
  readonly logger?: Logger;
}

export interface EndpointCounters {
  readonly requests: number;
  readonly errors: number;
  readonly lastError: string;
}

export interface FiskServerStatus {
  readonly identity: string;
  readonly instance: string;
  readonly serviceId: string;
  readonly generation: FiskGeneration;
  readonly concurrency: number;
  readonly keepaliveMs: number;
  readonly callTimeoutMs: number;
  readonly subjects: { readonly discovery: string; readonly tool: string; readonly task?: string };
  /** Every tool of the toolkit, in order, with why it is or is not on this surface. */
  readonly served: readonly { readonly name: string; readonly served: boolean; readonly reason: string }[];
  /** Tools running now (holding a slot). */
  readonly active: number;
  /** Calls not yet answered: running, or (Gen 1) waiting for a slot. */
  readonly pending: number;
  /** Gen 2 only: turns running now, and how many may. */
  readonly tasks?: { readonly inFlight: number; readonly workers: number; readonly conversations: number };
  readonly endpoints: { readonly discovery: EndpointCounters; readonly tool: EndpointCounters; readonly task?: EndpointCounters };
}

export interface FiskServer {
  readonly identity: string;
  readonly instance: string;
  readonly card: AgentCard;
  readonly served: readonly ServedEntry[];
  status(): FiskServerStatus;
  /** Takes no more requests, ends running calls (each still answered) and unsubscribes. Safe twice. */
  stop(): Promise<void>;
}

export class FiskServeError extends Error {
  override readonly name = "FiskServeError";
}

function whole(value: number | undefined, fallback: number, name: string, min: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) throw new FiskServeError(`${name} must be a whole number from ${min} to ${max}, not ${v}`);
  return v;
}

const counters = (s: EndpointStats): EndpointCounters => ({ requests: s.requests, errors: s.errors, lastError: s.lastError });

/** Serves a toolkit as a fisk-ai peer (Gen 2 wire by default) on an open NATS connection. */
export async function startFiskServer(options: FiskServeOptions): Promise<FiskServer> {
  const { port, toolkit, clock, scheduler, random } = options;
  const identity = options.identity ?? toolkit.name;
  const instance = options.instance ?? generatedInstance(random);
  const generation = options.generation ?? "gen2";
  let subjects: { discovery: string; tool: string; task?: string };
  try {
    subjects = { discovery: discoverySubject(identity), tool: toolSubject(identity), ...(generation === "gen2" ? { task: taskSubject(identity) } : {}) };
  } catch (err) {
    throw new FiskServeError((err as Error).message);
  }
  if (!isValidIdentityName(instance)) throw new FiskServeError(`instance name ${JSON.stringify(instance)} is not valid: it must be letters, digits, '-' or '_' and not empty`);
  const concurrency = options.semaphore?.limit ?? whole(options.concurrency, defaultConcurrency(options.cpuCount ?? 2), "concurrency", 1, MAX_CONCURRENCY);
  const keepaliveMs = whole(options.keepaliveMs, DEFAULT_KEEPALIVE_MS, "the keepalive interval (ms)", 1, 3_600_000);
  const callTimeoutMs = whole(options.callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS, "the call timeout (ms)", 1, 3_600_000);
  const taskWorkers = whole(options.taskWorkers, concurrency, "the task workers", 1, MAX_CONCURRENCY);
  const questionWindowMs = whole(options.questionWindowMs, DEFAULT_QUESTION_WINDOW_MS, "the question window (ms)", 1, 3_600_000);
  const served = servedSet(toolkit, "nats");
  const card = agentCard(toolkit, served, generation, options.version ?? "dev", identity);
  const me: Identity = { name: identity, instance };
  const ids = { clock, random };
  const warn = (message: string): void => options.logger?.warn(message, { agent: identity, instance });
  const serviceId = serviceInstanceId(random);
  const stats = { discovery: new EndpointStats(), tool: new EndpointStats(), task: new EndpointStats() };

  const target = (inbox: string, req?: DiscoveryRequest): ReplyTarget => ({
    port,
    inbox,
    answering: req ? { request: req.request, conversation: req.conversation, sender: req.sender } : { request: "x", conversation: "x" },
    me,
    ids,
    onSendError: warn,
  });
  let cardProblem: string | null = null;
  try {
    const size = replyBytes(target("_INBOX.probe"), FISK_PROTOCOLS.discoveryReply, 0, card).byteLength;
    if (size > MAX_BODY_BYTES) cardProblem = `the agent card is ${size} bytes, over the ${MAX_BODY_BYTES} byte message limit`;
  } catch (err) {
    cardProblem = `the agent card cannot be written: ${(err as Error).message}`;
  }
  if (cardProblem) throw new FiskServeError(`${cardProblem}; serve fewer tools or smaller input schemas`);

  const discovery = (msg: NatsMessage): void => {
    if (!msg.reply) return;
    const checked = intake<DiscoveryRequest>(msg.data, FISK_PROTOCOLS.discoveryRequest, generation, options.validate, discoveryShape);
    if (!checked.ok) {
      stats.discovery.error(400, checked.description);
      microError(target(msg.reply), 400, checked.description);
      return;
    }
    const to = target(msg.reply, checked.message);
    send(to, replyBytes(to, FISK_PROTOCOLS.discoveryReply, 0, card));
  };

  const semaphore = options.semaphore ?? new Semaphore(concurrency);
  const execute = options.execute ?? executeTool;
  const tools = new ToolEndpoint({
    identity,
    me,
    port,
    clock,
    ids,
    scheduler,
    generation,
    served: new Map<string, ToolDef>(served.filter((e) => e.served).map((e) => [e.tool.name, e.tool])),
    semaphore,
    keepaliveMs,
    callTimeoutMs,
    ...(options.validate ? { validate: options.validate } : {}),
    execute,
    ...(options.runner ? { runner: options.runner } : {}),
    stats: stats.tool,
    warn,
  });
  // A task may use confirm-gated tools too: it asks the caller for approval first.
  const taskTools = new Map<string, ToolDef>(servedSet(toolkit, "nats", { askConfirm: true }).filter((e) => e.served).map((e) => [e.tool.name, e.tool]));
  const store = new ConversationStore(options.conversationLimit ?? DEFAULT_CONVERSATION_LIMIT);
  const tasks =
    generation === "gen2"
      ? new TaskEndpoint({
          identity,
          me,
          port,
          clock,
          ids,
          scheduler,
          semaphore,
          execute,
          ...(options.runner ? { runner: options.runner } : {}),
          callTimeoutMs,
          keepaliveMs,
          questionWindowMs,
          tools: taskTools,
          gated: (tool) => readBehaviour(tool.tags).confirm === true,
          workers: taskWorkers,
          store,
          ...(options.validate ? { validate: options.validate } : {}),
          stats: stats.task,
          warn,
          ...(options.shareWaitMs !== undefined ? { shareWaitMs: options.shareWaitMs } : {}),
        })
      : undefined;

  // A handler that throws must not take the subscription down with it.
  const guarded = (fn: (msg: NatsMessage) => void) => (msg: NatsMessage) => {
    try {
      fn(msg);
    } catch (err) {
      warn(`a request on ${msg.subject} failed: ${(err as Error).message}`);
    }
  };
  const subs: NatsSubscription[] = [];
  try {
    subs.push(port.subscribe(subjects.discovery, guarded((m) => stats.discovery.time(clock, () => discovery(m))), { queue: identity }));
    subs.push(port.subscribe(subjects.tool, guarded((m) => tools.handle(m)), { queue: identity }));
    const endpoints: MicroEndpoint[] = [
      { name: "discovery", subject: subjects.discovery, queueGroup: identity },
      { name: "tool", subject: subjects.tool, queueGroup: identity, data: () => ({ in_flight: semaphore.active, capacity: semaphore.limit }) },
    ];
    if (tasks && subjects.task) {
      subs.push(port.subscribe(subjects.task, guarded((m) => tasks.handle(m)), { queue: identity }));
      subs.push(serveConversations(port, identity, store, warn));
      endpoints.push({ name: "task", subject: subjects.task, queueGroup: identity, data: () => ({ in_flight: tasks.inFlight, capacity: tasks.workers }) });
    }
    const statsOf = (name: string): EndpointStats => (name === "discovery" ? stats.discovery : name === "task" ? stats.task : stats.tool);
    subs.push(...serveMicro(port, { name: identity, id: serviceId, metadata: { instance }, endpoints, stats: statsOf }, clock, warn));
    // Every subscription is known to the server before anyone is told the agent is up.
    await port.flush();
  } catch (err) {
    for (const s of subs) s.unsubscribe();
    throw new FiskServeError(`could not subscribe the agent's subjects: ${(err as Error).message}`);
  }

  let stopping: Promise<void> | undefined;
  return {
    identity,
    instance,
    card,
    served,
    status: () => ({
      identity,
      instance,
      serviceId,
      generation,
      concurrency,
      keepaliveMs,
      callTimeoutMs,
      subjects,
      served: served.map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason })),
      active: semaphore.active,
      pending: tools.pending,
      ...(tasks ? { tasks: { inFlight: tasks.inFlight, workers: tasks.workers, conversations: store.size } } : {}),
      endpoints: { discovery: counters(stats.discovery), tool: counters(stats.tool), ...(tasks ? { task: counters(stats.task) } : {}) },
    }),
    stop() {
      stopping ??= (async () => {
        for (const s of subs) {
          try {
            s.unsubscribe();
          } catch (err) {
            // A closed connection has dropped its subscriptions already.
            warn(`unsubscribing failed: ${(err as Error).message}`);
          }
        }
        await Promise.all([tools.stop(), tasks?.stop()]);
        await port.flush().catch((err: unknown) => warn(`flushing the last replies failed: ${(err as Error).message}`));
      })();
      return stopping;
    },
  };
}
