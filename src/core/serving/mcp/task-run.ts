/**
 * Running a tool call as a task: the task is stored (so tasks/get finds it the moment the client
 * hears of it), then the call runs detached from the request, with the task's own signal (a
 * cancel stops a command's whole process group), its questions parked on the task and its
 * progress shown as the task's status message.
 */
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { FixtureScope, ToolAnswer } from "./fixtures/fixture-scope.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { McpTask } from "./task-store.ts";

export type TaskBody = (scope: Pick<FixtureScope, "signal" | "ask" | "progress" | "log">) => Promise<ToolAnswer>;

/** How long a task waits for the answers it asked for before it gives up (as long as a requestState lives). */
export const TASK_INPUT_WAIT_MS = 10 * 60_000;

/** The task running `body`, or undefined when too many tasks are live to start another. */
export function startTask(ctx: McpServingContext, owner: string, tool: string, body: TaskBody): McpTask | undefined {
  const task = ctx.tasks.create(owner, tool);
  if (!task) return undefined;
  ctx.logger.info("MCP task started", { task: task.id.slice(0, 8), tool });
  const ask = (requests: Parameters<McpTask["ask"]>[0]) => {
    // A question nobody answers must not keep the task (and its place among the live ones) forever.
    const giveUp = ctx.scheduler.after(TASK_INPUT_WAIT_MS, () => {
      const message = `nobody answered the task's questions within ${TASK_INPUT_WAIT_MS / 60_000} minutes`;
      if (task.settle("failed", { error: { code: ProtocolErrorCode.InternalError, message }, message })) task.controller.abort();
    });
    return task.ask(requests).finally(giveUp);
  };
  const scope = {
    signal: task.controller.signal,
    ask,
    progress: async (progress: number, total?: number, message?: string) => task.touch(message ?? (total !== undefined ? `${progress} of ${total}` : `${progress}`)),
    log: async () => undefined,
  };
  void (async () => {
    let answer: ToolAnswer;
    try {
      answer = await body(scope);
    } catch (error) {
      if (task.finished) return;
      const protocol = error instanceof ProtocolError ? error : undefined;
      const message = protocol?.message ?? `the tool failed: ${(error as Error).message}`;
      task.settle("failed", { error: { code: protocol?.code ?? ProtocolErrorCode.InternalError, message, ...(protocol?.data !== undefined ? { data: protocol.data } : {}) }, message });
      return;
    }
    if (isInputRequiredResult(answer)) {
      task.settle("failed", { error: { code: ProtocolErrorCode.InternalError, message: `${tool} asked for input in a way a task cannot carry` } });
      return;
    }
    if (task.settle("completed", { result: answer, ...(answer.isError ? { message: "the tool reported an error" } : {}) })) {
      ctx.logger.info("MCP task finished", { task: task.id.slice(0, 8), tool, isError: answer.isError === true });
    }
  })();
  return task;
}

/** Stops a task: its run is aborted (a command's process group ends) and it reads as cancelled at once. */
export function cancelTask(ctx: McpServingContext, task: McpTask, why: string): void {
  if (task.finished) return;
  task.controller.abort();
  task.settle("cancelled", { message: why });
  ctx.logger.info("MCP task cancelled", { task: task.id.slice(0, 8), tool: task.tool });
}
