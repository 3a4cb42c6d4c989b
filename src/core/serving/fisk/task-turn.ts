import { FISK_PROTOCOLS, mintKsuid, type FiskMessage, type IdContext } from "../../fisk/codec/index.ts";
import { EVENT_PREFIX } from "../../packs/fisk-ai/protocol.ts";
import type { Clock } from "../../env/environment.ts";
import type { Scheduler } from "../../env/scheduler.ts";
import type { CommandRunner } from "../run-types.ts";
import type { Semaphore } from "../semaphore.ts";
import type { ToolProgress, ToolRun } from "../tool-run.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import type { Conversation, StoredBlock } from "./conversations.ts";
import type { ReplyStream } from "./reply-stream.ts";
import type { Approval, TurnContext } from "./task-runner.ts";
import type { ToolExecutor } from "./tool-endpoint.ts";
import type { OpenQuestion, WatchedTask } from "./task-watches.ts";

/**
 * One running turn: its reply set, its cancel, the question it holds, the blocks it keeps for
 * replay, and the way its tools run (a slot of the shared limit, the call timeout, the task's
 * cancel). The runner sees it as a `TurnContext`.
 */

export interface TurnDeps {
  readonly clock: Clock;
  readonly ids: IdContext;
  readonly scheduler: Scheduler;
  readonly semaphore: Semaphore;
  readonly execute: ToolExecutor;
  readonly runner?: CommandRunner;
  readonly callTimeoutMs: number;
  readonly keepaliveMs: number;
  /** How long a question waits for its answer; each `elicit.waiting` restarts it. */
  readonly questionWindowMs: number;
  readonly tools: ReadonlyMap<string, ToolDef>;
  readonly gated: (tool: ToolDef) => boolean;
}

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

export class Turn implements WatchedTask, TurnContext {
  readonly request: string;
  readonly conversation: Conversation;
  readonly stream: ReplyStream;
  readonly blocks: StoredBlock[] = [];
  question: OpenQuestion | undefined;
  readonly #deps: TurnDeps;
  readonly #streaming: boolean;
  readonly #abort = new AbortController();
  #cancelReason: string | undefined;

  constructor(deps: TurnDeps, request: string, conversation: Conversation, stream: ReplyStream, streaming: boolean) {
    this.#deps = deps;
    this.request = request;
    this.conversation = conversation;
    this.stream = stream;
    this.#streaming = streaming;
  }

  get tools(): ReadonlyMap<string, ToolDef> {
    return this.#deps.tools;
  }

  get gated(): (tool: ToolDef) => boolean {
    return this.#deps.gated;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  cancelReason = (): string | undefined => this.#cancelReason;

  /** The caller's cancel (or the agent stopping): the question closes, a running tool is stopped. */
  cancel(reason: string | undefined): void {
    if (this.#abort.signal.aborted) return;
    this.#cancelReason = reason;
    this.#abort.abort();
    this.question?.answer("cancelled");
  }

  emit(event: "tool_call" | "tool_result" | "text" | "warning" | "prompt", block: Record<string, unknown>): void {
    this.blocks.push({ event, block });
    if (this.#streaming) this.stream.message(`${EVENT_PREFIX}${event}` as FiskMessage["protocol"], { block });
  }

  progress(p: ToolProgress): void {
    if (!this.#streaming) return;
    const extra = { progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) };
    this.stream.status({ phase: "running-tool", ...extra }, false);
  }

  toolUseId(): string {
    return `toolu_${mintKsuid(this.#deps.ids.clock, this.#deps.ids.random)}`;
  }

  /** `elicit.request.approve` on the reply set (sent even when not streaming), then the answer. */
  approve(toolUseId: string, tool: ToolDef, input: Readonly<Record<string, unknown>>): Promise<Approval> {
    const { scheduler, questionWindowMs, ids } = this.#deps;
    if (this.#abort.signal.aborted) return Promise.resolve("cancelled");
    return new Promise<Approval>((resolve) => {
      const id = mintKsuid(ids.clock, ids.random);
      let cancelWindow: () => void = () => undefined;
      const done = (approval: Approval): void => {
        if (this.question?.id !== id) return;
        this.question = undefined;
        cancelWindow();
        resolve(approval);
      };
      const restartWindow = (): void => {
        cancelWindow();
        cancelWindow = scheduler.after(questionWindowMs, () => done("unanswered"));
      };
      this.question = { id, kind: "approve", answer: done, restartWindow };
      restartWindow();
      const display = `${tool.name} ${JSON.stringify(input)}`;
      const sent = this.stream.message(FISK_PROTOCOLS.elicitRequestApprove, { question_id: id, tool_use_id: toolUseId, command: tool.name, display, tag: "ai:confirm", wait_ms: questionWindowMs });
      // A question that cannot be sent cannot be answered.
      if (!sent) done("unanswered");
    });
  }

  /** Runs a tool in a slot of the shared limit, under the call timeout and the task's cancel. */
  async run(tool: ToolDef, input: Readonly<Record<string, unknown>>): Promise<ToolRun> {
    const { semaphore, scheduler, callTimeoutMs, keepaliveMs, runner } = this.#deps;
    let release: () => void;
    try {
      release = await semaphore.acquire(this.#abort.signal);
    } catch {
      return { kind: "harness-error", reason: "cancelled", message: "the task was cancelled before the tool got a slot" };
    }
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    this.#abort.signal.addEventListener("abort", stop, { once: true });
    let timedOut = false;
    const cancelTimer = scheduler.after(callTimeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    // The task stream has no keepalive of its own; a long tool would otherwise look like a silent peer.
    let cancelKeepalive: () => void = () => undefined;
    const tick = (): void => {
      if (this.stream.keepalive()) cancelKeepalive = scheduler.after(keepaliveMs, tick);
    };
    cancelKeepalive = scheduler.after(keepaliveMs, tick);
    try {
      const run = await this.#deps.execute(tool, input, {
        scheduler,
        signal: controller.signal,
        onProgress: (p) => this.progress(p),
        ...(runner ? { runner } : {}),
        ...(tool.impl.kind === "command" ? { timeoutMs: Math.min(tool.impl.timeoutMs, callTimeoutMs) } : {}),
      });
      if (timedOut) return { kind: "harness-error", reason: "timeout", message: `tool ${JSON.stringify(tool.name)} did not finish within ${seconds(callTimeoutMs)} and was stopped` };
      return run;
    } catch (err) {
      return { kind: "harness-error", reason: "failed", message: `the tool failed: ${(err as Error).message}` };
    } finally {
      cancelTimer();
      cancelKeepalive();
      this.#abort.signal.removeEventListener("abort", stop);
      release();
    }
  }
}
