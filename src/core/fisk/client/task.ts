import {
  answerRequest,
  cancelMessage,
  cancelSubject,
  decodeFiskMessage,
  elicitSubject,
  encodeFiskMessage,
  FISK_PROTOCOLS,
  isValidRequestId,
  lateAnswer,
  mintKsuid,
  promptRequest,
  readRequest,
  resumeRequest,
  taskSubject,
  type Ack,
  type Budget,
  type ElicitAnswerInput,
  type ElicitRequest,
  type ErrorMessage,
  type FiskRequest,
  type StampContext,
} from "../codec/index.ts";
import { NAMESPACE } from "../../packs/fisk-ai/protocol.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, freshInbox, idleBound, outgoingProblem, plainRequest, stampContext, type FiskClientDeps } from "./deps.ts";
import { livenessFor } from "./liveness.ts";
import { DEFAULT_IDLE_MS, readReplySet, type ReplySetEntry, type ReplySetResult } from "./reply-set.ts";
import { redactToken } from "./redact.ts";
import { TaskQuestions } from "./task-questions.ts";
import type { AnswerOutcome, CancelOutcome, ResultMessage, TaskEvent, TaskHandle, TaskOptions, TaskRequestInput, TaskResult, UnsentAnswer } from "./task-types.ts";

const TERMINALS: ReadonlySet<string> = new Set([FISK_PROTOCOLS.result, FISK_PROTOCOLS.error]);
const QUESTION_PREFIX = `${NAMESPACE}.elicit.request.`;
/** The most blocks a worker replays; a read asks for all of them. */
const READ_REPLAY = 200;

function buildRequest(input: TaskRequestInput, ctx: StampContext, request: string): FiskRequest {
  const preset = { request };
  switch (input.kind) {
    case "prompt": {
      const { kind: _k, budget, ...fields } = input;
      return promptRequest({ ...fields, ...(budget ? { budget: budget as Budget } : {}) }, ctx, preset);
    }
    case "resume": {
      // A prompt on a resume is refused by its schema; it is sent as asked and the validator says so.
      const { kind: _k, ...fields } = input;
      return resumeRequest(fields, ctx, preset);
    }
    case "read":
      return readRequest({ conversation_token: input.conversation_token, replay: input.replay ?? READ_REPLAY }, ctx, preset);
    case "answer":
      return answerRequest({ conversation_token: input.conversation_token, answer: input.answer }, ctx, preset);
  }
}

const notSent = (message: string): ReplySetResult => ({ entries: [], end: { kind: "send-failed", message }, gaps: 0, elapsedMs: 0 });

class Task implements TaskHandle {
  readonly request: string;
  readonly entries: ReplySetEntry[] = [];
  readonly done: Promise<TaskResult>;
  readonly #deps: FiskClientDeps;
  readonly #identity: string;
  readonly #listeners = new Set<(e: TaskEvent) => void>();
  readonly #questions: TaskQuestions;
  readonly #timeoutMs: number;
  #cancelSubject = "";
  #token: string | undefined;
  #tokenSeen = false;
  #refusal: string | undefined;

  constructor(deps: FiskClientDeps, identity: string, input: TaskRequestInput, opts: TaskOptions, refusal?: string) {
    this.#deps = deps;
    this.#identity = identity;
    this.#timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#token = input.conversation_token || undefined;
    this.request = opts.request ?? mintKsuid(deps.clock, deps.random);
    this.#refusal = refusal;
    let subject = "";
    let elicit = "";
    try {
      // Every subject this task will use is checked before anything is sent.
      if (!isValidRequestId(this.request)) throw new Error(`request id ${JSON.stringify(this.request)} is not valid: it must be 1 to 64 letters, digits, '-' or '_'`);
      subject = taskSubject(identity);
      this.#cancelSubject = cancelSubject(identity, this.request);
      elicit = elicitSubject(identity, this.request);
    } catch (err) {
      this.#refusal ??= (err as Error).message;
    }
    this.#questions = new TaskQuestions({ deps, identity, subject: elicit, timeoutMs: this.#timeoutMs, emit: (e) => this.#emit(e) });
    // Started on the next tick, so a caller can subscribe before the first event.
    this.done = Promise.resolve().then(() => this.#run(subject, input, opts));
  }

  async #run(subject: string, input: TaskRequestInput, opts: TaskOptions): Promise<TaskResult> {
    const deps = this.#deps;
    let text = "";
    if (this.#refusal === undefined) {
      try {
        text = encodeFiskMessage(buildRequest(input, stampContext(deps, this.#identity), this.request));
        this.#refusal = outgoingProblem(deps, text) ?? undefined;
      } catch (err) {
        this.#refusal = (err as Error).message;
      }
    }
    const set =
      this.#refusal !== undefined
        ? notSent(this.#refusal)
        : await readReplySet(deps, {
            subject,
            body: new TextEncoder().encode(text),
            inbox: freshInbox(deps.random),
            request: this.request,
            terminals: TERMINALS,
            idleMs: idleBound(opts.idleMs, opts.allowShortIdle, DEFAULT_IDLE_MS),
            onEntry: (entry) => this.#onEntry(entry),
            holdIdle: () => this.#questions.holdsIdle(),
            ...livenessFor(deps, this.#identity, opts.liveness),
          });
    this.#questions.closeAll();
    const terminal = set.end.kind === "terminal" ? (set.end.entry.value as unknown as ResultMessage | ErrorMessage) : undefined;
    const result: TaskResult = { end: set.end, ...(terminal ? { terminal } : {}), conversationTokenSeen: this.#tokenSeen, gaps: set.gaps };
    this.#emit({ type: "done", result });
    return result;
  }

  #onEntry(entry: ReplySetEntry): void {
    this.entries.push(entry);
    const token = entry.disposition === "ack" ? entry.value?.conversation_token : undefined;
    if (typeof token === "string" && token !== "") {
      this.#token = token;
      this.#tokenSeen = true;
    }
    this.#emit({ type: "entry", entry });
    if (entry.disposition === "event" && entry.protocol?.startsWith(QUESTION_PREFIX) && entry.value) {
      this.#questions.ask(entry.value as unknown as ElicitRequest);
    }
  }

  #emit(e: TaskEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(e);
      } catch {
        // A failing listener (the UI) must not stop the read or the other listeners.
      }
    }
  }

  subscribe(listener: (e: TaskEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get openQuestions(): readonly ElicitRequest[] {
    return this.#questions.open;
  }

  get unsent(): readonly UnsentAnswer[] {
    return this.#questions.unsent;
  }

  async cancel(reason?: string): Promise<CancelOutcome> {
    if (this.#cancelSubject === "") return { kind: "error", message: this.#refusal ?? "this task has no cancel subject" };
    const deps = this.#deps;
    const text = encodeFiskMessage(cancelMessage(this.request, stampContext(deps, this.#identity), reason));
    const problem = outgoingProblem(deps, text);
    if (problem) return { kind: "error", message: problem };
    const reply = await plainRequest(deps.port, this.#cancelSubject, new TextEncoder().encode(text), this.#timeoutMs);
    switch (reply.kind) {
      case "no-responders":
        return { kind: "not-running" };
      case "refused":
        return { kind: "refused", code: reply.code, description: reply.description };
      case "timeout":
        return { kind: "error", message: `no reply to the cancel within ${this.#timeoutMs} ms` };
      case "error":
        return { kind: "error", message: reply.message };
      case "reply": {
        const decoded = decodeFiskMessage(reply.message.data);
        if (!decoded.ok) return { kind: "error", message: `the reply to the cancel is not a fisk-ai message: ${decoded.error.message}` };
        if (decoded.message.protocol !== FISK_PROTOCOLS.ack) return { kind: "error", message: `a reply to a cancel must be an ack, not ${decoded.message.protocol}` };
        const ack = decoded.message as Ack;
        return ack.accepted === true ? { kind: "accepted" } : { kind: "refused", code: "not-accepted", description: ack.reason ?? "" };
      }
    }
  }

  answer(questionId: string, answer: ElicitAnswerInput): Promise<AnswerOutcome> {
    return this.#questions.answer(questionId, answer);
  }

  dismiss(questionId: string): Promise<AnswerOutcome> {
    return this.#questions.answer(questionId, { kind: "no_operator" });
  }

  followUp(prompt: string, opts: TaskOptions = {}): TaskHandle {
    const token = this.#token;
    const refusal = token ? undefined : "no conversation token yet: the first turn was not acknowledged with one";
    return new Task(this.#deps, this.#identity, { kind: "prompt", prompt, conversation_token: token ?? "" }, opts, refusal);
  }

  sendUnsent(index: number, opts: TaskOptions = {}): TaskHandle {
    const kept = this.#questions.unsent[index];
    const token = this.#token;
    let refusal = !kept ? `no kept answer at ${index}` : !token ? "no conversation token to send the answer with" : undefined;
    let answer;
    try {
      if (kept) answer = lateAnswer(kept.question, kept.answer);
    } catch (err) {
      refusal ??= (err as Error).message;
    }
    const input: TaskRequestInput = { kind: "answer", conversation_token: token ?? "", answer: answer ?? { tool_use_id: "", kind: "input", answer: "no_operator" } };
    const next = new Task(this.#deps, this.#identity, input, opts, refusal);
    const off = next.subscribe((e) => {
      if (e.type === "done") off();
      if (e.type !== "entry" || e.entry.disposition !== "ack" || e.entry.value?.accepted !== true) return;
      off();
      const at = this.#questions.unsent.indexOf(kept!);
      if (at >= 0) this.#questions.unsent.splice(at, 1);
    });
    return next;
  }

  redactToken(text: string): string {
    return redactToken(text, this.#token);
  }
}

/** `request.*` on `choria.fisk-ai.task.<identity>`, then the live reply set. */
export function startTask(deps: FiskClientDeps, identity: string, request: TaskRequestInput, opts: TaskOptions = {}): TaskHandle {
  return new Task(deps, identity, request, opts);
}
