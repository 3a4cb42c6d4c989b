/**
 * NATS steps over TCP, as `patchbay call nats` connects: a plain request, a fisk-ai tool call
 * through the console's own client, or a fisk-ai task. One connection per target (token auth
 * from the target), wrapped so every frame lands in its wire log. Frames are judged as they
 * crossed and kept with conversation tokens redacted.
 */
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { callTool, redactConversationTokens, startTask, type FiskClientDeps, type TaskResult } from "../../src/core/fisk/client/index.ts";
import type { NatsAction, NatsRequestAction, NatsTargetSpec, NatsTaskAction, NatsToolAction, StepOutcome } from "../../src/core/harness/collection-types.ts";
import type { ExecutorContext, ResolvedStep, StepExecutor, StepObservation } from "../../src/core/harness/run-types.ts";
import { loggedPort } from "../../src/core/nats/logged-port.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import { NatsRequestError, type NatsConnector, type NatsMessage, type NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import type { ValidationEngine } from "../../src/core/validation/engine.ts";
import { sequentialIds } from "../../src/core/env/index.ts";
import { WireLog, type WireEntry } from "../../src/core/wire/index.ts";
import { EarlierSends, ownEntries } from "./nats-own-frames.ts";
import { payloadValue, replyBody, replyStream, taskStepOutcome, toolStepOutcome } from "./nats-outcome.ts";
import { stepFrames } from "./step-frames.ts";
import { settleWithin, stepLimit, StepStoppedError, unlessStopped, type StepLimit } from "./step-limit.ts";
import { isObservation, TargetSessions } from "./target-sessions.ts";

export interface NatsExecutorOptions {
  readonly engine?: ValidationEngine;
  readonly connector?: NatsConnector;
}

interface NatsSession {
  /** Logged: every frame lands in `log`. */
  readonly port: NatsPort;
  readonly log: WireLog;
  /** What earlier steps sent, for telling their late answers apart (see ownEntries). */
  readonly earlier: EarlierSends;
}

const LOG_CAPACITY = 20_000;
const SENDER = { name: "patchbay-harness" };
/** How long a stopped task may take to hear its cancel acknowledged and end. */
const TASK_STOP_MS = 1_500;
const CLOSE_WITHIN_MS = 2_000;
const clock = systemClock(performance, Date);
const encoder = new TextEncoder();

function channelOf(entry: WireEntry): string {
  return entry.status !== undefined ? `${entry.target} (status ${entry.status}${entry.note ? ` ${entry.note}` : ""})` : entry.target;
}

export class NatsExecutor implements StepExecutor {
  readonly #engine: ValidationEngine;
  readonly #connector: NatsConnector;
  readonly #sessions = new TargetSessions<NatsSession>((s) => settleWithin(s.port.close(), CLOSE_WITHIN_MS));

  constructor(options: NatsExecutorOptions = {}) {
    this.#engine = options.engine ?? createValidationEngine();
    this.#connector = options.connector ?? tcpConnector();
  }

  async run(step: ResolvedStep, ctx: ExecutorContext): Promise<StepObservation> {
    const { target: spec, action } = step;
    if (spec.protocol !== "nats" || action.protocol !== "nats") throw new Error(`the NATS executor got a ${spec.protocol} target with a ${action.protocol} action`);
    const limit = stepLimit(ctx, step.timeoutMs);
    try {
      const session = await this.#sessions.getOrOpen(step.targetName, spec, () => this.#connect(spec, limit, step.timeoutMs), isObservation);
      if (isObservation(session)) return session;
      const mark = session.log.lastSeq;
      const sentAt = performance.now();
      const answer = await this.#send(session.port, action, limit, step.timeoutMs);
      const latencyMs = performance.now() - sentAt;
      if (answer.outcome.kind === "transport-error") await this.#sessions.drop(step.targetName);
      // A fresh validation session per step: different agents share one connection.
      // A plain request may carry anything; a tool call or a task speaks fisk-ai.
      const family = action.kind === "request" ? {} : { family: "fisk-ai" as const };
      const frames = stepFrames(ownEntries(session.earlier, session.log.entriesAfter(mark), performance.now()), { startedAt: limit.startedAt, channel: channelOf, validator: this.#engine.session(), redact: redactConversationTokens, ...family });
      return { ...answer, frames, latencyMs };
    } finally {
      limit.dispose();
    }
  }

  async #connect(spec: NatsTargetSpec, limit: StepLimit, timeoutMs: number): Promise<NatsSession | StepObservation> {
    const connecting = this.#connector.connect({ servers: spec.server, name: "patchbay-harness", timeoutMs: limit.remainingMs(), ...(spec.token ? { auth: { token: spec.token } } : {}) });
    try {
      const raw = await unlessStopped(connecting, limit.signal);
      const log = new WireLog(clock, LOG_CAPACITY);
      return { port: loggedPort(raw, log, clock, sequentialIds("nats")), log, earlier: new EarlierSends() };
    } catch (err) {
      // A connection that lands after the step gave up is closed at once.
      void connecting.then((late) => late.close()).catch(() => undefined);
      const outcome: StepOutcome =
        err instanceof StepStoppedError
          ? limit.why() === "timeout"
            ? { kind: "timeout", message: `no connection to ${spec.server} within the step's time limit of ${timeoutMs} ms` }
            : { kind: "cancelled", message: "cancelled while connecting" }
          : { kind: "transport-error", message: (err as Error).message };
      return { outcome, body: null, frames: [], latencyMs: performance.now() - limit.startedAt };
    }
  }

  #send(port: NatsPort, action: NatsAction, limit: StepLimit, timeoutMs: number): Promise<Omit<StepObservation, "frames" | "latencyMs">> {
    if (action.kind === "request") return this.#request(port, action, limit, timeoutMs);
    const deps: FiskClientDeps = {
      port,
      clock,
      scheduler: systemScheduler(),
      random: (b) => crypto.getRandomValues(b),
      sender: SENDER,
      validate: (text) => this.#engine.session().validateText(text),
    };
    return action.kind === "tool" ? this.#tool(deps, action, limit, timeoutMs) : this.#task(deps, action, limit, timeoutMs);
  }

  async #request(port: NatsPort, action: NatsRequestAction, limit: StepLimit, timeoutMs: number): Promise<Omit<StepObservation, "frames" | "latencyMs">> {
    const headers = action.headers ? Object.fromEntries(Object.entries(action.headers).map(([k, v]) => [k, [v]])) : undefined;
    let reply: NatsMessage;
    try {
      // The request is given up with the step, so its failure is logged among this step's frames.
      reply = await port.request(action.subject, encoder.encode(action.payload), { timeoutMs: limit.remainingMs(), signal: limit.signal, ...(headers ? { headers } : {}) });
    } catch (err) {
      return { outcome: requestFailure(err, action.subject, limit, timeoutMs), body: null };
    }
    if (reply.status?.code === 503) return { outcome: { kind: "no-responders", message: `no responders (503): nothing serves ${action.subject}` }, body: null };
    return { outcome: { kind: "result", message: `${action.subject} replied (${reply.data.length} bytes)` }, body: payloadValue(reply.data) };
  }

  async #tool(deps: FiskClientDeps, action: NatsToolAction, limit: StepLimit, timeoutMs: number): Promise<Omit<StepObservation, "frames" | "latencyMs">> {
    let result: Awaited<ReturnType<typeof callTool>>;
    try {
      result = await callTool(deps, action.identity, action.tool, action.input ? { ...action.input } : null, { idleMs: limit.remainingMs(), allowShortIdle: true, signal: limit.signal });
    } catch (err) {
      return { outcome: { kind: "transport-error", message: `the tool call failed: ${(err as Error).message}` }, body: null };
    }
    return { outcome: toolStepOutcome(result.set, result.outcome, limit.why(), timeoutMs), body: replyBody(result.set.entries), stream: replyStream(result.set.entries, result.set.end) };
  }

  async #task(deps: FiskClientDeps, action: NatsTaskAction, limit: StepLimit, timeoutMs: number): Promise<Omit<StepObservation, "frames" | "latencyMs">> {
    let handle: ReturnType<typeof startTask>;
    try {
      handle = startTask(deps, action.identity, { kind: "prompt", prompt: action.text }, { idleMs: limit.remainingMs(), allowShortIdle: true, requestTimeoutMs: TASK_STOP_MS });
    } catch (err) {
      return { outcome: { kind: "transport-error", message: `the task was not started: ${(err as Error).message}` }, body: null };
    }
    let result: TaskResult | undefined;
    try {
      result = await unlessStopped(handle.done, limit.signal);
    } catch (err) {
      if (!(err instanceof StepStoppedError)) return { outcome: { kind: "transport-error", message: `the task failed: ${(err as Error).message}` }, body: null };
      // Tasks have a cancel subject: the agent is told, and its last word is waited for briefly.
      await settleWithin(handle.cancel(limit.why() === "timeout" ? "the step's time limit was reached" : "the step was stopped"), TASK_STOP_MS);
    }
    const entries = [...handle.entries];
    const end = result?.end ?? { kind: "cancelled" as const };
    // The ack holds the conversation token; a body a later step may capture must not.
    const body: unknown = JSON.parse(redactConversationTokens(JSON.stringify(replyBody(entries))));
    return { outcome: taskStepOutcome(end, limit.why(), timeoutMs), body, stream: replyStream(entries, end) };
  }

  async close(): Promise<void> {
    await this.#sessions.closeAll();
  }
}

function requestFailure(err: unknown, subject: string, limit: StepLimit, timeoutMs: number): StepOutcome {
  if (err instanceof NatsRequestError && err.kind === "cancelled" && limit.why() !== null) {
    return limit.why() === "timeout" ? { kind: "timeout", message: `no reply on ${subject} within the step's time limit of ${timeoutMs} ms` } : { kind: "cancelled", message: `cancelled before ${subject} replied` };
  }
  if (err instanceof NatsRequestError && err.kind === "no-responders") return { kind: "no-responders", message: `no responders (503): nothing serves ${subject}` };
  if (err instanceof NatsRequestError && err.kind === "timeout") return { kind: "timeout", message: `no reply on ${subject} within ${timeoutMs} ms` };
  return { kind: "transport-error", message: (err as Error).message };
}

export function natsExecutor(options?: NatsExecutorOptions): StepExecutor {
  return new NatsExecutor(options);
}
