import { FISK_PROTOCOLS } from "./protocol-ids.ts";
import { stampRequest, type PresetHeader, type StampContext } from "./stamp.ts";
import type { Answer, ApproveChoice, Budget, JsonObject } from "./types-common.ts";
import type {
  Cancel,
  DiscoveryRequest,
  ElicitReply,
  ElicitRequest,
  ElicitWaiting,
  RequestAnswer,
  RequestPrompt,
  RequestRead,
  RequestResume,
  ToolRequest,
} from "./types-messages.ts";

/**
 * Ready-to-send requests, stamped as fisk-ai stamps them. The tags a caller must know before
 * sending (the task's `request`, which cancel and elicit subjects embed) can be preset.
 */

export function discoveryRequest(ctx: StampContext): DiscoveryRequest {
  return stampRequest<DiscoveryRequest>({ protocol: FISK_PROTOCOLS.discoveryRequest }, ctx);
}

interface Continuation {
  budget?: Budget;
  /** Absent means stream; `false` asks for the terminal message only. */
  stream?: boolean;
  force?: boolean;
}

/** What each request kind may carry (its schema forbids the rest). */
export interface RequestFieldsInput {
  prompt: Continuation & { prompt: string; context?: string; tool_hints?: string[]; conversation_token?: string; replay?: number };
  answer: Continuation & { conversation_token: string; answer: Answer; replay?: number };
  resume: Continuation & { conversation_token: string };
  read: { conversation_token: string; replay: number };
}

/** `name` is the tool's name on the serving agent. A null or absent input is left off. */
export function toolRequest(name: string, input: JsonObject | null | undefined, ctx: StampContext, preset: PresetHeader = {}): ToolRequest {
  const body: Record<string, unknown> = { protocol: FISK_PROTOCOLS.toolRequest, ...preset, name };
  if (input !== null && input !== undefined) body.input = input;
  return stampRequest<ToolRequest>(body as unknown as ToolRequest, ctx);
}

/** Leaves out the fields a caller set to undefined, so the plain encoding has no holes. */
function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

export function promptRequest(fields: RequestFieldsInput["prompt"], ctx: StampContext, preset: PresetHeader = {}): RequestPrompt {
  return stampRequest<RequestPrompt>({ protocol: FISK_PROTOCOLS.requestPrompt, ...preset, ...defined(fields) }, ctx);
}

export function answerRequest(fields: RequestFieldsInput["answer"], ctx: StampContext, preset: PresetHeader = {}): RequestAnswer {
  return stampRequest<RequestAnswer>({ protocol: FISK_PROTOCOLS.requestAnswer, ...preset, ...defined(fields) }, ctx);
}

export function resumeRequest(fields: RequestFieldsInput["resume"], ctx: StampContext, preset: PresetHeader = {}): RequestResume {
  return stampRequest<RequestResume>({ protocol: FISK_PROTOCOLS.requestResume, ...preset, ...defined(fields) }, ctx);
}

export function readRequest(fields: RequestFieldsInput["read"], ctx: StampContext, preset: PresetHeader = {}): RequestRead {
  return stampRequest<RequestRead>({ protocol: FISK_PROTOCOLS.requestRead, ...preset, ...defined(fields) }, ctx);
}

/** A cancel for the task whose request tag is `taskRequest`; its own conversation tag is fresh. */
export function cancelMessage(taskRequest: string, ctx: StampContext, reason?: string): Cancel {
  const body: Record<string, unknown> = { protocol: FISK_PROTOCOLS.cancel, request: taskRequest };
  if (reason) body.reason = reason;
  return stampRequest<Cancel>(body as unknown as Cancel, ctx);
}

/** What a person said to a question, before it is put on the wire. */
export type ElicitAnswerInput =
  | { readonly kind: "approve"; readonly choice: ApproveChoice }
  | { readonly kind: "confirm"; readonly confirmed: boolean }
  | { readonly kind: "select"; readonly index: number }
  | { readonly kind: "input"; readonly value: string }
  | { readonly kind: "no_operator" };

type QuestionRef = Pick<ElicitRequest, "request" | "conversation" | "question_id">;

const REPLY_PROTOCOLS = {
  approve: FISK_PROTOCOLS.elicitReplyApprove,
  confirm: FISK_PROTOCOLS.elicitReplyConfirm,
  select: FISK_PROTOCOLS.elicitReplySelect,
  input: FISK_PROTOCOLS.elicitReplyInput,
  no_operator: FISK_PROTOCOLS.elicitReplyNoOperator,
} as const;

/** The answer to a question, on the asking task's tags, carrying only its own value field. */
export function elicitReply(question: QuestionRef, answer: ElicitAnswerInput, ctx: StampContext): ElicitReply {
  const { kind, ...value } = answer;
  const body = {
    protocol: REPLY_PROTOCOLS[kind],
    request: question.request,
    conversation: question.conversation,
    question_id: question.question_id,
    ...value,
  };
  return stampRequest<ElicitReply>(body as unknown as ElicitReply, ctx);
}

/** "Still deciding": restarts the question's window; send every wait_ms/3. */
export function elicitWaiting(question: QuestionRef, ctx: StampContext): ElicitWaiting {
  const body = {
    protocol: FISK_PROTOCOLS.elicitWaiting,
    request: question.request,
    conversation: question.conversation,
    question_id: question.question_id,
  };
  return stampRequest<ElicitWaiting>(body, ctx);
}

/**
 * The answer to keep for a later `request.answer` when a live one could not be delivered. A
 * select names the option text, not its index, because the run that held the list has ended.
 */
export function lateAnswer(question: Pick<ElicitRequest, "protocol" | "tool_use_id" | "options">, answer: ElicitAnswerInput): Answer {
  const kind = question.protocol.slice(question.protocol.lastIndexOf(".") + 1) as Answer["kind"];
  const base = { tool_use_id: question.tool_use_id ?? "", kind };
  switch (answer.kind) {
    case "approve":
      return { ...base, answer: "choice", choice: answer.choice };
    case "confirm":
      return { ...base, answer: "confirmed", confirmed: answer.confirmed };
    case "input":
      return { ...base, answer: "value", value: answer.value };
    case "no_operator":
      return { ...base, answer: "no_operator" };
    case "select": {
      const options = question.options ?? [];
      const chosen = Number.isInteger(answer.index) ? options[answer.index] : undefined;
      if (chosen === undefined) {
        throw new RangeError(`option ${answer.index} is not one of the ${options.length} the question offered`);
      }
      return { ...base, answer: "value", value: chosen };
    }
  }
}
