/**
 * Events folded into tasks: the state timeline with arrival times, artifacts assembled chunk by
 * chunk (`append`, `lastChunk`), and whether a stream ended where the dialect says it ends (v0.x
 * at `final: true`, v1.0 at a terminal or interrupted state) or broke off before.
 */
import type { Dialect } from "./dialect.ts";
import type { A2aEvent, ArtifactChunk } from "./events.ts";
import { isInterrupted, isTerminal, type StateReading, type TaskState } from "./task-state.ts";

export interface StateStep {
  readonly state: TaskState;
  readonly raw: string;
  readonly at: number;
  readonly text?: string;
}

export interface AssembledArtifact {
  readonly artifactId: string;
  readonly name?: string;
  readonly parts: readonly unknown[];
  readonly chunks: number;
  readonly complete: boolean;
}

export interface TaskRecord {
  readonly taskId: string;
  readonly contextId?: string;
  readonly steps: readonly StateStep[];
  readonly artifacts: readonly AssembledArtifact[];
  readonly state?: TaskState;
}

/** Why a stream is over, or that it is not. */
export type StreamEnd = "final" | "terminal" | "interrupted" | "message" | "open";

class MutableTask {
  readonly steps: StateStep[] = [];
  readonly artifacts = new Map<string, { name?: string; parts: unknown[]; chunks: number; complete: boolean }>();
  contextId: string | undefined;
  readonly taskId: string;
  constructor(taskId: string) {
    this.taskId = taskId;
  }

  step(state: StateReading | undefined, at: number, text: string | undefined): void {
    if (!state) return;
    const last = this.steps[this.steps.length - 1];
    if (last && last.state === state.state && last.text === text) return;
    this.steps.push({ state: state.state, raw: state.raw, at, ...(text !== undefined ? { text } : {}) });
  }

  chunk(c: ArtifactChunk): void {
    const known = this.artifacts.get(c.artifactId);
    if (known && c.append) {
      known.parts.push(...c.parts);
      known.chunks++;
      known.complete = c.lastChunk;
      return;
    }
    this.artifacts.set(c.artifactId, { ...(c.name !== undefined ? { name: c.name } : {}), parts: [...c.parts], chunks: 1, complete: c.lastChunk || !c.append });
  }

  record(): TaskRecord {
    const state = this.steps[this.steps.length - 1]?.state;
    const artifacts = [...this.artifacts].map(([artifactId, a]) => ({ artifactId, ...a, parts: [...a.parts] }));
    return { taskId: this.taskId, ...(this.contextId !== undefined ? { contextId: this.contextId } : {}), steps: [...this.steps], artifacts, ...(state ? { state } : {}) };
  }
}

export class TaskFold {
  readonly #dialect: Dialect | undefined;
  readonly #tasks = new Map<string, MutableTask>();
  #end: StreamEnd = "open";
  /** The task the events without an id belong to (the first one seen). */
  #current: string | undefined;

  constructor(dialect: Dialect | undefined) {
    this.#dialect = dialect;
  }

  #task(id: string | undefined): MutableTask {
    const key = id ?? this.#current ?? "";
    this.#current ??= key;
    let t = this.#tasks.get(key);
    if (!t) this.#tasks.set(key, (t = new MutableTask(key)));
    return t;
  }

  /** Folds one event that arrived at `at` (ms, the injected clock). */
  add(event: A2aEvent, at: number): void {
    if (event.kind === "task") {
      const t = this.#task(event.taskId);
      if (event.contextId !== undefined) t.contextId = event.contextId;
      t.step(event.state, at, event.statusText);
      for (const a of event.artifacts) t.chunk({ ...a, append: false, lastChunk: true });
      this.#settle(event.state, undefined);
    } else if (event.kind === "status") {
      const t = this.#task(event.taskId);
      if (event.contextId !== undefined) t.contextId = event.contextId;
      t.step(event.state, at, event.statusText);
      this.#settle(event.state, event.final);
    } else if (event.kind === "artifact") {
      const t = this.#task(event.taskId);
      if (event.contextId !== undefined) t.contextId = event.contextId;
      t.chunk(event.chunk);
    } else if (event.kind === "message" && this.#tasks.size === 0) {
      this.#end = "message";
    }
  }

  #settle(state: StateReading | undefined, final: boolean | undefined): void {
    if (final === true) this.#end = "final";
    else if (this.#dialect === "1.0" || this.#dialect === undefined) {
      if (state && isTerminal(state.state)) this.#end = "terminal";
      else if (state && isInterrupted(state.state)) this.#end = "interrupted";
    }
  }

  /** Where the stream stands: "open" after the body ended means it broke off early. */
  get end(): StreamEnd {
    return this.#end;
  }

  tasks(): TaskRecord[] {
    return [...this.#tasks.values()].map((t) => t.record());
  }
}
