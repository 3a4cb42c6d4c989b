/**
 * A2A steps through core's A2A client, as `patchbay call a2a` talks: the card read once per
 * target (its preferred interface, or the dialect and binding the target asks for), then each
 * operation built for that interface and exchanged over Node's fetch. Every frame, sent and
 * received, lands in the target's wire log as it crosses; a step's frames are what it added.
 */
import { randomUUID } from "node:crypto";
import {
  buildRequest,
  cancelTaskGivenUp,
  chooseInterface,
  exchange,
  fetchAgentCard,
  type ExchangePorts,
  type ExchangeResult,
  type FetchedCard,
  type HttpRequestSpec,
  type OperationInput,
  type RequestTarget,
  isTerminal,
} from "../../src/core/a2a/index.ts";
import type { A2aAction, A2aTargetSpec, StepOutcome } from "../../src/core/harness/collection-types.ts";
import type { ExecutorContext, ResolvedStep, StepExecutor, StepObservation } from "../../src/core/harness/run-types.ts";
import { isJsonObject } from "../../src/core/json/index.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import type { ValidationEngine, ValidationSession } from "../../src/core/validation/engine.ts";
import { systemClock } from "../../src/core/env/index.ts";
import { WireLog, type WireEntry } from "../../src/core/wire/index.ts";
import { a2aBody, a2aOutcome, a2aStream } from "./a2a-outcome.ts";
import { learnFrom, stepFrames } from "./step-frames.ts";
import { stepLimit, type StepLimit } from "./step-limit.ts";
import { isObservation, TargetSessions } from "./target-sessions.ts";

export interface A2aExecutorOptions {
  readonly engine?: ValidationEngine;
  readonly fetch?: typeof fetch;
  readonly newId?: () => string;
}

interface AgentSession {
  readonly card: FetchedCard;
  readonly target: RequestTarget;
  readonly log: WireLog;
  readonly ports: ExchangePorts;
  readonly validator: ValidationSession;
}

const LOG_CAPACITY = 20_000;
const clock = systemClock(performance, Date);

function channelOf(entry: WireEntry): string {
  if (entry.direction === "out") return `${entry.headers?.[":method"]?.[0] ?? "POST"} ${new URL(entry.target).pathname}`;
  const type = entry.headers?.["content-type"]?.[0] ?? "";
  return type.includes("text/event-stream") ? "SSE message" : `HTTP ${entry.status ?? "response"}`;
}

const observed = (outcome: StepOutcome, limit: StepLimit, frames: StepObservation["frames"]): StepObservation => ({ outcome, body: null, frames, latencyMs: performance.now() - limit.startedAt });

/** The operation's input: a text message (or the message given), the task and context named. */
function operationInput(action: A2aAction, target: RequestTarget, newId: () => string): OperationInput {
  const ids = { ...(action.taskId !== undefined ? { taskId: action.taskId } : {}), ...(action.contextId !== undefined ? { contextId: action.contextId } : {}) };
  if (action.operation !== "send" && action.operation !== "stream") return ids;
  if (action.text === undefined && action.message === undefined) throw new Error(`an A2A ${action.operation} step needs "text" or "message"`);
  const parts = action.text !== undefined ? [{ kind: "text" as const, text: action.text }] : [];
  const message = { messageId: newId(), parts, ...ids };
  // v0.1 names the task in the request, chosen by the client.
  if (target.dialect === "0.1") return { message, taskId: action.taskId ?? newId(), ...(action.contextId !== undefined ? { sessionId: action.contextId } : {}) };
  return { message };
}

/** The request with the step's own message object laid over the one built from its text. */
function withMessage(spec: HttpRequestSpec, message: Readonly<Record<string, unknown>>): HttpRequestSpec {
  const body: unknown = JSON.parse(spec.body ?? "{}");
  if (!isJsonObject(body)) return spec;
  const holder = spec.binding === "jsonrpc" ? body.params : body;
  if (!isJsonObject(holder)) return spec;
  holder.message = { ...(isJsonObject(holder.message) ? holder.message : {}), ...message };
  return { ...spec, body: JSON.stringify(body, null, 2) };
}

export class A2aExecutor implements StepExecutor {
  readonly #engine: ValidationEngine;
  readonly #fetch: typeof fetch;
  readonly #newId: () => string;
  readonly #sessions = new TargetSessions<AgentSession>(async () => undefined);

  constructor(options: A2aExecutorOptions = {}) {
    this.#engine = options.engine ?? createValidationEngine();
    this.#fetch = options.fetch ?? fetch;
    this.#newId = options.newId ?? randomUUID;
  }

  async run(step: ResolvedStep, ctx: ExecutorContext): Promise<StepObservation> {
    const { target: spec, action } = step;
    if (spec.protocol !== "a2a" || action.protocol !== "a2a") throw new Error(`the A2A executor got a ${spec.protocol} target with a ${action.protocol} action`);
    const limit = stepLimit(ctx, step.timeoutMs);
    try {
      const session = await this.#sessions.getOrOpen(step.targetName, spec, () => this.#open(spec, limit, step.timeoutMs), isObservation);
      if (isObservation(session)) return session;
      const observation = await this.#send(session, action, step, limit);
      if (observation.outcome.kind === "transport-error") await this.#sessions.drop(step.targetName);
      return observation;
    } finally {
      limit.dispose();
    }
  }

  async #open(spec: A2aTargetSpec, limit: StepLimit, timeoutMs: number): Promise<AgentSession | StepObservation> {
    const log = new WireLog(clock, LOG_CAPACITY);
    const ports: ExchangePorts = { fetch: this.#fetch as never, record: (frame) => void log.record(frame), now: () => performance.now() };
    const validator = this.#engine.session();
    const remaining = limit.remainingMs();
    const fetched = await fetchAgentCard(ports, spec.card, {
      ...(spec.dialect === "1.0" ? { version: "1.0" } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
      limits: { headersMs: remaining, idleMs: remaining },
      signal: limit.signal,
    });
    const frames = () => stepFrames(log.entries(), { startedAt: limit.startedAt, channel: channelOf, validator, family: "a2a" });
    const card = fetched.found;
    if (!card) {
      const why = limit.why();
      if (why === "cancelled") return observed({ kind: "cancelled", message: "cancelled while reading the Agent Card" }, limit, frames());
      if (why === "timeout") return observed({ kind: "timeout", message: `the step's time limit of ${timeoutMs} ms was reached while reading the Agent Card` }, limit, frames());
      const tried = fetched.attempts.map((a) => `${a.url} → ${a.problem ?? a.status}`).join("; ");
      return observed({ kind: "transport-error", message: `no Agent Card: ${tried || "nothing tried"}` }, limit, frames());
    }
    const chosen = chooseInterface(card.interfaces, spec.dialect, spec.binding, card.dialect.alsoPossible);
    if (typeof chosen === "string") return observed({ kind: "transport-error", message: chosen }, limit, frames());
    learnFrom(log.entries(), validator);
    const target: RequestTarget = { url: chosen.url, dialect: chosen.dialect, binding: chosen.binding!, ...(chosen.tenant ? { tenant: chosen.tenant } : {}) };
    return { card, target, log, ports, validator };
  }

  async #send(session: AgentSession, action: A2aAction, step: ResolvedStep, limit: StepLimit): Promise<StepObservation> {
    const { target } = session;
    const rpcId = this.#newId();
    const headers = step.target.protocol === "a2a" && step.target.headers ? { headers: step.target.headers } : {};
    let request = buildRequest(target, action.operation, operationInput(action, target, this.#newId), headers, rpcId);
    if (action.message !== undefined && (action.operation === "send" || action.operation === "stream")) request = withMessage(request, action.message);
    const mark = session.log.lastSeq;
    const sentAt = performance.now();
    const remaining = limit.remainingMs();
    const result = await exchange(session.ports, request, {
      dialect: target.dialect,
      binding: target.binding,
      limits: { headersMs: remaining, idleMs: remaining },
      signal: limit.signal,
      correlationId: rpcId,
    });
    const latencyMs = performance.now() - sentAt;
    const stream = request.streaming ? a2aStream(result, target.dialect) : undefined;
    const outcome = a2aOutcome(result, action.operation, limit.why(), step.timeoutMs);
    const canceled = await this.#cancelGivenUp(session, result, limit, step.target.protocol === "a2a" ? step.target.headers : undefined);
    return {
      outcome: canceled === "" ? outcome : { ...outcome, message: `${outcome.message}${canceled}` },
      body: a2aBody(result, target.binding),
      frames: stepFrames(session.log.entriesAfter(mark), { startedAt: limit.startedAt, channel: channelOf, validator: session.validator, family: "a2a" }),
      latencyMs,
      ...(stream ? { stream } : {}),
    };
  }

  /**
   * A step that gave up (its time limit, a stop) on a task still running cancels it, so it does
   * not go on unseen on the agent; the words say how that went ("" when nothing was left running).
   */
  async #cancelGivenUp(session: AgentSession, result: ExchangeResult, limit: StepLimit, headers: Readonly<Record<string, string>> | undefined): Promise<string> {
    if (limit.why() === null) return "";
    const task = result.fold.tasks()[0];
    if (!task || (task.state !== undefined && isTerminal(task.state))) return "";
    return cancelTaskGivenUp(session.ports, session.target, task.taskId, { ...(headers ? { headers } : {}), newId: this.#newId });
  }

  async close(): Promise<void> {
    await this.#sessions.closeAll();
  }
}

export function a2aExecutor(options?: A2aExecutorOptions): StepExecutor {
  return new A2aExecutor(options);
}
