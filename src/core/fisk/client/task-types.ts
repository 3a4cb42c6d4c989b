import type { Answer, ElicitAnswerInput, ElicitRequest, ErrorMessage, Result } from "../codec/index.ts";
import type { LivenessOption } from "./liveness.ts";
import type { ReplySetEnd, ReplySetEntry } from "./reply-set.ts";

/** A task's `result` message. */
export type ResultMessage = Result;

/** What to send on the task subject. `conversation_token` is a credential: never display or log it. */
export type TaskRequestInput =
  | {
      kind: "prompt";
      prompt: string;
      context?: string;
      conversation_token?: string;
      stream?: boolean;
      replay?: number;
      force?: boolean;
      budget?: Record<string, unknown>;
    }
  | { kind: "resume"; conversation_token: string; prompt?: string }
  /** `replay` defaults to 200, the most a worker sends. */
  | { kind: "read"; conversation_token: string; replay?: number }
  | { kind: "answer"; conversation_token: string; answer: Answer };

export interface TaskOptions {
  /** Longest wait between messages; default 120 s, raised to 30 s unless `allowShortIdle`. */
  idleMs?: number;
  allowShortIdle?: boolean;
  /** A caller-minted request tag; by default a fresh KSUID. */
  request?: string;
  /** How long a cancel, an answer or a waiting waits for its ack; default 30 s. */
  requestTimeoutMs?: number;
  /** Ask the agent's micro PING when the set stays silent (default on); `false` only waits. */
  liveness?: LivenessOption;
}

export type TaskEvent =
  /** Every message of the set as it arrives: ack, events of every kind (unknown too), questions, the terminal. */
  | { type: "entry"; entry: ReplySetEntry }
  /** A question the run is holding; `elicit.waiting` goes out every wait_ms/3 until it closes. */
  | { type: "question"; question: ElicitRequest }
  | { type: "question-closed"; questionId: string; how: "answered" | "dismissed" | "gone" }
  | { type: "done"; result: TaskResult };

export interface TaskResult {
  readonly end: ReplySetEnd;
  readonly terminal?: ResultMessage | ErrorMessage;
  /** The ack carried a conversation token; the handle keeps it privately for follow-ups. */
  readonly conversationTokenSeen: boolean;
  /** Sequence numbers skipped: counted, not fatal. */
  readonly gaps: number;
}

export type CancelOutcome =
  | { kind: "accepted" }
  /** No responders: no instance is running this task (never was, or it ended). */
  | { kind: "not-running" }
  | { kind: "refused"; code: string; description: string }
  | { kind: "error"; message: string };

export type AnswerOutcome =
  | { kind: "accepted" }
  /** The run no longer holds the question, and nothing was kept (a dismissal, or a question never asked). */
  | { kind: "gone"; description: string }
  /** The peer refused it (400), or it is invalid here (`code: "invalid"`); the question stays open. */
  | { kind: "refused"; code: string; description: string }
  /** Not delivered; kept in `unsent` to be sent later as `request.answer`. */
  | { kind: "kept"; reason: string };

export interface UnsentAnswer {
  readonly question: ElicitRequest;
  readonly answer: ElicitAnswerInput;
  readonly reason: string;
}

export interface TaskHandle {
  /** Minted before sending: the cancel and elicit subjects embed it. */
  readonly request: string;
  /** Live. Messages are raw as they arrived: pass any text shown through `redactToken`. */
  readonly entries: readonly ReplySetEntry[];
  subscribe(listener: (e: TaskEvent) => void): () => void;
  readonly done: Promise<TaskResult>;
  /** A NATS request on `choria.fisk-ai.cancel.<identity>.<request>`. */
  cancel(reason?: string): Promise<CancelOutcome>;
  /** Stops the question's waitings, then sends the answer on the elicit subject. */
  answer(questionId: string, answer: ElicitAnswerInput): Promise<AnswerOutcome>;
  /** `no_operator`: the person will not decide. Never kept. */
  dismiss(questionId: string): Promise<AnswerOutcome>;
  readonly openQuestions: readonly ElicitRequest[];
  readonly unsent: readonly UnsentAnswer[];
  /** The next turn of this conversation, carrying the kept token. */
  followUp(prompt: string, opts?: TaskOptions): TaskHandle;
  /** Sends a kept answer as `request.answer` with the kept token; it leaves `unsent` once acknowledged. */
  sendUnsent(index: number, opts?: TaskOptions): TaskHandle;
  /** The text with this conversation's token replaced by "•••". */
  redactToken(text: string): string;
}
