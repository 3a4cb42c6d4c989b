/**
 * The served agent's AgentExecutor: each new message is a task that runs one tool through the
 * serving core (the executor and semaphore MCP and NATS use). submitted → working (progress as
 * status updates) → the output as an artifact → completed, or failed with the reason. A full
 * agent rejects the task at once; cancel stops the run (a command's whole process group).
 */
import { TaskState, type Message } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutionEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext, type ServerCallContext } from "@a2a-js/sdk/server";
import type { Logger } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import type { SchemaCompiler } from "../../schema/compiler.ts";
import { argumentProblemLines, callArgv, describeCall } from "../call-checks.ts";
import type { CommandRunner } from "../run-types.ts";
import type { Semaphore } from "../semaphore.ts";
import type { ExecuteContext } from "../tool-executor.ts";
import type { ToolProgress, ToolRun } from "../tool-run.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { approvalQuestion, readApproval } from "./approval.ts";
import { readCall, type DefaultSkill } from "./message-call.ts";
import { runEnding } from "./run-result.ts";
import { Hold } from "./task-hold.ts";
import { TaskSink } from "./task-events.ts";

/** Runs one call of a tool; `executeTool` unless a test instruments it. Never throws. */
export type ToolExecutor = (tool: ToolDef, input: unknown, ctx: ExecuteContext) => Promise<ToolRun>;

export interface ExecutorConfig {
  readonly agentName: string;
  readonly skills: ReadonlyMap<string, ToolDef>;
  readonly defaultSkill?: DefaultSkill;
  readonly semaphore: Semaphore;
  readonly scheduler: Scheduler;
  readonly runner?: CommandRunner;
  /** Caps every call; without it each command tool keeps its own limit. */
  readonly timeoutMs?: number;
  readonly compiler: SchemaCompiler;
  readonly logger: Logger;
  readonly approvalTimeoutMs: number;
  /** How long a task waits in working before its tool starts, by the message's id. */
  readonly holdMs: (messageId: string) => number;
  readonly execute: ToolExecutor;
  readonly newId: () => string;
  readonly now: () => string;
  /** Drops the SDK's bus of a task nothing will publish on again. */
  readonly releaseBus: (taskId: string, context: ServerCallContext) => void;
  /** Stores an event no request is there to store (a waiting task's end). */
  readonly persist: (event: AgentExecutionEvent, context: ServerCallContext) => Promise<void>;
}

interface Running {
  readonly sink: TaskSink;
  readonly stop: () => void;
  /** Set while the task waits before its tool starts. */
  hold?: Hold;
}

interface Pending {
  readonly sink: TaskSink;
  readonly bus: ExecutionEventBus;
  readonly context: ServerCallContext;
  readonly tool: ToolDef;
  readonly args: Readonly<Record<string, unknown>>;
  readonly what: string;
  readonly cancelTimer: () => void;
}

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

function progressText(p: ToolProgress): string {
  return p.message ?? (p.total !== undefined ? `${p.progress} of ${p.total}` : `progress ${p.progress}`);
}

export class ToolkitExecutor implements AgentExecutor {
  readonly #cfg: ExecutorConfig;
  readonly #running = new Map<string, Running>();
  readonly #pending = new Map<string, Pending>();
  readonly #runs = new Set<Promise<void>>();
  #closed = false;

  constructor(cfg: ExecutorConfig) {
    this.#cfg = cfg;
  }

  /** Tasks running a tool or waiting to start one. */
  get runningCount(): number {
    return this.#running.size;
  }

  /** The task is running a tool (or waiting to start one), so a message cannot change it. */
  isRunning(taskId: string): boolean {
    return this.#running.has(taskId);
  }

  /** A message arrived on a running task: one still waiting to start waits its whole hold again. */
  noteMessage(taskId: string): void {
    this.#running.get(taskId)?.hold?.restart();
  }

  /** Tasks running a tool or waiting to, and tasks waiting for an approval. */
  get counts(): { readonly running: number; readonly awaitingApproval: number } {
    return { running: this.#running.size, awaitingApproval: this.#pending.size };
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const sink = new TaskSink(bus, taskId, contextId, this.#cfg.newId, this.#cfg.now);
    const pending = this.#pending.get(taskId);
    if (ctx.task) {
      // The SDK wants the task first on every turn.
      bus.publish(AgentEvent.task(ctx.task));
      if (pending) await this.#answer(ctx.userMessage, sink, pending);
      return;
    }
    // Marked running before anything is published, so a follow-up that races the first answer sees it.
    const stopEarly = new AbortController();
    this.#running.set(taskId, { sink, stop: () => stopEarly.abort() });
    try {
      bus.publish(
        AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: this.#cfg.now() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }),
      );
      if (this.#closed) return void sink.status(TaskState.TASK_STATE_REJECTED, `Not run: ${this.#cfg.agentName} is stopping and takes no more tasks.`);
      const reading = readCall(ctx.userMessage, this.#cfg.skills, this.#cfg.defaultSkill);
      if (reading.kind === "refused") return void sink.status(TaskState.TASK_STATE_REJECTED, reading.text);
      const { tool, args } = reading;
      const problems = argumentProblemLines(this.#cfg.compiler, tool.name, tool.inputSchema, args, (m) => this.#cfg.logger.warn(m));
      if (problems.length > 0) return void sink.status(TaskState.TASK_STATE_REJECTED, `Not run: the arguments for ${tool.name} do not match its input schema.\n${problems.join("\n")}`);
      if (readBehaviour(tool.tags).confirm) return this.#ask(sink, bus, ctx.context, tool, args);
      await this.#track(this.#run(sink, tool, args, this.#cfg.holdMs(ctx.userMessage.messageId), stopEarly.signal));
    } finally {
      if (this.#running.get(taskId)?.sink === sink) this.#running.delete(taskId);
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const running = this.#running.get(taskId);
    const pending = this.#pending.get(taskId);
    const sink = running?.sink ?? pending?.sink ?? new TaskSink(bus, taskId, "", this.#cfg.newId, this.#cfg.now);
    // The canceled state goes out first: the run, stopped next, then publishes nothing more.
    sink.status(TaskState.TASK_STATE_CANCELED, running ? "Canceled on request; the tool was stopped." : "Canceled on request.");
    running?.stop();
    if (pending) this.#dropPending(taskId, pending);
    bus.finished();
  };

  /** Stops every run and approval (each task ends canceled) and waits until the runs have ended. */
  async close(): Promise<void> {
    this.#closed = true;
    const ended = [...this.#pending].map(([taskId, pending]) => this.#endPending(taskId, pending, `Not run: ${this.#cfg.agentName} stopped serving before the approval was answered.`));
    for (const running of [...this.#running.values()]) {
      running.sink.status(TaskState.TASK_STATE_CANCELED, `Canceled: ${this.#cfg.agentName} stopped serving.`);
      running.stop();
    }
    while (this.#runs.size > 0) await Promise.all([...this.#runs]);
    await Promise.all(ended);
  }

  /** A task waiting for its approval ends canceled: no request is open on it, so the event is stored here. */
  async #endPending(taskId: string, pending: Pending, why: string): Promise<void> {
    const event = pending.sink.status(TaskState.TASK_STATE_CANCELED, why);
    this.#dropPending(taskId, pending);
    pending.bus.finished();
    if (!event) return;
    try {
      await this.#cfg.persist(event, pending.context);
    } catch (error) {
      this.#cfg.logger.warn(`A2A task ${taskId}: its end was not stored: ${(error as Error).message}`);
    }
  }

  #track(run: Promise<void>): Promise<void> {
    const tracked = run.finally(() => this.#runs.delete(tracked));
    this.#runs.add(tracked);
    return tracked;
  }

  #ask(sink: TaskSink, bus: ExecutionEventBus, context: ServerCallContext, tool: ToolDef, args: Readonly<Record<string, unknown>>): void {
    const what = describeCall(tool, args);
    const taskId = sink.taskId;
    const cancelTimer = this.#cfg.scheduler.after(this.#cfg.approvalTimeoutMs, () => {
      const pending = this.#pending.get(taskId);
      if (pending) void this.#endPending(taskId, pending, `Not run: ${what} was not approved within ${seconds(this.#cfg.approvalTimeoutMs)}.`);
    });
    this.#pending.set(taskId, { sink, bus, context, tool, args, what, cancelTimer });
    sink.status(TaskState.TASK_STATE_INPUT_REQUIRED, approvalQuestion(this.#cfg.agentName, tool.name, what));
  }

  async #answer(message: Message, sink: TaskSink, pending: Pending): Promise<void> {
    const verdict = readApproval(message);
    if (verdict === undefined) {
      sink.status(TaskState.TASK_STATE_INPUT_REQUIRED, `That was neither yes nor no. ${approvalQuestion(this.#cfg.agentName, pending.tool.name, pending.what)}`);
      return;
    }
    this.#pending.delete(sink.taskId);
    pending.cancelTimer();
    if (!verdict) return void sink.status(TaskState.TASK_STATE_CANCELED, `Not run: you refused ${pending.what}.`);
    const stop = new AbortController();
    this.#running.set(sink.taskId, { sink, stop: () => stop.abort() });
    try {
      await this.#track(this.#run(sink, pending.tool, pending.args, 0, stop.signal));
    } finally {
      if (this.#running.get(sink.taskId)?.sink === sink) this.#running.delete(sink.taskId);
    }
  }

  #dropPending(taskId: string, pending: Pending): void {
    this.#pending.delete(taskId);
    pending.cancelTimer();
    this.#cfg.releaseBus(taskId, pending.context);
  }

  /**
   * The run itself: the hold (which takes no slot), then a slot (none free: rejected at once),
   * then the tool. The slot is freed only when the tool has really ended, so the limit holds even
   * for a tool slow to honour the abort.
   */
  async #run(sink: TaskSink, tool: ToolDef, args: Readonly<Record<string, unknown>>, holdMs: number, signal: AbortSignal): Promise<void> {
    const { semaphore, scheduler } = this.#cfg;
    if (holdMs > 0) {
      sink.status(TaskState.TASK_STATE_WORKING, `${tool.name} starts once the task has had no message for ${seconds(holdMs)}`);
      const hold = new Hold(scheduler, holdMs, signal);
      const running = this.#running.get(sink.taskId);
      if (running) running.hold = hold;
      const waited = await hold.done;
      if (running) delete running.hold;
      if (!waited || sink.stopped) return;
    }
    const release = semaphore.tryAcquire();
    if (!release) {
      const why = `Not run: ${this.#cfg.agentName} is already running its maximum of ${semaphore.limit} tool calls at once; send the message again when one has finished.`;
      return void sink.status(TaskState.TASK_STATE_REJECTED, why);
    }
    try {
      if (holdMs === 0) sink.status(TaskState.TASK_STATE_WORKING);
      this.#cfg.logger.info(`A2A task ${sink.taskId}: running ${callArgv(tool, args) ?? `${tool.name} (built-in)`}`);
      let timedOut = false;
      // Command tools get the limit through the runner, which stops the whole process group.
      const builtinLimit = tool.impl.kind === "builtin" ? this.#cfg.timeoutMs : undefined;
      // Only a built-in's limit needs a signal of its own; otherwise the task's signal is the run's.
      const limited = builtinLimit === undefined ? undefined : new AbortController();
      const stop = () => limited?.abort();
      if (limited) signal.addEventListener("abort", stop, { once: true });
      const cancelTimer = limited && scheduler.after(builtinLimit ?? 0, () => ((timedOut = true), limited.abort()));
      let outcome: ToolRun;
      try {
        outcome = await this.#cfg.execute(tool, args, {
          scheduler,
          signal: limited?.signal ?? signal,
          onProgress: (p) => sink.status(TaskState.TASK_STATE_WORKING, progressText(p)),
          ...(this.#cfg.runner ? { runner: this.#cfg.runner } : {}),
          ...(this.#cfg.timeoutMs !== undefined ? { timeoutMs: this.#cfg.timeoutMs } : {}),
        });
      } finally {
        cancelTimer?.();
        if (limited) signal.removeEventListener("abort", stop);
      }
      if (sink.stopped) return;
      if (timedOut) return void sink.status(TaskState.TASK_STATE_FAILED, `${tool.name} did not finish within ${seconds(builtinLimit ?? 0)} and was stopped.`);
      const ending = runEnding(tool, outcome);
      if (ending.artifact) sink.artifact(ending.artifact);
      sink.status(ending.state, ending.reason);
    } finally {
      release();
    }
  }
}
