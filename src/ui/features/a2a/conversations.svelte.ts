import {
  buildRequest,
  exchange,
  isInterrupted,
  isTerminal,
  operationsOf,
  TaskFold,
  type A2aEvent,
  type AnswerFrame,
  type ExchangeFailure,
  type ExchangeResult,
  type HeaderOptions,
  type HttpRequestSpec,
  type Operation,
  type OperationInput,
  type RequestTarget,
  type TaskRecord,
} from "../../../core/a2a/index.ts";
import { endWords, failureWords, frameWords, type Tone } from "./frame-words.ts";
import type { Validate } from "./frame-checks.svelte.ts";
import { LiveExchange, type Outbound } from "./live-exchange.svelte.ts";
import { requestFormHeaders } from "./request-headers.ts";

/** One line of a thread's timeline: a request going out, an answer frame, or how an exchange ended. */
export interface TimelineEntry {
  readonly seq: number;
  readonly exchangeId: number;
  readonly operation: string;
  readonly direction: "out" | "in" | "end";
  /** Wall time of arrival, ms since the epoch. */
  readonly wall: number;
  /** Milliseconds since the request went out. */
  readonly at: number;
  readonly text: string;
  readonly tone: Tone;
  /** The frame's text exactly as it came (or the request body). */
  readonly raw?: string;
  readonly sseEvent?: string;
  readonly taskId?: string;
  /** Set on a push notification: which receiver got it, and the headers it came with. */
  readonly push?: { readonly receiverId: string; readonly seq: number; readonly headers: Readonly<Record<string, string>> };
}

/** One task of a thread: its fold over every exchange that spoke of it. */
export class TaskView {
  readonly taskId: string;
  record = $state.raw<TaskRecord>({ taskId: "", steps: [], artifacts: [] });
  /** How its last stream ended, when it broke off or failed. */
  streamFailure = $state.raw<ExchangeFailure | null>(null);
  /** An exchange about this task is running. */
  busy = $state<string | null>(null);
  actionError = $state<string | null>(null);
  replyText = $state("");
  replyStream = $state(true);
  readonly fold: TaskFold;

  constructor(taskId: string, fold: TaskFold) {
    this.taskId = taskId;
    this.fold = fold;
    this.record = { taskId, steps: [], artifacts: [] };
  }

  get interrupted(): boolean {
    return this.record.state !== undefined && isInterrupted(this.record.state);
  }

  get terminal(): boolean {
    return this.record.state !== undefined && isTerminal(this.record.state);
  }
}

/** A conversation: one contextId (v0.1: sessionId), its tasks, and every frame in order. */
export class Thread {
  readonly key: string;
  readonly contextId: string | undefined;
  readonly target: RequestTarget | undefined;
  readonly startedAt: number;
  timeline = $state.raw<readonly TimelineEntry[]>([]);
  tasks = $state.raw<readonly TaskView[]>([]);

  constructor(key: string, contextId: string | undefined, target: RequestTarget | undefined, startedAt: number) {
    this.key = key;
    this.contextId = contextId;
    this.target = target;
    this.startedAt = startedAt;
  }

  task(taskId: string): TaskView | undefined {
    return this.tasks.find((t) => t.taskId === taskId);
  }

  /** The word the dialect uses for the grouping id. */
  get contextWord(): string {
    return this.target?.dialect === "0.1" ? "sessionId" : "contextId";
  }
}

export interface ConversationDeps {
  /** The form's ports and credentials now, or why requests cannot go out. */
  outbound(target: RequestTarget): { readonly out: Outbound; readonly headers: Readonly<Record<string, string>> } | string;
  versionHeader(): HeaderOptions["versionHeader"];
  readonly now: () => number;
  readonly wallNow: () => number;
  readonly newId: () => string;
  /** The validation engine, to judge every frame. */
  readonly validate?: Validate;
}

/** Where an exchange's answers belong before any of them names a task or context. */
export interface Hint {
  readonly taskId?: string;
  readonly contextId?: string;
}

const NO_CONTEXT = "(no context)";

function idsOf(event: A2aEvent | undefined): { taskId?: string; contextId?: string } {
  if (!event || event.kind === "tasks" || event.kind === "other" || event.kind === "error") return {};
  const taskId = event.taskId;
  return { ...(taskId ? { taskId } : {}), ...(event.contextId ? { contextId: event.contextId } : {}) };
}

/** Threads and tasks: every exchange lands here, and the task actions go out from here. */
export class ConversationsState {
  threads = $state.raw<readonly Thread[]>([]);
  selected = $state<string | null>(null);
  readonly #deps: ConversationDeps;
  #seq = 0;

  constructor(deps: ConversationDeps) {
    this.#deps = deps;
  }

  get current(): Thread | undefined {
    return this.threads.find((t) => t.key === this.selected) ?? this.threads[0];
  }

  #findTask(taskId: string): { thread: Thread; task: TaskView } | undefined {
    for (const thread of this.threads) {
      const task = thread.task(taskId);
      if (task) return { thread, task };
    }
    return undefined;
  }

  #thread(key: string, contextId: string | undefined, target: RequestTarget | undefined): Thread {
    let thread = this.threads.find((t) => t.key === key);
    if (!thread) {
      thread = new Thread(key, contextId, target, this.#deps.now());
      this.threads = [thread, ...this.threads];
    }
    return thread;
  }

  #hinted(hint: Hint): Thread | undefined {
    if (hint.taskId) {
      const found = this.#findTask(hint.taskId);
      if (found) return found.thread;
    }
    return hint.contextId ? this.threads.find((t) => t.key === hint.contextId) : undefined;
  }

  /** Sends `spec` and follows it live; the returned exchange fills as frames arrive. */
  run(spec: HttpRequestSpec, label: string, out: Outbound, hint: Hint = {}, key = ""): { live: LiveExchange; done: Promise<void> } {
    const live = new LiveExchange(spec, label, out, key, this.#deps.validate);
    let thread = this.#hinted(hint);
    if (thread) this.selected = thread.key;
    const pending: TimelineEntry[] = [];
    // Tasks this exchange spoke of, in order.
    const touched: string[] = [];
    const wallStart = this.#deps.wallNow();
    const add = (entry: Omit<TimelineEntry, "seq" | "exchangeId" | "operation">) => {
      const full = { ...entry, seq: ++this.#seq, exchangeId: live.id, operation: label };
      if (thread) thread.timeline = [...thread.timeline, full];
      else pending.push(full);
    };
    const settle = (found: Thread) => {
      thread = found;
      // A new exchange brings its conversation to the front.
      this.selected = found.key;
      if (pending.length > 0) found.timeline = [...found.timeline, ...pending.splice(0)];
    };
    add({ direction: "out", wall: wallStart, at: 0, text: `${label}: ${spec.method} ${spec.url}`, tone: "muted", ...(spec.body !== undefined ? { raw: spec.body } : {}) });

    const onFrame = (frame: AnswerFrame) => {
      live.add(frame);
      const ids = idsOf(frame.event);
      if (!thread && (ids.taskId || ids.contextId)) {
        const known = ids.taskId ? this.#findTask(ids.taskId)?.thread : undefined;
        settle(known ?? this.#thread(ids.contextId ?? `task ${ids.taskId}`, ids.contextId, out.target));
      }
      const words = frameWords(frame);
      add({ direction: "in", wall: this.#deps.wallNow(), at: frame.at, text: words.text, tone: words.tone, raw: frame.text, ...(frame.sseEvent ? { sseEvent: frame.sseEvent } : {}), ...(ids.taskId ? { taskId: ids.taskId } : {}) });
      if (thread && frame.event) this.#fold(thread, frame.event, ids.taskId, touched, out);
    };

    const done = exchange(out.ports, spec, { dialect: out.dialect, binding: out.binding, onFrame, signal: live.signal, correlationId: `a2a-${live.id}` }).then((result) => {
      live.result = result;
      live.running = false;
      if (!thread) settle(this.#hinted(hint) ?? this.#thread(NO_CONTEXT, undefined, out.target));
      const end = result.failure ? failureWords(result.failure) : { text: spec.streaming ? endWords(result.streamEnd, out.dialect) : `HTTP ${result.status}`, tone: "muted" as Tone };
      add({ direction: "end", wall: this.#deps.wallNow(), at: result.elapsedMs, text: end.text, tone: end.tone });
      for (const id of touched) {
        const task = thread?.task(id);
        if (task && spec.streaming) task.streamFailure = result.failure ?? null;
      }
    });
    return { live, done };
  }

  #fold(thread: Thread, event: A2aEvent, taskId: string | undefined, touched: string[], out: Outbound): void {
    if (event.kind === "tasks") {
      for (const t of event.tasks) {
        const known = t.kind === "task" && t.taskId ? this.#findTask(t.taskId) : undefined;
        if (known) this.#fold(known.thread, t, known.task.taskId, touched, out);
      }
      return;
    }
    if (event.kind !== "task" && event.kind !== "status" && event.kind !== "artifact") return;
    const id = taskId ?? touched.at(-1);
    if (!id) return;
    let task = thread.task(id);
    if (!task) {
      task = new TaskView(id, new TaskFold(out.dialect));
      thread.tasks = [...thread.tasks, task];
    }
    if (!touched.includes(id)) touched.push(id);
    task.fold.add(event, this.#deps.now() - thread.startedAt);
    task.record = task.fold.tasks().find((r) => r.taskId === id) ?? task.record;
  }

  /** get, list, cancel or resubscribe (or set a push config, with `extra`) on a task of a thread, with the form's credentials. */
  act(thread: Thread, task: TaskView, operation: Operation, extra: OperationInput = {}): Promise<ExchangeResult | null> {
    return this.#send(thread, task, operation, { ...extra, taskId: task.taskId, ...(operation === "list" && thread.contextId ? { contextId: thread.contextId } : {}) });
  }

  /** A line from outside any exchange (a push notification), on the thread of `taskId`; a thread of its own when none holds it. */
  note(taskId: string, where: Hint & { readonly target?: RequestTarget }, entry: Omit<TimelineEntry, "seq">): Thread {
    const thread = this.#findTask(taskId)?.thread ?? this.#hinted(where) ?? this.#thread(where.contextId ?? `task ${taskId}`, where.contextId, where.target);
    thread.timeline = [...thread.timeline, { ...entry, seq: ++this.#seq }];
    return thread;
  }

  /** The next message in the same task (an input-required or auth-required one, say). */
  reply(thread: Thread, task: TaskView): Promise<void> {
    const text = task.replyText;
    if (text.trim() === "") {
      task.actionError = "type the answer first";
      return Promise.resolve();
    }
    const dialect = thread.target?.dialect;
    const message = { messageId: this.#deps.newId(), parts: [{ kind: "text" as const, text }], ...(dialect !== "0.1" ? { taskId: task.taskId, ...(thread.contextId ? { contextId: thread.contextId } : {}) } : {}) };
    const input: OperationInput = { message, ...(dialect === "0.1" ? { taskId: task.taskId, ...(thread.contextId ? { sessionId: thread.contextId } : {}) } : {}) };
    return this.#send(thread, task, task.replyStream ? "stream" : "send", input).then(() => {
      if (!task.actionError) task.replyText = "";
    });
  }

  /** Whether the thread's dialect and binding offer `operation`. */
  offers(thread: Thread, operation: Operation): boolean {
    return thread.target !== undefined && operationsOf(thread.target.dialect, thread.target.binding).includes(operation);
  }

  async #send(thread: Thread, task: TaskView, operation: Operation, input: OperationInput): Promise<ExchangeResult | null> {
    task.actionError = null;
    const target = thread.target;
    if (!target) {
      task.actionError = "this thread came from a raw request with no known interface: send from Compose instead";
      return null;
    }
    const outbound = this.#deps.outbound(target);
    if (typeof outbound === "string") {
      task.actionError = outbound;
      return null;
    }
    let spec: HttpRequestSpec;
    try {
      spec = buildRequest(target, operation, input, { versionHeader: this.#deps.versionHeader(), headers: requestFormHeaders(outbound.headers) }, this.#deps.newId());
    } catch (err) {
      task.actionError = (err as Error).message;
      return null;
    }
    task.busy = operation;
    try {
      const run = this.run(spec, operation, outbound.out, { taskId: task.taskId, ...(thread.contextId ? { contextId: thread.contextId } : {}) });
      await run.done;
      return run.live.result;
    } finally {
      task.busy = null;
    }
  }
}
