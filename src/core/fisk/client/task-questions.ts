import { decodeFiskMessage, elicitReply, elicitWaiting, encodeFiskMessage, FISK_PROTOCOLS, lateAnswer, type Ack, type ElicitAnswerInput, type ElicitRequest } from "../codec/index.ts";
import { outgoingProblem, plainRequest, stampContext, type FiskClientDeps, type PlainReply } from "./deps.ts";
import type { AnswerOutcome, TaskEvent, UnsentAnswer } from "./task-types.ts";

interface Open {
  readonly question: ElicitRequest;
  /** The last waiting was acknowledged (or none was due yet): the run is alive and holding it. */
  alive: boolean;
  /** An answer is on its way: no more waitings. */
  answering: boolean;
  stopWaiting: () => void;
}

export interface QuestionContext {
  readonly deps: FiskClientDeps;
  readonly identity: string;
  /** `choria.fisk-ai.elicit.<identity>.<request>`, checked before the task was sent. */
  readonly subject: string;
  readonly timeoutMs: number;
  readonly emit: (e: TaskEvent) => void;
}

type How = "answered" | "dismissed" | "gone";

/** Whether a plain reply is an ack that accepted; otherwise why not. */
function accepted(reply: Extract<PlainReply, { kind: "reply" }>): true | string {
  const decoded = decodeFiskMessage(reply.message.data);
  if (!decoded.ok) return `the reply is not a fisk-ai message: ${decoded.error.message}`;
  if (decoded.message.protocol !== FISK_PROTOCOLS.ack) return `the reply is a ${decoded.message.protocol}, not an ack`;
  const ack = decoded.message as Ack;
  return ack.accepted === true ? true : `the ack refused it${ack.reason ? `: ${ack.reason}` : ""}`;
}

/** Why an answer cannot fit its question, checked before anything is sent or kept. */
function misfit(question: ElicitRequest, answer: ElicitAnswerInput): string | null {
  if (answer.kind === "no_operator") return null;
  const kind = question.protocol.slice(question.protocol.lastIndexOf(".") + 1);
  if (answer.kind !== kind) return `question ${JSON.stringify(question.question_id)} asks for ${kind}, not ${answer.kind}`;
  if (answer.kind !== "select") return null;
  const n = question.options?.length ?? 0;
  return Number.isInteger(answer.index) && answer.index >= 0 && answer.index < n ? null : `option ${answer.index} is not one of the ${n} the question offered`;
}

/**
 * The questions a task's run asks: it holds each open with `elicit.waiting` every wait_ms/3 while
 * a person decides, sends the answer or `no_operator`, and keeps an answer it could not deliver
 * for a later `request.answer` (never a `no_operator`).
 */
export class TaskQuestions {
  readonly #ctx: QuestionContext;
  readonly #open = new Map<string, Open>();
  readonly #closed = new Map<string, { question: ElicitRequest; how: How }>();
  readonly unsent: UnsentAnswer[] = [];

  constructor(ctx: QuestionContext) {
    this.#ctx = ctx;
  }

  get open(): ElicitRequest[] {
    return [...this.#open.values()].map((o) => o.question);
  }

  /** True while a question is held and its waitings are acknowledged: silence on the set is expected. */
  holdsIdle(): boolean {
    for (const o of this.#open.values()) if (o.alive && (o.question.wait_ms ?? 0) > 0) return true;
    return false;
  }

  ask(question: ElicitRequest): void {
    const id = question.question_id;
    if (typeof id !== "string" || this.#open.has(id)) return;
    const open: Open = { question, alive: true, answering: false, stopWaiting: () => undefined };
    this.#open.set(id, open);
    this.#ctx.emit({ type: "question", question });
    this.#scheduleWaiting(open);
  }

  /** The task ended: whatever is still open is gone. */
  closeAll(): void {
    for (const open of [...this.#open.values()]) this.#close(open, "gone");
  }

  #close(open: Open, how: How): void {
    open.stopWaiting();
    const id = open.question.question_id;
    if (!this.#open.delete(id)) return;
    this.#closed.set(id, { question: open.question, how });
    this.#ctx.emit({ type: "question-closed", questionId: id, how });
  }

  #scheduleWaiting(open: Open): void {
    const waitMs = open.question.wait_ms;
    // No wait_ms means the run asked for no waitings.
    if (typeof waitMs !== "number" || waitMs <= 0) return;
    open.stopWaiting = this.#ctx.deps.scheduler.after(Math.max(1, Math.floor(waitMs / 3)), () => void this.#sendWaiting(open));
  }

  async #sendWaiting(open: Open): Promise<void> {
    if (open.answering || !this.#open.has(open.question.question_id)) return;
    const { deps, identity, subject, timeoutMs } = this.#ctx;
    const text = encodeFiskMessage(elicitWaiting(open.question, stampContext(deps, identity)));
    if (outgoingProblem(deps, text)) return void (open.alive = false);
    const reply = await plainRequest(deps.port, subject, new TextEncoder().encode(text), timeoutMs);
    if (open.answering || !this.#open.has(open.question.question_id)) return;
    if (reply.kind === "no-responders" || (reply.kind === "refused" && reply.code === "404")) return this.#close(open, "gone");
    if (reply.kind === "refused") return void (open.alive = false);
    open.alive = reply.kind === "reply" && accepted(reply) === true;
    this.#scheduleWaiting(open);
  }

  async answer(questionId: string, answer: ElicitAnswerInput): Promise<AnswerOutcome> {
    const open = this.#open.get(questionId);
    const question = open?.question ?? this.#closed.get(questionId)?.question;
    const problem = question ? misfit(question, answer) : null;
    if (problem) return { kind: "refused", code: "invalid", description: problem };
    if (!open) {
      const closed = this.#closed.get(questionId);
      if (!closed) return { kind: "gone", description: `this task never asked question ${JSON.stringify(questionId)}` };
      if (closed.how !== "gone") return { kind: "gone", description: `question ${JSON.stringify(questionId)} was already ${closed.how}` };
      return this.#keep(closed.question, answer, "the run no longer holds this question");
    }
    if (open.answering) return { kind: "refused", code: "busy", description: "an answer to this question is already on its way" };
    const { deps, identity, subject, timeoutMs } = this.#ctx;
    const text = encodeFiskMessage(elicitReply(open.question, answer, stampContext(deps, identity)));
    const invalid = outgoingProblem(deps, text);
    if (invalid) return { kind: "refused", code: "invalid", description: invalid };
    // Waitings stop before the answer goes out.
    open.answering = true;
    open.stopWaiting();
    const reply = await plainRequest(deps.port, subject, new TextEncoder().encode(text), timeoutMs);
    const how: How = answer.kind === "no_operator" ? "dismissed" : "answered";
    switch (reply.kind) {
      case "reply": {
        const ok = accepted(reply);
        if (ok === true) {
          this.#close(open, how);
          return { kind: "accepted" };
        }
        this.#close(open, "gone");
        return this.#keep(open.question, answer, ok);
      }
      case "refused":
        if (reply.code === "404") {
          this.#close(open, "gone");
          return this.#keep(open.question, answer, `the run is not waiting on this question any more (404: ${reply.description})`);
        }
        // A malformed answer: the question stays open for a corrected one.
        open.answering = false;
        this.#scheduleWaiting(open);
        return { kind: "refused", code: reply.code, description: reply.description };
      case "no-responders":
        this.#close(open, "gone");
        return this.#keep(open.question, answer, "nothing holds the elicit subject: the run has ended");
      case "timeout":
        this.#close(open, "gone");
        return this.#keep(open.question, answer, `no ack within ${timeoutMs} ms: it may not have arrived`);
      case "error":
        this.#close(open, "gone");
        return this.#keep(open.question, answer, reply.message);
    }
  }

  #keep(question: ElicitRequest, answer: ElicitAnswerInput, reason: string): AnswerOutcome {
    // A dismissal fails closed on the run's side; there is nothing to deliver later.
    if (answer.kind === "no_operator") return { kind: "gone", description: reason };
    try {
      lateAnswer(question, answer);
    } catch (err) {
      return { kind: "refused", code: "invalid", description: (err as Error).message };
    }
    this.unsent.push({ question, answer, reason });
    return { kind: "kept", reason };
  }
}
