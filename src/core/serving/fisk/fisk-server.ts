import {
  discoverySubject,
  FISK_PROTOCOLS,
  MAX_BODY_BYTES,
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
import { agentCard, type FiskGeneration } from "./fisk-card.ts";
import { discoveryShape, intake, type FiskValidator } from "./fisk-intake.ts";
import { EndpointStats, serveMicro, serviceInstanceId } from "./micro-service.ts";
import { microError, replyBytes, send, type ReplyTarget } from "./reply-stream.ts";
import { ToolEndpoint, type ToolExecutor } from "./tool-endpoint.ts";

/** fisk-ai's figures: a keepalive every 10 s, a served call bounded at 30 s, at most 1024 slots. */
export const DEFAULT_KEEPALIVE_MS = 10_000;
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
export const MAX_CONCURRENCY = 1024;

/** Tool calls in flight by default: the CPU count clamped to 2–8, as fisk-ai's `DefaultConcurrency`. */
export function defaultConcurrency(cpuCount: number): number {
  const cpus = Number.isFinite(cpuCount) ? Math.floor(cpuCount) : 2;
  return Math.max(2, Math.min(cpus, 8));
}

export interface FiskServeOptions {
  /** The connection to serve on; it stays the caller's (stop() does not close it). */
  readonly port: NatsPort;
  readonly toolkit: Toolkit;
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
  readonly serviceId: string;
  readonly generation: FiskGeneration;
  readonly concurrency: number;
  readonly keepaliveMs: number;
  readonly callTimeoutMs: number;
  readonly subjects: { readonly discovery: string; readonly tool: string };
  /** Every tool of the toolkit, in order, with why it is or is not on this surface. */
  readonly served: readonly { readonly name: string; readonly served: boolean; readonly reason: string }[];
  /** Tools running now (holding a slot). */
  readonly active: number;
  /** Calls not yet answered: running, or (Gen 1) waiting for a slot. */
  readonly pending: number;
  readonly endpoints: { readonly discovery: EndpointCounters; readonly tool: EndpointCounters };
}

export interface FiskServer {
  readonly identity: string;
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
  const identity = toolkit.name;
  let subjects: { discovery: string; tool: string };
  try {
    subjects = { discovery: discoverySubject(identity), tool: toolSubject(identity) };
  } catch (err) {
    throw new FiskServeError((err as Error).message);
  }
  const generation = options.generation ?? "gen2";
  const concurrency = options.semaphore?.limit ?? whole(options.concurrency, defaultConcurrency(options.cpuCount ?? 2), "concurrency", 1, MAX_CONCURRENCY);
  const keepaliveMs = whole(options.keepaliveMs, DEFAULT_KEEPALIVE_MS, "the keepalive interval (ms)", 1, 3_600_000);
  const callTimeoutMs = whole(options.callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS, "the call timeout (ms)", 1, 3_600_000);
  const served = servedSet(toolkit, "nats");
  const card = agentCard(toolkit, served, generation, options.version ?? "dev");
  const me: Identity = { name: identity };
  const ids = { clock, random };
  const warn = (message: string): void => options.logger?.warn(message, { agent: identity });
  const serviceId = serviceInstanceId(random);
  const stats = { discovery: new EndpointStats(), tool: new EndpointStats() };

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
    execute: options.execute ?? executeTool,
    ...(options.runner ? { runner: options.runner } : {}),
    stats: stats.tool,
    warn,
  });

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
    const endpoints = [
      { name: "discovery", subject: subjects.discovery, queueGroup: identity },
      { name: "tool", subject: subjects.tool, queueGroup: identity },
    ];
    const statsOf = (name: string): EndpointStats => (name === "discovery" ? stats.discovery : stats.tool);
    subs.push(...serveMicro(port, { name: identity, id: serviceId, endpoints, stats: statsOf }, clock, warn));
    // Every subscription is known to the server before anyone is told the agent is up.
    await port.flush();
  } catch (err) {
    for (const s of subs) s.unsubscribe();
    throw new FiskServeError(`could not subscribe the agent's subjects: ${(err as Error).message}`);
  }

  let stopping: Promise<void> | undefined;
  return {
    identity,
    card,
    served,
    status: () => ({
      identity,
      serviceId,
      generation,
      concurrency,
      keepaliveMs,
      callTimeoutMs,
      subjects,
      served: served.map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason })),
      active: semaphore.active,
      pending: tools.pending,
      endpoints: { discovery: counters(stats.discovery), tool: counters(stats.tool) },
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
        await tools.stop();
        await port.flush().catch((err: unknown) => warn(`flushing the last replies failed: ${(err as Error).message}`));
      })();
      return stopping;
    },
  };
}
