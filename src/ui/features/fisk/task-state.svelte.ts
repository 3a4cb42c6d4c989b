import { SvelteMap } from "svelte/reactivity";
import type { TaskHandle, TaskRequestInput, TaskResult, UnsentAnswer } from "../../../core/fisk/client/index.ts";
import type { ReplySetEntry } from "../../../core/fisk/client/reply-set.ts";
import type { ElicitAnswerInput, ElicitRequest } from "../../../core/fisk/codec/index.ts";
import { cardOf, identityProblem, type AgentsState } from "./agents-state.svelte.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { QuestionDraft } from "./question-draft.svelte.ts";
import { taskItems, type TaskItem } from "./task-items.ts";
import { describeTaskEnd } from "./task-words.ts";
import { FISK_IDLE_FLOOR_SECONDS, MIN_IDLE_SECONDS } from "./tool-call-state.svelte.ts";
import { keepFields } from "../../state/drafts.svelte.ts";

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
  readonly shortIdle = $derived(Number(this.idleSeconds) < FISK_IDLE_FLOOR_SECONDS);

  /** The form as it was when the last problem was found: any change hides that problem. */
  #errorFor = $state("");
  /** The agent the shown stream is from. */
  streamAgent = $state("");
  readonly #formKey = $derived(JSON.stringify([this.identity.trim(), this.mode, this.prompt, this.context, this.replay, this.maxTokens, this.maxIterations, this.idleSeconds]));
  readonly shownError: string | null = $derived(this.error && this.#errorFor === this.#formKey ? this.error : null);
  /** The shown stream is from another agent than the one now typed. */
  readonly staleStream: string | null = $derived(
    this.streamAgent !== "" && !this.running && this.streamAgent !== this.identity.trim() ? `this stream is from ${this.streamAgent}, not ${this.identity.trim() || "the agent typed"}` : null,
  );

  /** What the chosen agent serves, as its micro service or card says, for the line under the identity. */
  get served(): string | null {
    const identity = this.identity.trim();
    const known = this.#agents?.endpoints[identity];
    if (known) return `${identity} serves ${known.names.join(", ") || "no endpoints"} (from ${known.source})${known.names.includes("task") ? "" : ": no task endpoint, so it answers no tasks"}`;
    const card = cardOf(this.#agents?.agents.find((a) => a.identity === identity));
    if (!card) return null;
    return card.model ? `${identity}'s card names a model (${card.model}): it answers prompts` : `${identity}'s card names no model: it may serve tools only`;
  }

  readonly #source: FiskSource;
  readonly #agents: AgentsState | undefined;
  #handle: TaskHandle | null = null;
  #off: (() => void) | null = null;

  constructor(source: FiskSource, agents?: AgentsState) {
    this.#source = source;
    this.#agents = agents;
    // Kept across a reload; the conversation token is a credential and never is.
    keepFields(this, "fisk.task", ["identity", "mode", "prompt", "context", "stream", "replay", "force", "maxTokens", "maxIterations", "idleSeconds"]);
  }

  #problem(message: string | null): void {
    this.error = message;
    this.#errorFor = this.#formKey;
  }

  /** Why the agent cannot take a task, from the endpoints its micro service names. */
  #taskRefusal(identity: string): string | null {
    const known = this.#agents?.endpoints[identity];
    if (!known || known.names.includes("task")) return null;
    return `${identity} does not serve tasks: its micro service names the endpoints ${known.names.join(", ") || "(none)"} (from ${known.source}), and no task; a task would only wait for the idle limit`;
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

  async start(): Promise<void> {
    if (this.running) return;
    const client = this.#source.client();
    const input = this.#input();
    const idle = Number(this.idleSeconds);
    const identity = this.identity.trim();
    const problem =
      identityProblem(identity) ??
      (typeof input === "string" ? input : null) ??
      (!Number.isFinite(idle) || idle < MIN_IDLE_SECONDS ? `the idle timeout must be at least ${MIN_IDLE_SECONDS} second` : null) ??
      (client ? null : NOT_CONNECTED);
    this.#problem(problem);
    if (problem || !client || typeof input === "string") return;
    // Unknown endpoints are asked for first ($SRV.INFO.<identity>); known ones cost nothing.
    const agents = this.#agents;
    if (agents && !agents.endpoints[identity]) await agents.learnEndpoints(identity).catch(() => null);
    const refusal = this.#taskRefusal(identity);
    if (refusal) return this.#problem(refusal);
    if (this.running) return;
    this.streamAgent = identity;
    this.#begin(client.startTask(identity, input, { idleMs: idle * 1000, allowShortIdle: true }));
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
        this.#problem(`The task failed: ${(err as Error).message}`);
        this.running = false;
      },
    );
  }

  #finish(handle: TaskHandle, result: TaskResult): void {
    if (this.#handle !== handle || this.result) return;
    this.result = result;
    if (result.end.kind === "no-responders") {
      const how = result.end.via ? `${result.end.via.subject} got no responders` : "its task subject got no responders (503)";
      this.#agents?.markGone(this.streamAgent, `a task found nothing serving it: ${how}`);
    }
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
      this.#problem("type the follow-up prompt first");
      return;
    }
    if (!this.#source.client()) {
      this.#problem(NOT_CONNECTED);
      return;
    }
    this.#problem(null);
    this.#begin(handle.followUp(this.prompt, { idleMs: Number(this.idleSeconds) * 1000, allowShortIdle: true }));
  }

  async cancel(): Promise<void> {
    const handle = this.#handle;
    if (!handle || !this.running) return;
    const outcome = await handle.cancel("cancelled from the Patchbay console");
    if (outcome.kind === "accepted") this.notice = "Cancel accepted: the run stops at its next step.";
    else if (outcome.kind === "not-running") this.notice = "Nothing to cancel: the task is no longer running there.";
    else if (outcome.kind === "refused") this.#problem(`Cancel refused (${outcome.code}): ${outcome.description}`);
    else this.#problem(`Cancel failed: ${outcome.message}`);
  }

  async answer(question: ElicitRequest, answer: ElicitAnswerInput): Promise<void> {
    const handle = this.#handle;
    if (!handle) return;
    const outcome = answer.kind === "no_operator" ? await handle.dismiss(question.question_id) : await handle.answer(question.question_id, answer);
    this.#keepUnsent(handle);
    if (outcome.kind === "accepted") this.notice = answer.kind === "no_operator" ? "Dismissed: the agent was told nobody will answer." : "Answer delivered.";
    else if (outcome.kind === "gone") this.notice = `The question is gone (${outcome.description}); the answer is kept below to send later.`;
    else if (outcome.kind === "refused") this.#problem(`The answer was refused (${outcome.code}): ${outcome.description}`);
    else this.notice = `The answer could not be delivered (${outcome.reason}); it is kept below to send later.`;
  }

  /** Sends a kept answer as `request.answer` on the same conversation: a new task on the same agent. */
  sendLater(unsent: Unsent): void {
    if (this.running) {
      this.#problem("wait for the running task to end before sending a kept answer");
      return;
    }
    const index = unsent.handle.unsent.indexOf(unsent.item);
    const problem = !this.#source.client() ? NOT_CONNECTED : index < 0 ? "that answer is no longer kept by its task" : null;
    this.#problem(problem);
    if (problem) return;
    this.unsent = this.unsent.filter((u) => u !== unsent);
    this.#begin(unsent.handle.sendUnsent(index, { idleMs: Number(this.idleSeconds) * 1000, allowShortIdle: true }));
  }

  discardUnsent(unsent: Unsent): void {
    this.unsent = this.unsent.filter((u) => u !== unsent);
  }
}
