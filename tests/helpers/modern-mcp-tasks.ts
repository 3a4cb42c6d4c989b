/**
 * The modern test server's tasks (the io.modelcontextprotocol/tasks extension, SEP-2663): the
 * SDK does not implement it, so the server keeps its tasks here, outside the per-request
 * McpServer. `research` runs as a task when the request offers the extension in its own
 * capabilities (else it answers at once); with `ambiguous` it waits for a clarification through
 * tasks/update. `mixed-up` makes a task whose tasks/get answers for another task.
 */
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const EXTENSION = "io.modelcontextprotocol/tasks";
const POLL_MS = 200;
const TTL_MS = 60_000;

type Status = "working" | "input_required" | "completed" | "failed" | "cancelled";

interface Entry {
  readonly taskId: string;
  status: Status;
  statusMessage: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  result?: Record<string, unknown>;
  inputRequests?: Record<string, unknown>;
  /** tasks/get answers for this task id instead (the mixed-up tool). */
  answersAs?: string;
  timer?: ReturnType<typeof setTimeout>;
  onInput?: (responses: Record<string, unknown>) => void;
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** True when the request's own capabilities (the SDK lifts the envelope out of _meta) offer the extension. */
function offersTasks(mcpReq: object): boolean {
  const envelope = (mcpReq as { envelope?: Record<string, unknown> }).envelope;
  const caps = envelope?.["io.modelcontextprotocol/clientCapabilities"] as { extensions?: Record<string, unknown> } | undefined;
  return caps?.extensions?.[EXTENSION] !== undefined;
}

export class ModernTasks {
  readonly #entries = new Map<string, Entry>();
  #next = 1;
  /** Every task request the server answered, for tests: method and task id. */
  readonly log: { readonly method: string; readonly taskId: string }[] = [];

  #create(statusMessage: string): Entry {
    const now = new Date().toISOString();
    const entry: Entry = { taskId: `task-${this.#next++}`, status: "working", statusMessage, createdAt: now, lastUpdatedAt: now };
    this.#entries.set(entry.taskId, entry);
    return entry;
  }

  #set(entry: Entry, status: Status, statusMessage: string, extra: Partial<Entry> = {}): void {
    if (entry.status === "cancelled") return;
    Object.assign(entry, { status, statusMessage, lastUpdatedAt: new Date().toISOString(), ...extra });
  }

  #created(entry: Entry) {
    return { resultType: "task", taskId: entry.taskId, status: entry.status, statusMessage: entry.statusMessage, createdAt: entry.createdAt, lastUpdatedAt: entry.lastUpdatedAt, ttlMs: TTL_MS, pollIntervalMs: POLL_MS };
  }

  /** Forgets every task, as a server past its tasks' time-to-live would. */
  forgetAll(): void {
    for (const entry of this.#entries.values()) clearTimeout(entry.timer);
    this.#entries.clear();
  }

  stop(): void {
    this.forgetAll();
  }

  registerTools(server: McpServer): void {
    server.registerTool(
      "research",
      { description: "A long research job; runs as a task when the client offers the tasks extension", inputSchema: z.object({ topic: z.string(), seconds: z.number(), ambiguous: z.boolean().optional() }) },
      async ({ topic, seconds, ambiguous }, ctx) => {
        if (!offersTasks(ctx.mcpReq)) {
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          return text(`report on ${topic} (run at once)`);
        }
        const entry = this.#create(`researching ${topic}`);
        const finish = (about: string) => {
          entry.timer = setTimeout(() => this.#set(entry, "completed", "done", { result: { resultType: "complete", ...text(`report on ${about}`) } }), seconds * 1000);
        };
        if (ambiguous) {
          this.#set(entry, "input_required", "which topic did you mean?", {
            inputRequests: { clarify: { method: "elicitation/create", params: { mode: "form", message: `Which ${topic}?`, requestedSchema: { type: "object", properties: { meaning: { type: "string" } }, required: ["meaning"] } } } },
          });
          entry.onInput = (responses) => {
            const answer = responses.clarify as { action?: string; content?: { meaning?: string } } | undefined;
            delete entry.inputRequests;
            this.#set(entry, "working", "researching again");
            finish(`${topic} (${answer?.action === "accept" ? (answer.content?.meaning ?? "?") : "no clarification"})`);
          };
        } else finish(topic);
        return this.#created(entry) as never;
      },
    );
    server.registerTool("mixed-up", { description: "Makes a task whose tasks/get answers for another task (a server bug, on purpose)" }, async (ctx) => {
      if (!offersTasks(ctx.mcpReq)) return text("no task without the extension");
      const entry = this.#create("mixed up");
      entry.answersAs = "task-somebody-else";
      return this.#created(entry) as never;
    });
  }

  get(taskId: string): Record<string, unknown> {
    this.log.push({ method: "tasks/get", taskId });
    const entry = this.#entries.get(taskId);
    if (!entry) throw Object.assign(new Error(`Unknown task: ${taskId}`), { code: -32602 });
    return {
      taskId: entry.answersAs ?? entry.taskId,
      status: entry.status,
      statusMessage: entry.statusMessage,
      createdAt: entry.createdAt,
      lastUpdatedAt: entry.lastUpdatedAt,
      ttlMs: TTL_MS,
      pollIntervalMs: POLL_MS,
      ...(entry.status === "completed" && entry.result ? { result: entry.result } : {}),
      ...(entry.status === "input_required" && entry.inputRequests ? { inputRequests: entry.inputRequests } : {}),
    };
  }

  cancel(taskId: string): Record<string, unknown> {
    this.log.push({ method: "tasks/cancel", taskId });
    const entry = this.#entries.get(taskId);
    if (!entry) throw Object.assign(new Error(`Unknown task: ${taskId}`), { code: -32602 });
    if (entry.status === "working" || entry.status === "input_required") {
      clearTimeout(entry.timer);
      Object.assign(entry, { status: "cancelled", statusMessage: "cancelled by the client", lastUpdatedAt: new Date().toISOString() });
    }
    return {};
  }

  update(taskId: string, inputResponses: Record<string, unknown>): Record<string, unknown> {
    this.log.push({ method: "tasks/update", taskId });
    const entry = this.#entries.get(taskId);
    if (!entry) throw Object.assign(new Error(`Unknown task: ${taskId}`), { code: -32602 });
    entry.onInput?.(inputResponses);
    entry.onInput = undefined;
    return {};
  }
}

/** tasks/get, tasks/cancel and tasks/update on the per-request server, answered from the shared store. */
export function installTaskMethods(server: McpServer, tasks: ModernTasks): void {
  const taskParams = z.object({ taskId: z.string() }).loose();
  server.server.setRequestHandler("tasks/get", { params: taskParams }, (params) => tasks.get(params.taskId) as never);
  server.server.setRequestHandler("tasks/cancel", { params: taskParams }, (params) => tasks.cancel(params.taskId) as never);
  // The SDK lifts inputResponses out of the params, as it does for a retried tools/call.
  server.server.setRequestHandler("tasks/update", { params: taskParams }, (params, ctx) => tasks.update(params.taskId, (ctx.mcpReq as { inputResponses?: Record<string, unknown> }).inputResponses ?? {}) as never);
}
