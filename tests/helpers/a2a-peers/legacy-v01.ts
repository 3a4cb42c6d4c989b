/**
 * The "Google A2A" v0.1 dialect: `tasks/send` with a client-chosen task id and `sessionId`,
 * parts tagged `type`, streams of `{id, status, final}` / `{id, artifact}` results, and a card
 * at /.well-known/agent.json with an `authentication` object and no protocolVersion.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { isObject, needObject, needString, optionalCount, RPC_CODE, RpcFault, sendResult, type RpcCall } from "./json-rpc.ts";
import { isSettled, streamTask, type BoardEvent, type BoardMessage, type BoardTask, type TaskBoard } from "./legacy-board.ts";
import { parseCommand, TERMINAL_STATES, type CommandKind } from "./peer-script.ts";

/** v0.1 has no direct Message answers and no rejected or auth-required states. */
export const V01_COMMANDS: ReadonlySet<CommandKind> = new Set(["echo", "chunks", "slow", "ask", "fail"]);

export const V01_CARD_PATH = "/.well-known/agent.json";

export function v01Card(base: string, name: string): Record<string, unknown> {
  return {
    name,
    description: "Patchbay test peer speaking Google A2A v0.1: the first word of the message picks the behaviour.",
    url: `${base}/`,
    provider: { organization: "Patchbay tests" },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
    authentication: { schemes: [] },
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    skills: [{ id: "echo", name: "Echo", description: "echo, chunks <n>, slow <ms>, ask, fail; anything else is echoed.", tags: ["test"], examples: ["echo hello", "chunks 3"] }],
  };
}

const textParts = (text: string) => [{ type: "text", text }];
const message = (m: BoardMessage) => ({ role: m.role, parts: textParts(m.text) });

function status(task: BoardTask): Record<string, unknown> {
  return { state: task.state, ...(task.statusMessage ? { message: message(task.statusMessage) } : {}), timestamp: task.timestamp };
}

export function v01Task(task: BoardTask, historyLength?: number): Record<string, unknown> {
  const history = historyLength === undefined ? task.history : historyLength === 0 ? [] : task.history.slice(-historyLength);
  return {
    id: task.id,
    sessionId: task.contextId,
    status: status(task),
    artifacts: task.artifacts.map((a) => ({ name: a.name, parts: textParts(a.text), index: a.index })),
    history: history.map(message),
  };
}

function frame(id: RpcCall["id"], event: BoardEvent): Record<string, unknown> {
  if (event.type === "status") return { jsonrpc: "2.0", id, result: { id: event.task.id, status: status(event.task), final: event.final } };
  const { chunk } = event;
  const artifact = { name: chunk.name, parts: textParts(chunk.text), index: chunk.index, append: chunk.append, lastChunk: chunk.lastChunk };
  return { jsonrpc: "2.0", id, result: { id: event.task.id, artifact } };
}

function firstText(message: Record<string, unknown>): string {
  const parts = message.parts;
  if (!Array.isArray(parts)) throw new RpcFault(RPC_CODE.invalidParams, "params.message.parts must be an array");
  for (const part of parts) if (isObject(part) && part.type === "text" && typeof part.text === "string") return part.text;
  return "";
}

function taskOf(board: TaskBoard, params: unknown): BoardTask {
  const id = needString(params, "id");
  const task = board.tasks.get(id);
  if (!task) throw new RpcFault(RPC_CODE.taskNotFound, `Task not found: ${id}`);
  return task;
}

/** A tasks/send(Subscribe): a new task under the client's id, or the next turn of an input-required one. */
function accept(board: TaskBoard, params: unknown): { task: BoardTask; begin: () => void; fresh: boolean } {
  const id = needString(params, "id");
  const msg = needObject(params, "message");
  const text = firstText(msg);
  const sessionId = isObject(params) && typeof params.sessionId === "string" ? params.sessionId : undefined;
  const push = isObject(params) && isObject(params.pushNotification) ? params.pushNotification : undefined;
  const existing = board.tasks.get(id);
  if (existing) {
    if (existing.state !== "input-required") throw new RpcFault(RPC_CODE.invalidParams, `Task ${id} is ${existing.state} and takes no further message`);
    if (push) existing.push = pushTarget(push);
    return { task: existing, begin: () => board.followUp(existing, text, ""), fresh: false };
  }
  const task = board.create(id, sessionId ?? randomUUID(), text, "");
  if (push) task.push = pushTarget(push);
  const command = parseCommand(text, V01_COMMANDS);
  if (command.kind === "message") throw new Error("v0.1 offers no message command");
  return { task, begin: () => board.start(task, command), fresh: true };
}

function pushTarget(config: Record<string, unknown>) {
  if (typeof config.url !== "string") throw new RpcFault(RPC_CODE.invalidParams, "pushNotificationConfig.url must be a string");
  return { url: config.url, ...(typeof config.token === "string" ? { token: config.token } : {}), config };
}

export async function handleV01(call: RpcCall, res: ServerResponse, board: TaskBoard): Promise<void> {
  const { id, params } = call;
  switch (call.method) {
    case "tasks/send": {
      const { task, begin } = accept(board, params);
      const historyLength = optionalCount(params, "historyLength");
      begin();
      await board.settled(task);
      sendResult(res, id, v01Task(task, historyLength));
      return;
    }
    case "tasks/sendSubscribe": {
      const { task, begin, fresh } = accept(board, params);
      // A new task opens with its submitted status; a follow-up goes straight to its events.
      const first = fresh ? [frame(id, { type: "status", task, final: false })] : [];
      streamTask(res, board, task, { first, frame: (e) => frame(id, e), start: begin });
      return;
    }
    case "tasks/resubscribe": {
      const task = taskOf(board, params);
      const settledNow = isSettled(task.state);
      streamTask(res, board, task, { first: [frame(id, { type: "status", task, final: settledNow })], frame: (e) => frame(id, e), endNow: settledNow });
      return;
    }
    case "tasks/get": {
      const task = taskOf(board, params);
      sendResult(res, id, v01Task(task, optionalCount(params, "historyLength")));
      return;
    }
    case "tasks/cancel": {
      const task = taskOf(board, params);
      if (TERMINAL_STATES.has(task.state) || !board.cancel(task)) throw new RpcFault(RPC_CODE.taskNotCancelable, `Task ${task.id} is ${task.state} and cannot be canceled`);
      sendResult(res, id, v01Task(task));
      return;
    }
    case "tasks/pushNotification/set": {
      const task = taskOf(board, params);
      const config = needObject(params, "pushNotificationConfig");
      task.push = pushTarget(config);
      sendResult(res, id, { id: task.id, pushNotificationConfig: config });
      return;
    }
    case "tasks/pushNotification/get": {
      const task = taskOf(board, params);
      if (!task.push) throw new RpcFault(RPC_CODE.invalidParams, `Task ${task.id} has no push notification config`);
      sendResult(res, id, { id: task.id, pushNotificationConfig: task.push.config });
      return;
    }
    default:
      throw new RpcFault(RPC_CODE.methodNotFound, `Method not found: ${call.method}`);
  }
}
