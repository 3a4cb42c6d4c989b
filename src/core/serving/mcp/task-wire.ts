/**
 * A task as each era writes it: the 2025-11-25 `Task` (`ttl`, `pollInterval`, the result fetched
 * with tasks/result) and the `io.modelcontextprotocol/tasks` extension's task (`ttlMs`,
 * `pollIntervalMs`, the result or error inlined by tasks/get, `resultType` discriminating a
 * created task from a result).
 */
import type { McpTask, McpTaskStore } from "./task-store.ts";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

const iso = (ms: number) => new Date(ms).toISOString();

function common(task: McpTask) {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
  };
}

/** The 2025-11-25 `Task`. */
export function legacyTask(task: McpTask, store: McpTaskStore): Record<string, unknown> {
  return { ...common(task), ttl: store.ttlMs, pollInterval: store.pollIntervalMs };
}

/**
 * The legacy CreateTaskResult. The SDK checks a 2025-era tools/call result against CallToolResult,
 * which needs `content`; the schema of CreateTaskResult allows the extra member, so both hold.
 */
export function legacyCreated(task: McpTask, store: McpTaskStore): Record<string, unknown> {
  return { task: legacyTask(task, store), content: [{ type: "text", text: `Started ${task.tool} as task ${task.id}.` }] };
}

function modernTask(task: McpTask, store: McpTaskStore) {
  return { ...common(task), ttlMs: store.ttlMs, pollIntervalMs: store.pollIntervalMs };
}

/** The extension's CreateTaskResult: the task itself, flat, marked `resultType: "task"`. */
export function modernCreated(task: McpTask, store: McpTaskStore): Record<string, unknown> {
  return { resultType: "task", ...modernTask(task, store) };
}

/** tasks/get on the modern era: the task with its result, error or pending questions inlined. */
export function modernDetailed(task: McpTask, store: McpTaskStore): Record<string, unknown> {
  return {
    ...modernTask(task, store),
    ...(task.status === "completed" && task.result ? { result: task.result } : {}),
    ...(task.status === "failed" && task.error ? { error: task.error } : {}),
    ...(task.status === "input_required" ? { inputRequests: Object.fromEntries(task.pending) } : {}),
  };
}
