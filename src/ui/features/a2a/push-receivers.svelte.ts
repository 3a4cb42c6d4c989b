import { SvelteMap } from "svelte/reactivity";
import { TaskFold, type A2aEvent, type ExchangeResult, type RequestTarget } from "../../../core/a2a/index.ts";
import { hookUrl, receiverGone, type PushReceiverApi, type ReceivedNotification, type ReceiverRead } from "../../../core/a2a/push-receiver.ts";
import { pushFrame, pushIsNewer, readPushNotification } from "../../../core/a2a/push-notification.ts";
import type { Scheduler } from "../../../core/env/scheduler.ts";
import type { WireFrameInput } from "../../../core/wire/index.ts";
import { TaskView, type ConversationsState, type Thread } from "./conversations.svelte.ts";
import { eventWords, type Line } from "./frame-words.ts";

/** The backend's receivers API and where the agent reaches the backend; absent where there is no backend. */
export interface PushPorts {
  readonly api: PushReceiverApi;
  /** The backend's public base URL, as the agent should use it. */
  readonly hookBase: string;
  readonly scheduler: Scheduler;
  /** Between reads while a receiver is open. */
  readonly pollMs?: number;
  /** How long a receiver stays open after its task ended, for the notifications still on their way. */
  readonly lingerMs?: number;
}

export interface PushDeps {
  readonly ports: PushPorts | undefined;
  readonly conversations: ConversationsState;
  readonly record: (frame: WireFrameInput) => void;
  readonly now: () => number;
  readonly wallNow: () => number;
}

/** Where a receiver's notifications belong: its task, and the thread to make when no thread holds it. */
export interface ReceiverHome {
  readonly contextId?: string;
  readonly target?: RequestTarget;
}

/** One receiver on the backend, made for one task. */
export class PushReceiver {
  readonly id: string;
  readonly token: string;
  readonly url: string;
  readonly taskId: string;
  readonly home: ReceiverHome;
  received = $state(0);
  dropped = $state(0);
  open = $state(true);
  closedWhy = $state<string | null>(null);
  error = $state<string | null>(null);
  /** The last seq read. */
  after = 0;
  /** Monotonic time of the last notification, or of the task's end; the linger runs from it. */
  quietSince: number | undefined;

  constructor(made: { id: string; token: string; url: string }, taskId: string, home: ReceiverHome) {
    this.id = made.id;
    this.token = made.token;
    this.url = made.url;
    this.taskId = taskId;
    this.home = home;
  }
}

const NO_BACKEND = "push notifications to Patchbay need its backend, and this page has none";

/** A failed exchange, or a JSON-RPC error answered with HTTP 200. */
function refused(result: ExchangeResult | null): string | undefined {
  if (!result) return "the push config was not sent";
  if (result.failure) return result.failure.message;
  const error = result.frames.find((f) => f.event?.kind === "error")?.event;
  return error?.kind === "error" ? `${error.error.name}: ${error.error.message}` : undefined;
}

/**
 * Receivers for push notifications, one per task: made through the backend, polled while any is
 * open and the page is shown, each notification logged verbatim, then read onto its task's
 * timeline and folded in when it is newer. A receiver closes (and is deleted) once its task has
 * ended and gone quiet, when the user stops it, or when the page goes away.
 */
export class PushReceiversState {
  receivers = $state.raw<readonly PushReceiver[]>([]);
  readonly #deps: PushDeps;
  readonly #pending = new SvelteMap<string, Promise<PushReceiver | string>>();
  #cancel: (() => void) | null = null;
  #polling = false;
  #paused = false;

  constructor(deps: PushDeps) {
    this.#deps = deps;
  }

  get available(): boolean {
    return this.#deps.ports !== undefined;
  }

  /** The task's latest receiver, open or closed. */
  receiverFor(taskId: string): PushReceiver | undefined {
    return this.receivers.findLast((r) => r.taskId === taskId);
  }

  get openCount(): number {
    return this.receivers.filter((r) => r.open).length;
  }

  /** The task's open receiver, or a new one; a string says why there is none. */
  open(taskId: string, home: ReceiverHome): Promise<PushReceiver | string> {
    const ports = this.#deps.ports;
    if (!ports) return Promise.resolve(NO_BACKEND);
    const known = this.receiverFor(taskId);
    if (known?.open) return Promise.resolve(known);
    const pending = this.#pending.get(taskId);
    if (pending) return pending;
    const made = ports.api.create().then(
      (m) => {
        const r = new PushReceiver({ id: m.id, token: m.token, url: hookUrl(ports.hookBase, m.path) }, taskId, home);
        this.receivers = [...this.receivers.filter((x) => x.taskId !== taskId), r];
        this.#schedule();
        return r;
      },
      (err: Error) => `could not make a receiver: ${err.message}`,
    );
    this.#pending.set(taskId, made);
    return made.finally(() => this.#pending.delete(taskId));
  }

  /** Makes (or reuses) the task's receiver and sets a push config on the task pointing at it. */
  async pushTask(thread: Thread, task: TaskView): Promise<void> {
    task.actionError = null;
    const r = await this.open(task.taskId, { ...(thread.contextId ? { contextId: thread.contextId } : {}), ...(thread.target ? { target: thread.target } : {}) });
    if (typeof r === "string") {
      task.actionError = r;
      return;
    }
    const result = await this.#deps.conversations.act(thread, task, "push-set", { pushUrl: r.url, pushToken: r.token });
    const why = task.actionError ?? refused(result);
    // A receiver no config points at would only wait for nothing.
    if (why) await this.close(r, `the agent did not take the push config (${why})`);
  }

  /** Closes the receiver and deletes it on the backend. */
  async close(r: PushReceiver, why: string, keepalive = false): Promise<void> {
    if (!r.open) return;
    r.open = false;
    r.closedWhy = why;
    this.receivers = [...this.receivers];
    if (this.openCount === 0) this.#stop();
    try {
      await this.#deps.ports?.api.remove(r.id, { keepalive });
    } catch (err) {
      if (!receiverGone(err)) r.error = `could not delete the receiver: ${(err as Error).message}`;
    }
  }

  /** The page goes away: every receiver is deleted, with requests that outlive it. */
  closeAll(why: string): void {
    for (const r of this.receivers) void this.close(r, why, true);
  }

  /** Hidden pages do not poll; the backend keeps what arrives meanwhile. */
  setHidden(hidden: boolean): void {
    this.#paused = hidden;
    if (hidden) this.#stop();
    else this.#schedule();
  }

  /** One round: every open receiver read, and those whose task has ended and gone quiet closed. */
  async poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      await Promise.all(this.receivers.filter((r) => r.open).map((r) => this.#read(r)));
      for (const r of this.receivers) if (r.open && this.#ended(r)) await this.close(r, "the task ended");
    } finally {
      this.#polling = false;
    }
  }

  #schedule(): void {
    const ports = this.#deps.ports;
    if (!ports || this.#cancel || this.#paused || this.openCount === 0) return;
    this.#cancel = ports.scheduler.after(ports.pollMs ?? 500, () => {
      this.#cancel = null;
      void this.poll().finally(() => this.#schedule());
    });
  }

  #stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  #ended(r: PushReceiver): boolean {
    const task = this.#taskView(r.taskId)?.task;
    if (!task?.terminal) return false;
    const now = this.#deps.now();
    r.quietSince ??= now;
    return now - r.quietSince >= (this.#deps.ports?.lingerMs ?? 2000);
  }

  async #read(r: PushReceiver): Promise<void> {
    const api = this.#deps.ports?.api;
    if (!api) return;
    let read: ReceiverRead;
    try {
      read = await api.read(r.id, r.after);
    } catch (err) {
      if (receiverGone(err)) await this.close(r, "the backend no longer has it (deleted, dropped for a newer one, or Patchbay restarted)");
      else r.error = `could not read the receiver: ${(err as Error).message}`;
      return;
    }
    r.error = null;
    if (!r.open) return;
    if (read.dropped > r.dropped) {
      const lost = read.dropped - r.dropped;
      r.dropped = read.dropped;
      this.#deps.conversations.note(r.taskId, r.home, { exchangeId: 0, operation: "push notification", direction: "in", wall: this.#deps.wallNow(), at: 0, text: `${lost} push notification(s) dropped by the backend's bound before they were read`, tone: "warn", taskId: r.taskId });
    }
    for (const n of read.notifications) {
      if (n.seq <= r.after) continue;
      r.after = n.seq;
      r.received++;
      r.quietSince = undefined;
      this.#deliver(r, n);
    }
  }

  #deliver(r: PushReceiver, n: ReceivedNotification): void {
    // Logged before anything reads it, as every other frame.
    this.#deps.record(pushFrame(n, r.url, r.id, r.taskId));
    const reading = readPushNotification(n.text, r.home.target?.dialect);
    let line: Line;
    let event: A2aEvent | undefined;
    if (!reading.ok) line = { text: `push notification that is ${reading.problem}`, tone: "bad" };
    else if (reading.taskId !== undefined && reading.taskId !== r.taskId) line = { text: `push notification for an unknown task ${reading.taskId} (this receiver is for ${r.taskId}): ${eventWords(reading.event).text}`, tone: "bad" };
    else if (reading.event.kind === "other" || reading.event.kind === "tasks" || reading.event.kind === "error") line = { text: `push notification that is neither a task nor a task event: ${eventWords(reading.event).text}`, tone: "bad" };
    else {
      const words = eventWords(reading.event);
      line = { text: `push notification: ${words.text}${reading.notes.length > 0 ? ` (${reading.notes.join("; ")})` : ""}`, tone: words.tone };
      event = reading.event;
    }
    const entry = { exchangeId: 0, operation: "push notification", direction: "in" as const, wall: n.at, at: 0, text: line.text, tone: line.tone, raw: n.text, taskId: r.taskId, push: { receiverId: r.id, seq: n.seq, headers: n.headers } };
    const thread = this.#deps.conversations.note(r.taskId, r.home, entry);
    if (event) this.#fold(thread, r, event, n.at);
  }

  #fold(thread: Thread, r: PushReceiver, event: A2aEvent, arrivedAt: number): void {
    let task = thread.task(r.taskId);
    if (!task) {
      task = new TaskView(r.taskId, new TaskFold(r.home.target?.dialect));
      thread.tasks = [...thread.tasks, task];
    }
    const last = task.record.steps.at(-1);
    // Steps keep monotonic times from the thread's start; the notification has the backend's wall time.
    const lastStepAt = last === undefined ? undefined : this.#deps.wallNow() - (this.#deps.now() - (thread.startedAt + last.at));
    if (!pushIsNewer(task.record, event, { arrivedAt, lastStepAt })) return;
    // The receiver's task, whatever id (or none) the notification gave.
    task.fold.add({ ...event, taskId: r.taskId } as A2aEvent, this.#deps.now() - thread.startedAt);
    task.record = task.fold.tasks().find((t) => t.taskId === r.taskId) ?? task.record;
  }

  #taskView(taskId: string): { thread: Thread; task: TaskView } | undefined {
    for (const thread of this.#deps.conversations.threads) {
      const task = thread.task(taskId);
      if (task) return { thread, task };
    }
    return undefined;
  }
}

/** Polls only while the page is shown; deletes every receiver when the page goes away. */
export function followPage(push: PushReceiversState): void {
  if (typeof document === "undefined") return;
  document.addEventListener("visibilitychange", () => push.setHidden(document.visibilityState === "hidden"));
  addEventListener("pagehide", () => push.closeAll("the page was closed"));
}
