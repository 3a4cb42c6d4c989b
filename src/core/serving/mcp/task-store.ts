/**
 * The tool calls the served agent runs as tasks, for both eras. It keeps every live task and the
 * last `maxFinished` finished ones (the oldest finished is forgotten first), and a finished task
 * for at most its time to live; a flood of new tasks is refused once `maxLive` are running.
 */
import type { CallToolResult, InputRequest } from "@modelcontextprotocol/server";

export type McpTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export const DEFAULT_MAX_FINISHED_TASKS = 1_000;
export const DEFAULT_MAX_LIVE_TASKS = 1_000;
/** How long a task is kept from its creation; a live task is never dropped. */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 500;
const PAGE_SIZE = 50;

export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export class McpTask {
  readonly id: string;
  readonly owner: string;
  readonly tool: string;
  readonly seq: number;
  readonly createdAt: number;
  lastUpdatedAt: number;
  status: McpTaskStatus = "working";
  statusMessage: string | undefined;
  result: CallToolResult | undefined;
  error: TaskError | undefined;
  /** The questions the task waits on (modern era), by the keys the client answers under. */
  readonly pending = new Map<string, InputRequest>();
  readonly controller = new AbortController();
  readonly #answers = new Map<string, unknown>();
  #answered: (() => void) | undefined;
  #done!: () => void;
  readonly done: Promise<void>;
  readonly #now: () => number;

  constructor(id: string, owner: string, tool: string, seq: number, now: () => number) {
    this.id = id;
    this.owner = owner;
    this.tool = tool;
    this.seq = seq;
    this.#now = now;
    this.createdAt = this.lastUpdatedAt = now();
    this.done = new Promise<void>((resolve) => (this.#done = resolve));
  }

  get finished(): boolean {
    return this.status === "completed" || this.status === "failed" || this.status === "cancelled";
  }

  touch(message?: string): void {
    this.lastUpdatedAt = this.#now();
    if (message !== undefined) this.statusMessage = message;
  }

  /** Parks the task until every request is answered (answers may come a few at a time); rejects if it is cancelled. */
  ask(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>> {
    if (this.finished) return Promise.reject(new Error("the task has ended"));
    this.#answers.clear();
    for (const [key, request] of Object.entries(requests)) this.pending.set(key, request);
    this.status = "input_required";
    this.touch("waiting for input");
    return new Promise((resolve, reject) => {
      const stop = () => reject(new Error("the task was cancelled while it waited for input"));
      this.controller.signal.addEventListener("abort", stop, { once: true });
      this.#answered = () => {
        this.controller.signal.removeEventListener("abort", stop);
        this.#answered = undefined;
        resolve(Object.fromEntries(this.#answers));
      };
      if (this.pending.size === 0) this.#answered();
    });
  }

  /** Takes the answers to pending questions (others are ignored); true when one was taken. */
  answer(responses: Readonly<Record<string, unknown>>): boolean {
    let took = false;
    for (const [key, value] of Object.entries(responses)) {
      if (!this.pending.delete(key)) continue;
      this.#answers.set(key, value);
      took = true;
    }
    if (took && this.pending.size === 0 && this.status === "input_required") {
      this.status = "working";
      this.touch("resumed");
      this.#answered?.();
    }
    return took;
  }

  /** Ends the task; a task that already ended keeps its first ending. */
  settle(status: "completed" | "failed" | "cancelled", outcome: { result?: CallToolResult; error?: TaskError; message?: string } = {}): boolean {
    if (this.finished) return false;
    this.status = status;
    this.result = outcome.result;
    this.error = outcome.error;
    this.pending.clear();
    this.touch(outcome.message);
    this.#done();
    return true;
  }
}

export interface TaskStoreOptions {
  /** Wall clock, epoch ms. */
  readonly now: () => number;
  /** Fresh unguessable ids: on the modern era a task id is all it takes to read or cancel a task. */
  readonly newId: () => string;
  readonly maxFinished?: number;
  readonly maxLive?: number;
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
}

export class McpTaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly #options: TaskStoreOptions;
  readonly #tasks = new Map<string, McpTask>();
  /** Finished task ids, the longest finished first. */
  readonly #finished: string[] = [];
  #seq = 0;

  constructor(options: TaskStoreOptions) {
    this.#options = options;
    this.ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  }

  get size(): number {
    return this.#tasks.size;
  }

  get live(): number {
    return this.#tasks.size - this.#finished.length;
  }

  /** A new working task, or undefined when `maxLive` tasks are live already. */
  create(owner: string, tool: string): McpTask | undefined {
    if (this.live >= (this.#options.maxLive ?? DEFAULT_MAX_LIVE_TASKS)) return undefined;
    let id = this.#options.newId();
    while (this.#tasks.has(id)) id = this.#options.newId();
    const task = new McpTask(id, owner, tool, ++this.#seq, this.#options.now);
    this.#tasks.set(id, task);
    void task.done.then(() => this.#retire(task));
    return task;
  }

  /** The task, when it exists, has not outlived its time and belongs to `owner`. */
  get(id: string, owner: string): McpTask | undefined {
    this.#expire();
    const task = this.#tasks.get(id);
    return task && task.owner === owner ? task : undefined;
  }

  /** The owner's tasks in creation order, a page at a time; the cursor is the last seq seen. */
  list(owner: string, cursor?: string): { readonly tasks: McpTask[]; readonly nextCursor?: string } | undefined {
    const after = cursor === undefined ? 0 : /^\d{1,15}$/.test(cursor) ? Number(cursor) : undefined;
    if (after === undefined) return undefined;
    this.#expire();
    const mine = [...this.#tasks.values()].filter((t) => t.owner === owner && t.seq > after).sort((a, b) => a.seq - b.seq);
    const page = mine.slice(0, PAGE_SIZE);
    return mine.length > PAGE_SIZE ? { tasks: page, nextCursor: String(page.at(-1)!.seq) } : { tasks: page };
  }

  /** Cancels every live task (serving stops), or those of one owner (its session ended). */
  cancelAll(): void {
    this.#cancel(() => true, "serving stopped");
  }

  cancelOwned(owner: string): void {
    this.#cancel((task) => task.owner === owner, "the session that started it ended");
  }

  #cancel(which: (task: McpTask) => boolean, why: string): void {
    for (const task of this.#tasks.values()) {
      if (task.finished || !which(task)) continue;
      task.controller.abort();
      task.settle("cancelled", { message: why });
    }
  }

  #retire(task: McpTask): void {
    if (this.#tasks.get(task.id) !== task) return;
    this.#finished.push(task.id);
    const max = this.#options.maxFinished ?? DEFAULT_MAX_FINISHED_TASKS;
    while (this.#finished.length > max) this.#tasks.delete(this.#finished.shift()!);
  }

  #expire(): void {
    const oldest = this.#options.now() - this.ttlMs;
    while (this.#finished.length > 0) {
      const first = this.#tasks.get(this.#finished[0]!);
      if (first && first.createdAt > oldest) break;
      this.#finished.shift();
      if (first) this.#tasks.delete(first.id);
    }
  }
}
