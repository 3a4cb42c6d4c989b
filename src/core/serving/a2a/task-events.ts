/**
 * One task's events, as the SDK's event bus takes them. A sink publishes until the task is
 * stopped (canceled, or the agent closed), so a run that ends after its cancel adds nothing.
 */
import { Role, TaskState, type Artifact, type Message, type Part } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus } from "@a2a-js/sdk/server";
import { DATA_MODE, TEXT_MODE } from "./a2a-card.ts";

/** Output is sent in pieces of at most this many characters, each its own artifact update. */
export const CHUNK_CHARS = 8192;

export const TERMINAL: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);

export function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, mediaType: TEXT_MODE, filename: "", metadata: undefined };
}

export function dataPart(value: unknown): Part {
  return { content: { $case: "data", value }, mediaType: DATA_MODE, filename: "", metadata: undefined };
}

export function agentMessage(id: string, taskId: string, contextId: string, parts: Part[]): Message {
  return { messageId: id, contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** Splits text into chunks of at most `size` characters, never inside a surrogate pair; "" is one empty chunk. */
export function chunks(text: string, size = CHUNK_CHARS): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** What one artifact of a result holds: its text (sent in chunks) and any structured value. */
export interface ArtifactBody {
  readonly name: string;
  readonly text: string;
  readonly data?: unknown;
  readonly metadata?: Record<string, unknown>;
}

export class TaskSink {
  #stopped = false;
  readonly #bus: ExecutionEventBus;
  readonly taskId: string;
  readonly contextId: string;
  readonly #newId: () => string;
  readonly #now: () => string;

  constructor(bus: ExecutionEventBus, taskId: string, contextId: string, newId: () => string, now: () => string) {
    this.#bus = bus;
    this.taskId = taskId;
    this.contextId = contextId;
    this.#newId = newId;
    this.#now = now;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  stop(): void {
    this.#stopped = true;
  }

  message(parts: Part[]): Message {
    return agentMessage(this.#newId(), this.taskId, this.contextId, parts);
  }

  /** Publishes the state (unless the task was stopped) and returns the event published. */
  status(state: TaskState, text?: string, extra: Part[] = []): AgentExecutionEvent | undefined {
    if (this.#stopped) return undefined;
    const message = text === undefined && extra.length === 0 ? undefined : this.message([...(text === undefined ? [] : [textPart(text)]), ...extra]);
    const event = AgentEvent.statusUpdate({ taskId: this.taskId, contextId: this.contextId, status: { state, message, timestamp: this.#now() }, metadata: undefined });
    this.#bus.publish(event);
    if (TERMINAL.has(state)) this.#stopped = true;
    return event;
  }

  /** The artifact in chunks: the first replaces, the rest append, the last says so; a data part rides on the last. */
  artifact(body: ArtifactBody): void {
    const artifactId = this.#newId();
    const pieces = chunks(body.text);
    pieces.forEach((piece, i) => {
      if (this.#stopped) return;
      const last = i === pieces.length - 1;
      const parts = [textPart(piece), ...(last && body.data !== undefined ? [dataPart(body.data)] : [])];
      const artifact: Artifact = { artifactId, name: body.name, description: "", parts, metadata: i === 0 ? body.metadata : undefined, extensions: [] };
      this.#bus.publish(AgentEvent.artifactUpdate({ taskId: this.taskId, contextId: this.contextId, artifact, append: i > 0, lastChunk: last, metadata: undefined }));
    });
  }
}
