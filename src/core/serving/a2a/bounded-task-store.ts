/**
 * The served agent's task store. The SDK's in-memory store never forgets a task, so an agent
 * that runs for days would keep every one; this one keeps every live task (not completed,
 * failed, canceled or rejected) and at most `maxFinished` finished ones, forgetting first the
 * task that finished longest ago. Tasks are scoped by tenant and caller as the SDK's store
 * scopes them, and tasks/list pages in its order: latest status first, then by id.
 */
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { resolveUserScope, type OwnerResolver, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { Base64Error, decodeBase64, encodeBase64 } from "../../wire/base64.ts";

export const DEFAULT_MAX_FINISHED_TASKS = 1000;
/** The page size tasks/list uses when a request names none (the spec's). */
const DEFAULT_PAGE_SIZE = 50;

const FINISHED: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
export const isFinished = (task: Task): boolean => task.status !== undefined && FINISHED.has(task.status.state);

export interface BoundedTaskStoreOptions {
  /** Finished tasks kept; default 1,000. At least 1, so a blocking send always finds the task it ran. */
  readonly maxFinished?: number;
  /** Who a call's tasks belong to; default the SDK's (the caller's user name). */
  readonly ownerOf?: OwnerResolver;
}

interface Held {
  readonly scope: string;
  readonly id: string;
  task: Task;
  finished: boolean;
}

/** Past this depth a value is handed to structuredClone, which also copes with cycles. */
const MAX_COPY_DEPTH = 64;

/**
 * A deep copy of a task: plain objects and arrays member by member, anything else (typed arrays,
 * dates, class instances) by structuredClone. The store copies on every save and load, and the
 * SDK saves and loads a task several times per event, so this is a few times quicker than
 * structuredClone of the whole task.
 */
export function copyTask<T>(value: T, depth = 0): T {
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_COPY_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) return value.map((item: unknown) => copyTask(item, depth + 1)) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copyTask((value as Record<string, unknown>)[key], depth + 1);
    // A "__proto__" member (JSON.parse makes one an own property) stays a member, not the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
    else out[key] = member;
  }
  return out as T;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

interface Cursor {
  readonly timestamp: string;
  readonly id: string;
}

const cursorOf = (task: Task): Cursor => ({ timestamp: task.status?.timestamp ?? "", id: task.id });

/** Newest status first, then by id (descending), so every two tasks have one order. */
function order(a: Cursor, b: Cursor): number {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

const encodeCursor = (cursor: Cursor): string => encodeBase64(utf8.encode(JSON.stringify([cursor.timestamp, cursor.id])));

function decodeCursor(token: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(fromUtf8.decode(decodeBase64(token)));
  } catch (error) {
    if (!(error instanceof Base64Error || error instanceof SyntaxError || error instanceof TypeError)) throw error;
  }
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string") {
    throw new RequestMalformedError("pageToken is not one this agent gave out; send the nextPageToken of the previous page.");
  }
  return { timestamp: value[0], id: value[1] };
}

export class BoundedTaskStore implements TaskStore {
  readonly maxFinished: number;
  readonly #ownerOf: OwnerResolver;
  readonly #buckets = new Map<string, Map<string, Held>>();
  /** Finished tasks in the order they finished (a Set keeps insertion order). */
  readonly #finished = new Set<Held>();
  /** Scoped keys of the tasks most recently forgotten, at most `maxFinished` of them. */
  readonly #forgotten = new Set<string>();
  #size = 0;

  constructor(options: BoundedTaskStoreOptions = {}) {
    const max = options.maxFinished ?? DEFAULT_MAX_FINISHED_TASKS;
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxFinishedTasks must be a whole number of at least 1, not ${max}.`);
    this.maxFinished = max;
    this.#ownerOf = options.ownerOf ?? resolveUserScope;
  }

  /** Tasks held, live and finished. */
  get size(): number {
    return this.#size;
  }

  /** Tasks held that have not finished (never forgotten). */
  get live(): number {
    return this.#size - this.#finished.size;
  }

  /** Tenant and owner in one key, each after its length, so no two pairs (or pair and task id) run together. */
  #scopeOf(context: ServerCallContext): string {
    const tenant = context.tenant ?? "";
    const owner = this.#ownerOf(context);
    return `${tenant.length}:${tenant}${owner.length}:${owner}`;
  }

  /** The task was held for this caller and forgotten since (among the last `maxFinished` forgotten). */
  wasForgotten(taskId: string, context: ServerCallContext): boolean {
    return this.#forgotten.size > 0 && this.#forgotten.has(`${this.#scopeOf(context)}${taskId}`);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const held = this.#buckets.get(this.#scopeOf(context))?.get(taskId);
    return held ? copyTask(held.task) : undefined;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const scope = this.#scopeOf(context);
    let bucket = this.#buckets.get(scope);
    if (!bucket) this.#buckets.set(scope, (bucket = new Map()));
    const finished = isFinished(task);
    const copy = copyTask(task);
    const held = bucket.get(task.id);
    if (!held) {
      const added: Held = { scope, id: task.id, task: copy, finished };
      bucket.set(task.id, added);
      this.#size++;
      if (finished) this.#finished.add(added);
      if (this.#forgotten.size > 0) this.#forgotten.delete(`${scope}${task.id}`);
    } else {
      held.task = copy;
      // A finished task saved again keeps its place: the order is by when it first finished.
      if (finished && !held.finished) this.#finished.add(held);
      else if (!finished && held.finished) this.#finished.delete(held);
      held.finished = finished;
    }
    if (this.#finished.size > this.maxFinished) this.#evict();
  }

  #evict(): void {
    for (const oldest of this.#finished) {
      if (this.#finished.size <= this.maxFinished) return;
      this.#finished.delete(oldest);
      const bucket = this.#buckets.get(oldest.scope);
      bucket?.delete(oldest.id);
      if (bucket?.size === 0) this.#buckets.delete(oldest.scope);
      this.#size--;
      const key = `${oldest.scope}${oldest.id}`;
      this.#forgotten.add(key);
      if (this.#forgotten.size > this.maxFinished) {
        for (const first of this.#forgotten) {
          this.#forgotten.delete(first);
          break;
        }
      }
    }
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
    const wanted = (task: Task): boolean => {
      if (params.contextId && task.contextId !== params.contextId) return false;
      if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED && task.status?.state !== params.status) return false;
      // The spec: a status timestamp at or after the one given.
      if (after !== undefined && !(task.status?.timestamp && Date.parse(task.status.timestamp) >= after)) return false;
      return true;
    };
    const matching: Task[] = [];
    for (const held of this.#buckets.get(this.#scopeOf(context))?.values() ?? []) if (wanted(held.task)) matching.push(held.task);
    matching.sort((a, b) => order(cursorOf(a), cursorOf(b)));
    // The page starts after the cursor's place in the order, so it holds even when the cursor's task has gone.
    let start = 0;
    if (params.pageToken) {
      const cursor = decodeCursor(params.pageToken);
      while (start < matching.length && order(cursorOf(matching[start] as Task), cursor) <= 0) start++;
    }
    const page = matching.slice(start, start + pageSize);
    const last = page.at(-1);
    return {
      tasks: page.map((task) => {
        const copy = copyTask(task);
        if (!params.includeArtifacts) copy.artifacts = [];
        return copy;
      }),
      nextPageToken: last && start + page.length < matching.length ? encodeCursor(cursorOf(last)) : "",
      pageSize,
      totalSize: matching.length,
    };
  }
}
