/**
 * The v0.2.x dialect, written to v0.2.4: `message/send` and `message/stream` with `kind`
 * discriminators, server-generated task and context ids, `final` on status updates. The card
 * is v0.2.4's: at /.well-known/agent.json, with preferredTransport (new in 0.2.4) and without
 * the protocolVersion that v0.2.5 made required.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { isObject, needObject, openStream, needString, optionalCount, RPC_CODE, RpcFault, sendResult, type RpcCall } from "./json-rpc.ts";
import { isSettled, streamTask, type BoardEvent, type BoardMessage, type BoardTask, type PushTarget, type TaskBoard } from "./legacy-board.ts";
import { INTERRUPTED_STATES, parseCommand, TERMINAL_STATES } from "./peer-script.ts";

export const V02_CARD_PATH = "/.well-known/agent.json";

export function v02Card(base: string, name: string): Record<string, unknown> {
  return {
    name,
    description: "Patchbay test peer speaking A2A v0.2.4: the first word of the message picks the behaviour.",
    url: `${base}/`,
    preferredTransport: "JSONRPC",
    provider: { organization: "Patchbay tests", url: base },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
    securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Accepted, never required." } },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "echo",
        name: "Echo",
        description: "echo, message, chunks <n>, slow <ms>, ask, fail, reject, auth; anything else is echoed.",
        tags: ["test"],
        examples: ["echo hello", "message hi", "chunks 3"],
      },
    ],
    supportsAuthenticatedExtendedCard: false,
  };
}

const textParts = (text: string) => [{ kind: "text", text }];

function message(m: BoardMessage, task: BoardTask): Record<string, unknown> {
  return { kind: "message", messageId: m.messageId, role: m.role, parts: textParts(m.text), taskId: task.id, contextId: task.contextId };
}

function status(task: BoardTask): Record<string, unknown> {
  return { state: task.state, ...(task.statusMessage ? { message: message(task.statusMessage, task) } : {}), timestamp: task.timestamp };
}

export function v02Task(task: BoardTask, historyLength?: number): Record<string, unknown> {
  const history = historyLength === undefined ? task.history : historyLength === 0 ? [] : task.history.slice(-historyLength);
  return {
    kind: "task",
    id: task.id,
    contextId: task.contextId,
    status: status(task),
    artifacts: task.artifacts.map((a) => ({ artifactId: a.artifactId, name: a.name, parts: textParts(a.text) })),
    history: history.map((m) => message(m, task)),
  };
}

function event(task: BoardTask, e: BoardEvent): Record<string, unknown> {
  const ids = { taskId: task.id, contextId: task.contextId };
  if (e.type === "status") return { kind: "status-update", ...ids, status: status(task), final: e.final };
  const artifact = { artifactId: e.chunk.artifactId, name: e.chunk.name, parts: textParts(e.chunk.text) };
  return { kind: "artifact-update", ...ids, artifact, append: e.chunk.append, lastChunk: e.chunk.lastChunk };
}

const wrap = (id: RpcCall["id"], result: unknown) => ({ jsonrpc: "2.0", id, result });

function pushTarget(config: Record<string, unknown>): PushTarget {
  if (typeof config.url !== "string") throw new RpcFault(RPC_CODE.invalidParams, "pushNotificationConfig.url must be a string");
  return { url: config.url, ...(typeof config.token === "string" ? { token: config.token } : {}), config };
}

function taskOf(board: TaskBoard, id: string): BoardTask {
  const task = board.tasks.get(id);
  if (!task) throw new RpcFault(RPC_CODE.taskNotFound, `Task not found: ${id}`);
  return task;
}

type Accepted =
  | { readonly kind: "message"; readonly reply: Record<string, unknown> }
  | { readonly kind: "task"; readonly task: BoardTask; readonly begin: () => void };

/** A message/send or message/stream: a direct reply, a new task, or the next turn of an interrupted one. */
function accept(board: TaskBoard, params: unknown): Accepted {
  const msg = needObject(params, "message");
  const messageId = needString(msg, "messageId");
  if (!Array.isArray(msg.parts)) throw new RpcFault(RPC_CODE.invalidParams, "params.message.parts must be an array");
  const text = msg.parts.find((p): p is { kind: "text"; text: string } => isObject(p) && p.kind === "text" && typeof p.text === "string")?.text ?? "";
  const config = isObject(params) && isObject(params.configuration) ? params.configuration : {};
  const push = isObject(config.pushNotificationConfig) ? pushTarget(config.pushNotificationConfig) : undefined;
  const contextId = typeof msg.contextId === "string" ? msg.contextId : undefined;
  if (typeof msg.taskId === "string") {
    const task = taskOf(board, msg.taskId);
    if (contextId !== undefined && contextId !== task.contextId) throw new RpcFault(RPC_CODE.invalidParams, `contextId ${contextId} is not task ${task.id}'s context`);
    if (!INTERRUPTED_STATES.has(task.state)) throw new RpcFault(RPC_CODE.unsupportedOperation, `Task ${task.id} is ${task.state} and takes no further message`);
    if (push) task.push = push;
    return { kind: "task", task, begin: () => board.followUp(task, text, messageId) };
  }
  const command = parseCommand(text);
  const context = contextId ?? randomUUID();
  if (command.kind === "message") {
    return { kind: "message", reply: { kind: "message", messageId: randomUUID(), role: "agent", parts: textParts(command.text), contextId: context } };
  }
  const task = board.create(randomUUID(), context, text, messageId);
  if (push) task.push = push;
  return { kind: "task", task, begin: () => board.start(task, command) };
}

export async function handleV02(call: RpcCall, res: ServerResponse, board: TaskBoard): Promise<void> {
  const { id, params } = call;
  switch (call.method) {
    case "message/send": {
      const accepted = accept(board, params);
      if (accepted.kind === "message") return sendResult(res, id, accepted.reply);
      const config = isObject(params) && isObject(params.configuration) ? params.configuration : {};
      accepted.begin();
      // Blocking unless the client said otherwise: answer once the task ended or needs input.
      if (config.blocking !== false) await board.settled(accepted.task);
      sendResult(res, id, v02Task(accepted.task, optionalCount(config, "historyLength")));
      return;
    }
    case "message/stream": {
      const accepted = accept(board, params);
      if (accepted.kind === "message") {
        // A direct Message is the whole stream.
        openStream(res)(wrap(id, accepted.reply));
        res.end();
        return;
      }
      const { task, begin } = accepted;
      streamTask(res, board, task, { first: [wrap(id, v02Task(task))], frame: (e) => wrap(id, event(task, e)), start: begin });
      return;
    }
    case "tasks/resubscribe": {
      const task = taskOf(board, needString(params, "id"));
      const settledNow = isSettled(task.state);
      const first = [wrap(id, v02Task(task)), ...(settledNow ? [wrap(id, event(task, { type: "status", task, final: true }))] : [])];
      streamTask(res, board, task, { first, frame: (e) => wrap(id, event(task, e)), endNow: settledNow });
      return;
    }
    case "tasks/get": {
      const task = taskOf(board, needString(params, "id"));
      sendResult(res, id, v02Task(task, optionalCount(params, "historyLength")));
      return;
    }
    case "tasks/cancel": {
      const task = taskOf(board, needString(params, "id"));
      if (TERMINAL_STATES.has(task.state) || !board.cancel(task)) throw new RpcFault(RPC_CODE.taskNotCancelable, `Task ${task.id} is ${task.state} and cannot be canceled`);
      sendResult(res, id, v02Task(task));
      return;
    }
    case "tasks/pushNotificationConfig/set": {
      const task = taskOf(board, needString(params, "taskId"));
      const config = needObject(params, "pushNotificationConfig");
      task.push = pushTarget(config);
      sendResult(res, id, { taskId: task.id, pushNotificationConfig: config });
      return;
    }
    case "tasks/pushNotificationConfig/get": {
      const task = taskOf(board, needString(params, "id"));
      if (!task.push) throw new RpcFault(RPC_CODE.invalidParams, `Task ${task.id} has no push notification config`);
      sendResult(res, id, { taskId: task.id, pushNotificationConfig: task.push.config });
      return;
    }
    default:
      throw new RpcFault(RPC_CODE.methodNotFound, `Method not found: ${call.method}`);
  }
}
