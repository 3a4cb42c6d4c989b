/**
 * Tasks in both eras, read into one view: the 2025-11-25 `capabilities.tasks` (`tools/call` with
 * a `task` param answers a CreateTaskResult `{task}`; tasks/get, tasks/result, tasks/cancel,
 * tasks/list) and the 2026-07-28 `io.modelcontextprotocol/tasks` extension (the server answers
 * `resultType: "task"` with the task's fields flat; tasks/get inlines the result or error;
 * tasks/update carries input; there is no tasks/list).
 */
import { isJsonObject } from "../json/index.ts";
import type { ProtocolEra } from "./era.ts";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";
export const TASK_STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** Default and bounds of the wait between polls when the server suggests none or an odd one. */
export const DEFAULT_POLL_MS = 1_000;
export const MIN_POLL_MS = 100;
export const MAX_POLL_MS = 30_000;

export interface TaskView {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  /** How long the server keeps the task, ms; null for no limit. */
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
  /** The inlined result of a completed modern task. */
  readonly result?: unknown;
  /** The inlined JSON-RPC error of a failed modern task. */
  readonly error?: unknown;
  /** What a modern task waiting for input asks for. */
  readonly inputRequests?: Record<string, unknown>;
}

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** What the server supports of tasks, and why not when it does not. */
export interface TaskSupport {
  readonly toolCalls: boolean;
  readonly list: boolean;
  readonly cancel: boolean;
  /** Words for the page: what the server declared. */
  readonly note: string;
}

export function taskSupport(era: ProtocolEra, capabilities: unknown): TaskSupport {
  const caps = isJsonObject(capabilities) ? capabilities : {};
  if (era === "modern") {
    const ext = isJsonObject(caps.extensions) ? caps.extensions[TASKS_EXTENSION] : undefined;
    if (!isJsonObject(ext)) return { toolCalls: false, list: false, cancel: false, note: `The server declares no ${TASKS_EXTENSION} extension.` };
    return { toolCalls: true, list: false, cancel: true, note: `The server declares the ${TASKS_EXTENSION} extension; 2026-07-28 has no tasks/list, so the list shows the tasks started here.` };
  }
  const tasks = isJsonObject(caps.tasks) ? caps.tasks : undefined;
  if (!tasks) return { toolCalls: false, list: false, cancel: false, note: "The server declares no tasks capability." };
  const requests = isJsonObject(tasks.requests) ? tasks.requests : {};
  const tools = isJsonObject(requests.tools) ? requests.tools : {};
  const toolCalls = isJsonObject(tools.call);
  const list = isJsonObject(tasks.list);
  const cancel = isJsonObject(tasks.cancel);
  const has = [toolCalls && "tool calls as tasks", list && "tasks/list", cancel && "tasks/cancel"].filter(Boolean).join(", ");
  return { toolCalls, list, cancel, note: `The server declares tasks: ${has || "nothing usable"}.` };
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const posInt = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined);

/** One task from the fields of a task object; the problem when it is not one. */
function readTask(value: Record<string, unknown>, era: ProtocolEra): TaskView | { readonly problem: string } {
  const taskId = value.taskId;
  if (typeof taskId !== "string" || taskId === "") return { problem: `it has no taskId string (got ${JSON.stringify(taskId ?? null)})` };
  const status = value.status;
  if (typeof status !== "string" || !(TASK_STATUSES as readonly string[]).includes(status)) return { problem: `task ${taskId} has status ${JSON.stringify(status ?? null)}, which is none of ${TASK_STATUSES.join(", ")}` };
  const ttl = era === "modern" ? value.ttlMs : value.ttl;
  const poll = era === "modern" ? value.pollIntervalMs : value.pollInterval;
  return {
    taskId,
    status: status as TaskStatus,
    ...(str(value.statusMessage) !== undefined ? { statusMessage: str(value.statusMessage) } : {}),
    ...(str(value.createdAt) !== undefined ? { createdAt: str(value.createdAt) } : {}),
    ...(str(value.lastUpdatedAt) !== undefined ? { lastUpdatedAt: str(value.lastUpdatedAt) } : {}),
    ...(ttl === null || posInt(ttl) !== undefined ? { ttlMs: ttl as number | null } : {}),
    ...(posInt(poll) !== undefined ? { pollIntervalMs: posInt(poll) } : {}),
    ...("result" in value ? { result: value.result } : {}),
    ...("error" in value ? { error: value.error } : {}),
    ...(isJsonObject(value.inputRequests) ? { inputRequests: value.inputRequests } : {}),
  };
}

/**
 * The task a task-creating `tools/call` answered with, or undefined when the answer is no task
 * (the server ran the call at once). A task-shaped answer with a broken task is a problem.
 */
export function createdTask(era: ProtocolEra, result: unknown): TaskView | { readonly problem: string } | undefined {
  if (!isJsonObject(result)) return undefined;
  if (era === "modern") {
    if (result.resultType !== "task") return undefined;
    if (isJsonObject(result.task)) return { problem: "the task result nests its task under `task`, the 2025-11-25 shape; 2026-07-28 puts the task's fields at the top" };
    return named(readTask(result, era), "the task result");
  }
  if (!isJsonObject(result.task)) return undefined;
  return named(readTask(result.task, era), "the CreateTaskResult");
}

/** The task tasks/get (or a legacy tasks/cancel) answered for `taskId`; a different task is named as such. */
export function answeredTask(era: ProtocolEra, taskId: string, method: string, result: unknown): TaskView | { readonly problem: string } {
  if (!isJsonObject(result)) return { problem: `${method} answered with something that is not an object` };
  if (era === "modern" && result.resultType !== undefined && result.resultType !== "complete") {
    return { problem: `${method} answered with resultType ${JSON.stringify(result.resultType)}; a task's state comes as a complete result` };
  }
  const read = named(readTask(result, era), `${method}'s answer`);
  if ("problem" in read) return read;
  if (read.taskId !== taskId) return { problem: `${method} asked about task ${taskId} but the server answered for task ${read.taskId}` };
  return read;
}

/** The task a legacy tasks/result says its result belongs to, when it says; a mismatch is named. */
export function resultTaskProblem(taskId: string, result: unknown): string | undefined {
  const meta = isJsonObject(result) && isJsonObject(result._meta) ? result._meta[RELATED_TASK_META] : undefined;
  const related = isJsonObject(meta) ? meta.taskId : undefined;
  if (typeof related === "string" && related !== taskId) return `tasks/result for task ${taskId} answered with the result of task ${related}`;
  return undefined;
}

function named(read: TaskView | { readonly problem: string }, what: string): TaskView | { readonly problem: string } {
  return "problem" in read ? { problem: `${what} is not a task: ${read.problem}` } : read;
}

/** The wait before the next poll: the server's suggestion, kept within bounds. */
export function pollDelay(task: TaskView): number {
  const ms = task.pollIntervalMs ?? DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms));
}

/** The tasks of a legacy tasks/list page, each read (broken ones named). */
export function listedTasks(result: unknown): { readonly tasks: TaskView[]; readonly problems: string[] } {
  const tasks: TaskView[] = [];
  const problems: string[] = [];
  const items = isJsonObject(result) && Array.isArray(result.tasks) ? result.tasks : undefined;
  if (!items) return { tasks, problems: ["tasks/list answered without a tasks array"] };
  for (const [i, item] of items.entries()) {
    const read = isJsonObject(item) ? readTask(item, "legacy") : { problem: "it is not an object" };
    if ("problem" in read) problems.push(`tasks[${i}]: ${read.problem}`);
    else tasks.push(read);
  }
  return { tasks, problems };
}
