import { SvelteMap } from "svelte/reactivity";
import type { TaskHandle, TaskRequestInput, TaskResult, UnsentAnswer } from "../../../core/a2a-nats/client/index.ts";
import type { ReplySetEntry } from "../../../core/a2a-nats/client/reply-set.ts";
import type { ElicitAnswerInput, ElicitRequest } from "../../../core/a2a-nats/codec/index.ts";
import { identityProblem } from "./agents-state.svelte.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { QuestionDraft } from "./question-draft.svelte.ts";
import { taskItems, type TaskItem } from "./task-items.ts";
import { describeTaskEnd } from "./task-words.ts";
import { MIN_IDLE_SECONDS } from "./tool-call-state.svelte.ts";

export type TaskMode = "prompt" | "resume" | "read";
/** A kept answer, with the task whose conversation it belongs to. */
export interface Unsent {
  readonly handle: TaskHandle;
  readonly item: UnsentAnswer;
}

function positiveInt(text: string, name: string): number | undefined | string {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : `${name} must be a whole number above 0`;
}

/**
 * One task at a time: compose the request, follow its stream, answer its questions, cancel it.
 * The conversation token stays inside the client's handle; nothing here holds or shows it.
 */
export class TaskState {
  identity = $state("");
  mode = $state<TaskMode>("prompt");
  prompt = $state("");
  context = $state("");
  stream = $state(true);
  /** Turns of history to replay first; empty for none. */
  replay = $state("");
  force = $state(false);
  maxTokens = $state("");
  maxIterations = $state("");
  /** For resume and read: typed into a password field, handed to the client, never shown. */
  tokenInput = $state("");
  idleSeconds = $state(120);

  running = $state(false);
  request = $state("");
  entries = $state.raw<readonly ReplySetEntry[]>([]);
  questions = $state.raw<readonly ElicitRequest[]>([]);
  /** The answer being written for each open question, by question id: kept here so it outlives the panel. */
  readonly drafts = new SvelteMap<string, QuestionDraft>();
  /** How each closed question closed: answered, dismissed or gone. */
  closed = $state.raw<Readonly<Record<string, string>>>({});
  unsent = $state.raw<readonly Unsent[]>([]);
  result = $state.raw<TaskResult | null>(null);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  readonly items: TaskItem[] = $derived(taskItems(this.entries));
  readonly endText = $derived(this.result ? describeTaskEnd(this.result) : "");

  readonly #source: FiskSource;
  #handle: TaskHandle | null = null;
  #off: (() => void) | null = null;

  constructor(source: FiskSource) {
    this.#source = source;
  }

  #input(): TaskRequestInput | string {
    const token = this.tokenInput.trim();
    if (this.mode !== "prompt" && token === "") return "paste the conversation token of the conversation to continue";
    if (this.mode === "read") return { kind: "read", conversation_token: token };
    if (this.mode === "resume") return { kind: "resume", conversation_token: token, ...(this.prompt.trim() ? { prompt: this.prompt } : {}) };
    if (this.prompt.trim() === "") return "type a prompt";
    const maxTokens = positiveInt(this.maxTokens, "max tokens");
    const maxIterations = positiveInt(this.maxIterations, "max iterations");
    const replay = this.replay.trim() === "" ? undefined : Number(this.replay);
    if (replay !== undefined && !(Number.isInteger(replay) && replay >= 0)) return "replay must be a whole number of turns, 0 or more";
    if (typeof maxTokens === "string") return maxTokens;
    if (typeof maxIterations === "string") return maxIterations;
    const budget = { ...(maxTokens ? { max_tokens: maxTokens } : {}), ...(maxIterations ? { max_iterations: maxIterations } : {}) };
    return {
      kind: "prompt",
      prompt: this.prompt,
      ...(this.context.trim() ? { context: this.context } : {}),
      ...(this.stream ? {} : { stream: false }),
      ...(replay !== undefined ? { replay } : {}),
      ...(this.force ? { force: true } : {}),
      ...(Object.keys(budget).length > 0 ? { budget } : {}),
      ...(token ? { conversation_token: token } : {}),
    };
  }

  start(): void {
    if (this.running) return;
    const client = this.#source.client();
    const input = this.#input();
    const idle = Number(this.idleSeconds);
    const problem =
      identityProblem(this.identity.trim()) ??
      (typeof input === "string" ? input : null) ??
      (!Number.isFinite(idle) || idle < MIN_IDLE_SECONDS ? `the idle timeout must be at least ${MIN_IDLE_SECONDS} seconds` : null) ??
      (client ? null : NOT_CONNECTED);
    this.error = problem;
    if (problem || !client || typeof input === "string") return;
    this.#begin(client.startTask(this.identity.trim(), input, { idleMs: idle * 1000 }));
  }

  #begin(handle: TaskHandle): void {
    this.#off?.();
    this.#handle = handle;
    this.running = true;
    this.notice = null;
    this.request = handle.request;
    this.entries = [];
    this.questions = [];
    this.drafts.clear();
    this.closed = {};
    this.result = null;
    this.#off = handle.subscribe((e) => {
      if (this.#handle !== handle) return;
      if (e.type === "entry") this.entries = [...this.entries, e.entry];
      else if (e.type === "question") {
        this.questions = [...this.questions, e.question];
        if (!this.drafts.has(e.question.question_id)) this.drafts.set(e.question.question_id, new QuestionDraft(e.question));
      } else if (e.type === "question-closed") {
        this.questions = this.questions.filter((q) => q.question_id !== e.questionId);
        this.drafts.delete(e.questionId);
        this.closed = { ...this.closed, [e.questionId]: e.how };
      } else this.#finish(handle, e.result);
    });
    handle.done.then(
      (result) => this.#finish(handle, result),
      (err: unknown) => {
        if (this.#handle !== handle) return;
        this.error = `The task failed: ${(err as Error).message}`;
        this.running = false;
      },
    );
  }

  #finish(handle: TaskHandle, result: TaskResult): void {
    if (this.#handle !== handle || this.result) return;
    this.result = result;
    this.running = false;
    this.questions = [];
    this.drafts.clear();
    this.#keepUnsent(handle);
  }

  #keepUnsent(handle: TaskHandle): void {
    const known = this.unsent.map((u) => u.item);
    const fresh = handle.unsent.filter((item) => !known.includes(item)).map((item) => ({ handle, item }));
    if (fresh.length > 0) this.unsent = [...this.unsent, ...fresh];
  }

  /** The text with the running conversation's token replaced (the client's own redaction). */
  redact(text: string): string {
    return this.#handle ? this.#handle.redactToken(text) : text;
  }

  /** The next turn of the finished conversation, with the prompt typed above. */
  followUp(): void {
    const handle = this.#handle;
    if (!handle || this.running || !this.result?.conversationTokenSeen) return;
    if (this.prompt.trim() === "") {
      this.error = "type the follow-up prompt first";
      return;
    }
    if (!this.#source.client()) {
      this.error = NOT_CONNECTED;
      return;
    }
    this.error = null;
    this.#begin(handle.followUp(this.prompt, { idleMs: Number(this.idleSeconds) * 1000 }));
  }

  async cancel(): Promise<void> {
    const handle = this.#handle;
    if (!handle || !this.running) return;
    const outcome = await handle.cancel("cancelled from the Patchbay console");
    if (outcome.kind === "accepted") this.notice = "Cancel accepted: the run stops at its next step.";
    else if (outcome.kind === "not-running") this.notice = "Nothing to cancel: the task is no longer running there.";
    else if (outcome.kind === "refused") this.error = `Cancel refused (${outcome.code}): ${outcome.description}`;
    else this.error = `Cancel failed: ${outcome.message}`;
  }

  async answer(question: ElicitRequest, answer: ElicitAnswerInput): Promise<void> {
    const handle = this.#handle;
    if (!handle) return;
    const outcome = answer.kind === "no_operator" ? await handle.dismiss(question.question_id) : await handle.answer(question.question_id, answer);
    this.#keepUnsent(handle);
    if (outcome.kind === "accepted") this.notice = answer.kind === "no_operator" ? "Dismissed: the agent was told nobody will answer." : "Answer delivered.";
    else if (outcome.kind === "gone") this.notice = `The question is gone (${outcome.description}); the answer is kept below to send later.`;
    else if (outcome.kind === "refused") this.error = `The answer was refused (${outcome.code}): ${outcome.description}`;
    else this.notice = `The answer could not be delivered (${outcome.reason}); it is kept below to send later.`;
  }

  /** Sends a kept answer as `request.answer` on the same conversation: a new task on the same agent. */
  sendLater(unsent: Unsent): void {
    if (this.running) {
      this.error = "wait for the running task to end before sending a kept answer";
      return;
    }
    const index = unsent.handle.unsent.indexOf(unsent.item);
    const problem = !this.#source.client() ? NOT_CONNECTED : index < 0 ? "that answer is no longer kept by its task" : null;
    this.error = problem;
    if (problem) return;
    this.unsent = this.unsent.filter((u) => u !== unsent);
    this.#begin(unsent.handle.sendUnsent(index, { idleMs: Number(this.idleSeconds) * 1000 }));
  }

  discardUnsent(unsent: Unsent): void {
    this.unsent = this.unsent.filter((u) => u !== unsent);
  }
}
