/**
 * The legacy peers' tasks, kept dialect-neutral: each dialect module turns a BoardTask and its
 * events into its own JSON. Runs the shared peer script and pushes task snapshots to webhooks.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { openStream } from "./json-rpc.ts";
import { INTERRUPTED_STATES, runFollowUp, runTask, TERMINAL_STATES, type ArtifactChunk, type Command, type PeerState, type ScriptSink } from "./peer-script.ts";

export interface BoardMessage {
  readonly role: "user" | "agent";
  readonly text: string;
  readonly messageId: string;
}

export interface BoardArtifact {
  readonly artifactId: string;
  readonly name: string;
  readonly index: number;
  /** All chunks so far, joined. */
  text: string;
}

/** A webhook registered for a task, with the config exactly as the client sent it. */
export interface PushTarget {
  readonly url: string;
  readonly token?: string;
  readonly config: unknown;
}

export interface BoardTask {
  readonly id: string;
  readonly contextId: string;
  state: PeerState;
  statusMessage: BoardMessage | undefined;
  timestamp: string;
  readonly artifacts: BoardArtifact[];
  readonly history: BoardMessage[];
  push: PushTarget | undefined;
}

export type BoardEvent =
  | { readonly type: "status"; readonly task: BoardTask; readonly final: boolean }
  | { readonly type: "artifact"; readonly task: BoardTask; readonly chunk: ArtifactChunk };

/** A settled task waits for the client: it ended, or it needs input. */
export const isSettled = (state: PeerState): boolean => TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state);

export interface BoardOptions {
  /** The task's JSON as this dialect writes it, for push notification bodies. */
  readonly serialize: (task: BoardTask) => unknown;
  /** The header that carries a push config's token. */
  readonly tokenHeader?: string;
}

export class TaskBoard {
  readonly tasks = new Map<string, BoardTask>();
  readonly #listeners = new Map<string, Set<(event: BoardEvent) => void>>();
  readonly #options: BoardOptions;
  /** Pushes go out one after another, so a webhook sees the states in order. */
  #pushes: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: BoardOptions) {
    this.#options = options;
  }

  create(id: string, contextId: string, userText: string, messageId: string): BoardTask {
    const task: BoardTask = {
      id,
      contextId,
      state: "submitted",
      statusMessage: undefined,
      timestamp: new Date().toISOString(),
      artifacts: [],
      history: [{ role: "user", text: userText, messageId }],
      push: undefined,
    };
    this.tasks.set(id, task);
    return task;
  }

  /** Listens to one task's events; returns the way to stop listening. */
  subscribe(taskId: string, listener: (event: BoardEvent) => void): () => void {
    let set = this.#listeners.get(taskId);
    if (!set) this.#listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Starts a new task's behaviour; it runs on by itself. */
  start(task: BoardTask, command: Exclude<Command, { kind: "message" }>): void {
    runTask(command, this.#sink(task)).catch(() => undefined);
  }

  /** Continues an input-required or auth-required task with the client's next message. */
  followUp(task: BoardTask, text: string, messageId: string): void {
    task.history.push({ role: "user", text, messageId });
    runFollowUp(text, this.#sink(task));
  }

  /** Resolves once the task ended or needs input (at once if it already has). */
  settled(task: BoardTask): Promise<void> {
    if (isSettled(task.state)) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe(task.id, (event) => {
        if (event.type === "status" && event.final) {
          stop();
          resolve();
        }
      });
    });
  }

  /** Cancels a task that has not ended; false when it already has. */
  cancel(task: BoardTask): boolean {
    if (TERMINAL_STATES.has(task.state)) return false;
    this.#setStatus(task, "canceled", "canceled on request");
    return true;
  }

  close(): void {
    this.#closed = true;
    this.#listeners.clear();
  }

  #sink(task: BoardTask): ScriptSink {
    const isStopped = (): boolean => this.#closed || task.state === "canceled";
    return {
      get stopped() {
        return isStopped();
      },
      status: (state, text) => {
        if (!isStopped()) this.#setStatus(task, state, text);
      },
      artifact: (chunk) => {
        if (isStopped()) return;
        const known = task.artifacts.find((a) => a.artifactId === chunk.artifactId);
        if (known && chunk.append) known.text += chunk.text;
        else if (known) known.text = chunk.text;
        else task.artifacts.push({ artifactId: chunk.artifactId, name: chunk.name, index: task.artifacts.length, text: chunk.text });
        const index = task.artifacts.find((a) => a.artifactId === chunk.artifactId)?.index ?? 0;
        this.#emit({ type: "artifact", task, chunk: { ...chunk, index } });
      },
    };
  }

  #setStatus(task: BoardTask, state: PeerState, text: string | undefined): void {
    task.state = state;
    task.timestamp = new Date().toISOString();
    task.statusMessage = text === undefined ? undefined : { role: "agent", text, messageId: randomUUID() };
    this.#emit({ type: "status", task, final: isSettled(state) });
    this.#push(task);
  }

  #emit(event: BoardEvent): void {
    for (const listener of [...(this.#listeners.get(event.task.id) ?? [])]) listener(event);
  }

  /** Posts the task's snapshot to its webhook; delivery failures are the receiver's problem. */
  #push(task: BoardTask): void {
    const target = task.push;
    if (!target || this.#closed) return;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (target.token !== undefined) headers[this.#options.tokenHeader ?? "x-a2a-notification-token"] = target.token;
    const body = JSON.stringify(this.#options.serialize(task));
    this.#pushes = this.#pushes.then(() => fetch(target.url, { method: "POST", headers, body }).then((r) => r.body?.cancel())).catch(() => undefined);
  }
}

export interface StreamPlan {
  /** Frames written before any event (the task snapshot, say). */
  readonly first: readonly unknown[];
  /** One event's frame in the dialect. */
  readonly frame: (event: BoardEvent) => unknown;
  /** Starts the work once the stream listens, so no event is missed. */
  readonly start?: () => void;
  /** Close right after the first frames (the task had settled already). */
  readonly endNow?: boolean;
}

/** Streams a task's events as SSE until a final status, or until the client goes away. */
export function streamTask(res: ServerResponse, board: TaskBoard, task: BoardTask, plan: StreamPlan): void {
  const write = openStream(res);
  for (const frame of plan.first) write(frame);
  if (plan.endNow) {
    res.end();
    return;
  }
  const stop = board.subscribe(task.id, (event) => {
    write(plan.frame(event));
    if (event.type === "status" && event.final) {
      stop();
      res.end();
    }
  });
  res.on("close", stop);
  plan.start?.();
}
