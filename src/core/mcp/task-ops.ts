/**
 * The task requests of a connection, in its era: ask for a call to run as a task, read a task's
 * state (polling at the server's interval), fetch its result, cancel it, list tasks, and answer a
 * modern task that waits for input. Whatever the server gets wrong is named: a task it forgot,
 * an answer about another task, a result that belongs to another task.
 */
import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { systemScheduler, type Scheduler } from "../env/scheduler.ts";
import { isJsonObject } from "../json/index.ts";
import { outcomeFromError } from "./call-outcome.ts";
import type { CallOutcome, ConnectResult } from "./connection-types.ts";
import { META_CLIENT_CAPABILITIES } from "./envelope.ts";
import type { InputAnswers, InputRound } from "./mrtr.ts";
import { roundOf } from "./mrtr.ts";
import { McpRequestError, type RequestOptions } from "./request-failure.ts";
import { answeredTask, isTerminal, listedTasks, pollDelay, resultTaskProblem, TASKS_EXTENSION, taskSupport, type TaskSupport, type TaskView } from "./tasks.ts";

export interface TaskDeps {
  info(): ConnectResult;
  request(method: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<unknown>;
  capabilities(): ClientCapabilities;
  /** A tools/call result as the call's outcome. */
  outcome(toolName: string, result: unknown, version?: string): CallOutcome;
}

/** A task request that failed, in words naming the task. */
export class TaskError extends Error {
  override readonly name = "TaskError";
}

export interface FollowOptions {
  readonly onUpdate?: (task: TaskView) => void;
  readonly signal?: AbortSignal;
  readonly scheduler?: Scheduler;
  readonly requestTimeoutMs?: number;
  /** Answers a modern task's input requests; without it the task is left waiting and following stops. */
  readonly answer?: (round: InputRound) => Promise<InputAnswers | null>;
}

export class TaskOps {
  readonly #deps: TaskDeps;

  constructor(deps: TaskDeps) {
    this.#deps = deps;
  }

  #era() {
    return this.#deps.info().era;
  }

  support(): TaskSupport {
    const info = this.#deps.info();
    return taskSupport(info.era, info.capabilities);
  }

  /** On a modern connection, every task request offers the tasks extension in its own capabilities. */
  #modernMeta(params: Record<string, unknown>): Record<string, unknown> {
    const caps = this.#deps.capabilities();
    const extensions = { ...(isJsonObject(caps.extensions) ? caps.extensions : {}), [TASKS_EXTENSION]: {} };
    const own = isJsonObject(params._meta) ? params._meta : {};
    return { ...params, _meta: { [META_CLIENT_CAPABILITIES]: { ...caps, extensions }, ...own } };
  }

  /** The tools/call params that ask for a task. */
  taskParams(asTask: { readonly ttlMs?: number }): (params: Record<string, unknown>) => Record<string, unknown> {
    if (this.#era() === "modern") return (params) => this.#modernMeta(params);
    return (params) => ({ ...params, task: asTask.ttlMs !== undefined ? { ttl: asTask.ttlMs } : {} });
  }

  async #ask(method: string, taskId: string, extra: Record<string, unknown> = {}, options?: RequestOptions): Promise<unknown> {
    const params = { taskId, ...extra };
    try {
      return await this.#deps.request(method, this.#era() === "modern" ? this.#modernMeta(params) : params, options);
    } catch (error) {
      // -32602 is what tasks/get and tasks/cancel answer for a task id the server does not know.
      if (error instanceof McpRequestError && error.kind === "json-rpc-error" && error.code === -32602 && (method === "tasks/get" || method === "tasks/cancel" || method === "tasks/result")) {
        throw new TaskError(`The server does not know task ${taskId} (expired, or never created here): ${method} was refused with ${error.error?.message ?? error.message}`);
      }
      throw error;
    }
  }

  /** tasks/get: the task's state, checked to be the task asked about. */
  async get(taskId: string, options?: RequestOptions): Promise<TaskView> {
    const read = answeredTask(this.#era(), taskId, "tasks/get", await this.#ask("tasks/get", taskId, {}, options));
    if ("problem" in read) throw new TaskError(read.problem);
    return read;
  }

  /**
   * The result of a task as the call's outcome: a legacy server's tasks/result (which waits for
   * the task to end), or what a modern server's tasks/get inlines for a finished task.
   */
  async result(taskId: string, toolName: string, options?: RequestOptions): Promise<CallOutcome> {
    if (this.#era() === "modern") {
      const task = await this.get(taskId, options);
      if (task.status === "completed") {
        const result = task.result;
        const shaped = isJsonObject(result) && "resultType" in result;
        return this.#deps.outcome(toolName, result, shaped ? undefined : "2025-11-25");
      }
      if (task.status === "failed") {
        const e = isJsonObject(task.error) ? task.error : {};
        return { kind: "json-rpc-error", code: typeof e.code === "number" ? e.code : NaN, message: typeof e.message === "string" ? e.message : "the task failed without an error", data: e.data };
      }
      if (task.status === "cancelled") return { kind: "cancelled", reason: task.statusMessage ?? `task ${taskId} was cancelled` };
      throw new TaskError(`task ${taskId} is ${task.status}; it has no result yet`);
    }
    let result: unknown;
    try {
      result = await this.#ask("tasks/result", taskId, {}, options);
    } catch (error) {
      if (error instanceof McpRequestError) return outcomeFromError(error);
      throw error;
    }
    const wrongTask = resultTaskProblem(taskId, result);
    if (wrongTask) throw new TaskError(wrongTask);
    return this.#deps.outcome(toolName, result);
  }

  /** tasks/cancel: the task as the server left it (legacy), or undefined for a modern server's empty answer. */
  async cancel(taskId: string, options?: RequestOptions): Promise<TaskView | undefined> {
    const result = await this.#ask("tasks/cancel", taskId, {}, options);
    if (this.#era() === "modern") return undefined;
    const read = answeredTask("legacy", taskId, "tasks/cancel", result);
    if ("problem" in read) throw new TaskError(read.problem);
    return read;
  }

  /** tasks/update: a modern task's answers to its input requests. */
  async update(taskId: string, inputResponses: Readonly<Record<string, unknown>>, options?: RequestOptions): Promise<void> {
    await this.#ask("tasks/update", taskId, { inputResponses }, options);
  }

  /** Every task the server lists (legacy tasks/list across pages); 2026-07-28 has no tasks/list. */
  async list(options?: RequestOptions): Promise<{ readonly tasks: TaskView[]; readonly problems: string[] }> {
    if (this.#era() === "modern") throw new TaskError("2026-07-28 has no tasks/list; only the tasks started here can be shown");
    const tasks: TaskView[] = [];
    const problems: string[] = [];
    let cursor: string | undefined;
    for (let page = 1; page <= 100; page++) {
      const result = await this.#deps.request("tasks/list", cursor === undefined ? undefined : { cursor }, options);
      const read = listedTasks(result);
      tasks.push(...read.tasks);
      problems.push(...read.problems);
      const next = isJsonObject(result) ? result.nextCursor : undefined;
      if (typeof next !== "string" || next === cursor) return { tasks, problems };
      cursor = next;
    }
    return { tasks, problems: [...problems, "tasks/list: stopped after 100 pages"] };
  }

  /**
   * Polls tasks/get at the server's interval until the task ends (or, on a legacy connection,
   * waits for input, which tasks/result then carries). A modern task's input requests are
   * answered with `answer` and sent with tasks/update.
   */
  async follow(start: TaskView, options: FollowOptions = {}): Promise<TaskView> {
    const scheduler = options.scheduler ?? systemScheduler();
    const timeout = options.requestTimeoutMs ? { timeoutMs: options.requestTimeoutMs } : {};
    let task = start;
    let fetched = false;
    for (let round = 1; ; ) {
      if (isTerminal(task.status)) return task;
      if (task.status === "input_required") {
        if (this.#era() === "legacy" || !options.answer) return task;
        // A task made waiting says so; what it waits for comes with tasks/get.
        if (task.inputRequests === undefined && !fetched) {
          fetched = true;
          task = await this.get(task.taskId, timeout);
          options.onUpdate?.(task);
          continue;
        }
        const asked = roundOf(round++, 0, { inputRequests: task.inputRequests ?? {} });
        if ("problem" in asked) return task;
        const answers = await options.answer(asked);
        if (answers === null) return task;
        await this.update(task.taskId, answers.responses, timeout);
      } else await wait(scheduler, pollDelay(task), options.signal);
      if (options.signal?.aborted) return task;
      task = await this.get(task.taskId, timeout);
      fetched = true;
      options.onUpdate?.(task);
    }
  }
}

function wait(scheduler: Scheduler, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const cancel = scheduler.after(ms, () => {
      signal?.removeEventListener("abort", stop);
      resolve();
    });
    const stop = () => {
      cancel();
      resolve();
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}
