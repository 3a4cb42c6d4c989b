/**
 * The SDK's request handler, with the served agent's rules in front of it. A message to a task
 * that is running a tool is kept in the task's history and answered with the task (a send) or the
 * task's own stream (a stream), so it never reaches the executor or disturbs the run. A message
 * with no parts and a negative historyLength are invalid; a canceled task cannot be canceled
 * again. When asked, a v0.3 send that carries no `configuration` returns at once. A task the
 * store has forgotten is not found, and the error says it finished and was forgotten.
 */
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { TaskState } from "@a2a-js/sdk";
import { RequestMalformedError, TaskNotCancelableError, TaskNotFoundError } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, ServerCallContext, TaskStore } from "@a2a-js/sdk/server";

/** The version the SDK assumes when a request names none. */
const LEGACY_VERSION = "0.3";

export interface ServedHandlerRules {
  /** The task is running a tool: messages are noted, not executed. */
  readonly isRunning: (taskId: string) => boolean;
  /** A message was noted on a running task. */
  readonly onMessage: (taskId: string) => void;
  /** A v0.3 send without `configuration` returns the task as soon as it exists. */
  readonly legacySendReturnsAtOnce: boolean;
  /** How many finished tasks the store keeps, when it held this task and has forgotten it; undefined otherwise. */
  readonly forgotten?: (taskId: string, context: ServerCallContext) => number | undefined;
}

function checkHistoryLength(historyLength: number | undefined): void {
  if (historyLength !== undefined && historyLength < 0) throw new RequestMalformedError(`historyLength must be 0 or more, not ${historyLength}.`);
}

function checkSend(params: SendMessageRequest): void {
  if (params.message && params.message.parts.length === 0) throw new RequestMalformedError("message.parts must hold at least one part.");
  checkHistoryLength(params.configuration?.historyLength);
}

export class ServedRequestHandler implements A2ARequestHandler {
  readonly #inner: A2ARequestHandler;
  readonly #store: TaskStore;
  readonly #rules: ServedHandlerRules;

  constructor(inner: A2ARequestHandler, store: TaskStore, rules: ServedHandlerRules) {
    this.#inner = inner;
    this.#store = store;
    this.#rules = rules;
  }

  /** A task-not-found error for a task the store forgot, said so; any other error as it was. */
  async #explained<T>(taskId: string | undefined, context: ServerCallContext, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const kept = taskId && error instanceof TaskNotFoundError ? this.#rules.forgotten?.(taskId, context) : undefined;
      if (kept === undefined) throw error;
      throw new TaskNotFoundError(`Task not found: ${taskId} finished and was forgotten (this agent keeps its ${kept} most recently finished tasks).`);
    }
  }

  #withDefaults(params: SendMessageRequest, context: ServerCallContext): SendMessageRequest {
    if (!this.#rules.legacySendReturnsAtOnce || params.configuration || context.requestedVersion !== LEGACY_VERSION) return params;
    return { ...params, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } };
  }

  /** The running task a message continues, after noting the message in its history; undefined for any other message. */
  async #runningTask(params: SendMessageRequest, context: ServerCallContext): Promise<Task | undefined> {
    const message = params.message;
    const taskId = message?.taskId;
    if (!message || !taskId || !this.#rules.isRunning(taskId)) return undefined;
    const task = await this.#store.load(taskId, context);
    if (!task) return undefined;
    if (message.contextId && message.contextId !== task.contextId) {
      throw new RequestMalformedError(`contextId mismatch: message contextId '${message.contextId}' does not match task '${task.id}' contextId '${task.contextId}'`);
    }
    if (!message.messageId) throw new RequestMalformedError("message.messageId is required.");
    task.history = [...task.history, { ...message, contextId: task.contextId }];
    await this.#store.save(task, context);
    this.#rules.onMessage(taskId);
    return task;
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    checkSend(params);
    const running = await this.#runningTask(params, context);
    if (running) return this.#inner.getTask({ id: running.id, tenant: params.tenant, historyLength: params.configuration?.historyLength }, context);
    return this.#explained(params.message?.taskId, context, () => this.#inner.sendMessage(this.#withDefaults(params, context), context));
  }

  async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    checkSend(params);
    const running = await this.#runningTask(params, context);
    if (running) yield* this.#inner.resubscribe({ id: running.id, tenant: params.tenant }, context);
    else yield* this.#inner.sendMessageStream(params, context);
  }

  getAgentCard(): Promise<AgentCard> {
    return this.#inner.getAgentCard();
  }
  getAuthenticatedExtendedAgentCard(params: GetExtendedAgentCardRequest, context: ServerCallContext): Promise<AgentCard> {
    return this.#inner.getAuthenticatedExtendedAgentCard(params, context);
  }
  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    checkHistoryLength(params.historyLength);
    return this.#explained(params.id, context, () => this.#inner.getTask(params, context));
  }
  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = params.id ? await this.#store.load(params.id, context) : undefined;
    if (task?.status?.state === TaskState.TASK_STATE_CANCELED) throw new TaskNotCancelableError(`Task ${task.id} is already canceled.`);
    return this.#explained(params.id, context, () => this.#inner.cancelTask(params, context));
  }
  listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    checkHistoryLength(params.historyLength);
    return this.#inner.listTasks(params, context);
  }
  resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#inner.resubscribe(params, context);
  }
  createTaskPushNotificationConfig(params: TaskPushNotificationConfig, context: ServerCallContext): Promise<TaskPushNotificationConfig> {
    return this.#inner.createTaskPushNotificationConfig(params, context);
  }
  getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest, context: ServerCallContext): Promise<TaskPushNotificationConfig> {
    return this.#inner.getTaskPushNotificationConfig(params, context);
  }
  listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest, context: ServerCallContext): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#inner.listTaskPushNotificationConfigs(params, context);
  }
  deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest, context: ServerCallContext): Promise<void> {
    return this.#inner.deleteTaskPushNotificationConfig(params, context);
  }
}
