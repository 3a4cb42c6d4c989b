/**
 * The SDK agent's AgentExecutor: the neutral peer script, published as SDK events. The SDK
 * turns them into v1.0 or v0.3 wire shapes depending on how the client called.
 */
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Part } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { INTERRUPTED_STATES, parseCommand, runFollowUp, runTask, type ArtifactChunk, type PeerState, type ScriptSink } from "./peer-script.ts";

const STATES: Readonly<Record<PeerState, TaskState>> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  "input-required": TaskState.TASK_STATE_INPUT_REQUIRED,
  "auth-required": TaskState.TASK_STATE_AUTH_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  canceled: TaskState.TASK_STATE_CANCELED,
  failed: TaskState.TASK_STATE_FAILED,
  rejected: TaskState.TASK_STATE_REJECTED,
};

const INTERRUPTED = new Set([...INTERRUPTED_STATES].map((s) => STATES[s]));

const now = (): string => new Date().toISOString();

function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: undefined };
}

/** The first text part of the message, or "" when it has none. */
export function firstText(message: Message): string {
  for (const part of message.parts) if (part.content?.$case === "text") return part.content.value;
  return "";
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** One run's sink: publishes on the bus until the task is canceled or the agent closes. */
class BusSink implements ScriptSink {
  #stopped = false;
  readonly bus: ExecutionEventBus;
  readonly taskId: string;
  readonly contextId: string;
  readonly isClosed: () => boolean;

  constructor(bus: ExecutionEventBus, taskId: string, contextId: string, isClosed: () => boolean) {
    this.bus = bus;
    this.taskId = taskId;
    this.contextId = contextId;
    this.isClosed = isClosed;
  }

  get stopped(): boolean {
    return this.#stopped || this.isClosed();
  }

  stop(): void {
    this.#stopped = true;
  }

  status(state: PeerState, text?: string): void {
    if (this.stopped) return;
    const message = text === undefined ? undefined : agentMessage(text, this.taskId, this.contextId);
    this.bus.publish(AgentEvent.statusUpdate({ taskId: this.taskId, contextId: this.contextId, status: { state: STATES[state], message, timestamp: now() }, metadata: undefined }));
  }

  artifact(chunk: ArtifactChunk): void {
    if (this.stopped) return;
    const artifact = { artifactId: chunk.artifactId, name: chunk.name, description: "", parts: [textPart(chunk.text)], metadata: undefined, extensions: [] };
    this.bus.publish(AgentEvent.artifactUpdate({ taskId: this.taskId, contextId: this.contextId, artifact, append: chunk.append, lastChunk: chunk.lastChunk, metadata: undefined }));
  }
}

export class PeerExecutor implements AgentExecutor {
  readonly #running = new Map<string, BusSink>();
  /** Each task's context, for the cancel event of a task that is not running (an interrupted one). */
  readonly #contexts = new Map<string, string>();
  #closed = false;

  /** Stops every running script, so closing the agent leaves no timers publishing. */
  close(): void {
    this.#closed = true;
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    this.#contexts.set(taskId, contextId);
    const text = firstText(ctx.userMessage);
    const sink = new BusSink(bus, taskId, contextId, () => this.#closed);
    const existing = ctx.task;
    if (existing?.status && INTERRUPTED.has(existing.status.state)) {
      // The SDK wants a task (or message) event first on every turn, follow-ups included.
      bus.publish(AgentEvent.task(existing));
      runFollowUp(text, sink);
      bus.finished();
      return;
    }
    const command = parseCommand(text);
    if (command.kind === "message") {
      bus.publish(AgentEvent.message(agentMessage(command.text, "", contextId)));
      bus.finished();
      return;
    }
    bus.publish(
      AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }),
    );
    this.#running.set(taskId, sink);
    try {
      await runTask(command, sink);
    } finally {
      this.#running.delete(taskId);
    }
    if (!sink.stopped || this.#closed) bus.finished();
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const sink = this.#running.get(taskId);
    sink?.stop();
    const contextId = this.#contexts.get(taskId) ?? "";
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, message: agentMessage("canceled on request", taskId, contextId), timestamp: now() },
        metadata: undefined,
      }),
    );
    bus.finished();
  };
}
