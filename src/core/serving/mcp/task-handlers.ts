/**
 * The task methods, per era. Legacy (2025-11-25 `capabilities.tasks`): tasks/get, tasks/result
 * (waits for the end), tasks/list and tasks/cancel, each session seeing only its own tasks. Modern
 * (the `io.modelcontextprotocol/tasks` extension, declared on each request): tasks/get with the
 * result inlined, tasks/update carrying answers, tasks/cancel acknowledged with an empty result;
 * that era has no tasks/list or tasks/result, and the SDK answers them as unknown methods.
 */
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type Server, type ServerContext, type StandardSchemaV1 } from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";
import { clientCapabilities } from "./client-asks.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { SessionState } from "./session-state.ts";
import type { McpTask } from "./task-store.ts";
import { cancelTask } from "./task-run.ts";
import { legacyTask, modernDetailed, RELATED_TASK_META, TASKS_EXTENSION } from "./task-wire.ts";

type Params = Record<string, unknown>;

/** A Standard Schema for a method's params: `problem` names what is wrong, or returns undefined. */
function paramsSchema(method: string, problem: (params: Params) => string | undefined) {
  const schema = {
    "~standard": {
      version: 1 as const,
      vendor: "patchbay",
      validate(value: unknown) {
        const params = isJsonObject(value) ? value : undefined;
        const why = params ? problem(params) : "params must be an object";
        return why === undefined ? { value: params as Params } : { issues: [{ message: `${method}: ${why}` }] };
      },
    },
  };
  return { params: schema } as { params: StandardSchemaV1<unknown, Params> };
}

const MAX_ID_CHARS = 200;
const taskIdProblem = (p: Params) => (typeof p.taskId === "string" && p.taskId !== "" && p.taskId.length <= MAX_ID_CHARS ? undefined : `"taskId" must be a task id (a string of 1 to ${MAX_ID_CHARS} characters)`);
const TASK_ID = (method: string) => paramsSchema(method, taskIdProblem);

function unknownTask(id: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task ${JSON.stringify(id)}: this server has no such task, or it was forgotten (finished tasks are kept for a while, at most the last 1,000).`);
}

function found(ctx: McpServingContext, session: SessionState, params: Params): McpTask {
  const task = ctx.tasks.get(params.taskId as string, session.owner);
  if (!task) throw unknownTask(params.taskId);
  return task;
}

/** Waits for the task to end, or rejects when the request is cancelled first. */
function ended(task: McpTask, call: ServerContext): Promise<void> {
  if (task.finished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const signal = call.mcpReq.signal;
    const stop = () => reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, "tasks/result was cancelled before the task ended"));
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
    void task.done.then(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    });
  });
}

function registerLegacy(server: Server, ctx: McpServingContext, session: SessionState): void {
  server.setRequestHandler("tasks/get", TASK_ID("tasks/get"), (params) => legacyTask(found(ctx, session, params), ctx.tasks));
  server.setRequestHandler("tasks/result", TASK_ID("tasks/result"), async (params, call) => {
    const task = found(ctx, session, params);
    await ended(task, call);
    if (task.status === "failed") throw new ProtocolError(task.error?.code ?? ProtocolErrorCode.InternalError, task.error?.message ?? "the task failed", task.error?.data);
    if (task.status === "cancelled") throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${task.id} was cancelled; it has no result.`);
    const result = task.result!;
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META]: { taskId: task.id } } };
  });
  const cursorSchema = paramsSchema("tasks/list", (p) => (p.cursor === undefined || typeof p.cursor === "string" ? undefined : '"cursor" must be a string'));
  server.setRequestHandler("tasks/list", cursorSchema, (params) => {
    const page = ctx.tasks.list(session.owner, params.cursor as string | undefined);
    if (!page) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(params.cursor)}: pass the nextCursor of an earlier tasks/list, or none.`);
    return { tasks: page.tasks.map((t) => legacyTask(t, ctx.tasks)), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  });
  server.setRequestHandler("tasks/cancel", TASK_ID("tasks/cancel"), (params) => {
    const task = found(ctx, session, params);
    if (task.finished) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${task.id} has already ended (${task.status}); there is nothing to cancel.`);
    cancelTask(ctx, task, "cancelled by the client");
    return legacyTask(task, ctx.tasks);
  });
}

function registerModern(server: Server, ctx: McpServingContext, session: SessionState): void {
  const gate = (call: ServerContext) => {
    if (clientCapabilities(server, session, call)?.extensions?.[TASKS_EXTENSION] !== undefined) return;
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `The task methods need the ${TASKS_EXTENSION} extension declared in the request's clientCapabilities.`,
    );
  };
  server.setRequestHandler("tasks/get", TASK_ID("tasks/get"), (params, call) => {
    gate(call);
    return modernDetailed(found(ctx, session, params), ctx.tasks);
  });
  // The SDK lifts inputResponses out of every request's params, so the answers come in the context.
  server.setRequestHandler("tasks/update", TASK_ID("tasks/update"), (params, call) => {
    gate(call);
    const task = found(ctx, session, params);
    const answers = call.mcpReq.inputResponses;
    if (!isJsonObject(answers) && (call.mcpReq.droppedInputResponseKeys ?? []).length === 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tasks/update needs "inputResponses": the answers, by the keys of the task\'s inputRequests.');
    }
    task.answer(answers ?? {});
    return {};
  });
  server.setRequestHandler("tasks/cancel", TASK_ID("tasks/cancel"), (params, call) => {
    gate(call);
    cancelTask(ctx, found(ctx, session, params), "cancelled by the client");
    return {};
  });
}

/** Registers the task methods of the instance's era. */
export function registerTaskHandlers(server: Server, ctx: McpServingContext, session: SessionState): void {
  if (session.era === "legacy") registerLegacy(server, ctx, session);
  else registerModern(server, ctx, session);
}
