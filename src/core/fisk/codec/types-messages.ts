import type { FISK_PROTOCOLS } from "./protocol-ids.ts";
import type { Gen1Block, Gen2BlockByKind } from "./types-blocks.ts";
import type { AgentCard, Answer, ApproveChoice, Budget, ExecResult, Header, JsonObject, Usage } from "./types-common.ts";

/**
 * Every fisk-ai message, one interface per protocol id, unioned as `FiskMessage` and keyed by
 * `protocol`. Ids both generations use (discovery, tool, ack, result, error, cancel) have one
 * type: Gen 2's, whose fields are a superset of Gen 1's. Gen 1's own ids are `Gen1Request` and
 * `Gen1Event`.
 */

type P = typeof FISK_PROTOCOLS;

export type DiscoveryRequest = Header<P["discoveryRequest"]>;
export interface DiscoveryReply extends Header<P["discoveryReply"]>, AgentCard {}

export interface ToolRequest extends Header<P["toolRequest"]> {
  /** The tool's name on the serving agent, never a local alias. */
  name: string;
  /** Absent (not `{}` or null) when there are no arguments. */
  input?: JsonObject;
}

export interface ToolReply extends Header<P["toolReply"]> {
  /** A harness failure: the tool did not run cleanly. A non-zero exit is not one. */
  is_error?: boolean;
  output?: string;
  exec?: ExecResult;
  /** Gen 2: why the call did not run (`capacity`); absent when it ran. */
  code?: string;
}

export interface Ack extends Header<P["ack"]> {
  accepted: boolean;
  reason?: string;
  /** A credential: never log or display it. */
  conversation_token?: string;
  max_tokens?: number;
}

/** The fields of the one Go struct behind the four request ids; each id's schema allows a subset. */
export interface RequestFields {
  prompt?: string;
  context?: string;
  tool_hints?: string[];
  budget?: Budget;
  /** Absent means true. */
  stream?: boolean;
  conversation_token?: string;
  answer?: Answer;
  replay?: number;
  force?: boolean;
}

export interface RequestPrompt extends Header<P["requestPrompt"]>, RequestFields {
  prompt: string;
}
export interface RequestAnswer extends Header<P["requestAnswer"]>, RequestFields {
  conversation_token: string;
  answer: Answer;
}
export interface RequestResume extends Header<P["requestResume"]>, RequestFields {
  conversation_token: string;
}
export interface RequestRead extends Header<P["requestRead"]>, RequestFields {
  conversation_token: string;
  replay: number;
}

export interface ThinkingEvent extends Header<P["eventThinking"]> {
  block: Gen2BlockByKind["thinking"];
}
export interface TextEvent extends Header<P["eventText"]> {
  block: Gen2BlockByKind["text"];
}
export interface ToolCallEvent extends Header<P["eventToolCall"]> {
  block: Gen2BlockByKind["tool_call"];
}
export interface ToolResultEvent extends Header<P["eventToolResult"]> {
  block: Gen2BlockByKind["tool_result"];
}
export interface AgentCallEvent extends Header<P["eventAgentCall"]> {
  block: Gen2BlockByKind["agent_call"];
}
export interface StatusEvent extends Header<P["eventStatus"]> {
  block: Gen2BlockByKind["status"];
}
export interface WarningEvent extends Header<P["eventWarning"]> {
  block: Gen2BlockByKind["warning"];
}
export interface PromptEvent extends Header<P["eventPrompt"]> {
  block: Gen2BlockByKind["prompt"];
}

declare const unknownEventBrand: unique symbol;
/**
 * An `…event.<kind>` id for a kind this build does not name. Branded so that comparing a
 * message's protocol with a named id never narrows to `UnknownEvent`.
 */
export type UnknownEventProtocol = string & { readonly [unknownEventBrand]: true };

/** An event of an unnamed kind: valid, kept, and re-emitted byte for byte. */
export interface UnknownEvent extends Header<UnknownEventProtocol> {
  /** The parsed block, for display. */
  block: JsonObject;
  /** The block's exact text as it arrived; the encoders emit this, not `block`. */
  rawBlock: string;
}

export type Gen2Event =
  | ThinkingEvent
  | TextEvent
  | ToolCallEvent
  | ToolResultEvent
  | AgentCallEvent
  | StatusEvent
  | WarningEvent
  | PromptEvent
  | UnknownEvent;

export interface Result extends Header<P["result"]> {
  /** Always present; any `^[a-z][a-z0-9_]*$` value may arrive. */
  stop_reason: string;
  text?: string;
  usage?: Usage;
  trace_id?: string;
  content_exported?: boolean;
}

export interface ErrorMessage extends Header<P["error"]> {
  stop_reason?: string;
  /** Always present. */
  error: string;
  code?: string;
  usage?: Usage;
  trace_id?: string;
  content_exported?: boolean;
}

export interface Cancel extends Header<P["cancel"]> {
  reason?: string;
}

/** The one Go struct behind the four question ids; each kind's schema forbids the others' fields. */
export interface ElicitQuestionFields {
  question_id: string;
  tool_use_id?: string;
  question?: string;
  command?: string;
  display?: string;
  tag?: string;
  options?: string[];
  default?: string;
  /** Send `elicit.waiting` every wait_ms/3 while a person decides. */
  wait_ms?: number;
}

export interface ElicitRequestApprove extends Header<P["elicitRequestApprove"]>, ElicitQuestionFields {
  command: string;
  display: string;
}
export interface ElicitRequestConfirm extends Header<P["elicitRequestConfirm"]>, ElicitQuestionFields {
  question: string;
}
export interface ElicitRequestSelect extends Header<P["elicitRequestSelect"]>, ElicitQuestionFields {
  question: string;
  options: string[];
}
export interface ElicitRequestInput extends Header<P["elicitRequestInput"]>, ElicitQuestionFields {
  question: string;
}
export type ElicitRequest = ElicitRequestApprove | ElicitRequestConfirm | ElicitRequestSelect | ElicitRequestInput;

/** Each answer carries exactly its own field, sent even when it holds the zero value. */
export interface ElicitReplyApprove extends Header<P["elicitReplyApprove"]> {
  question_id: string;
  choice: ApproveChoice;
}
export interface ElicitReplyConfirm extends Header<P["elicitReplyConfirm"]> {
  question_id: string;
  confirmed: boolean;
}
export interface ElicitReplySelect extends Header<P["elicitReplySelect"]> {
  question_id: string;
  /** The position in the question's `options`. */
  index: number;
}
export interface ElicitReplyInput extends Header<P["elicitReplyInput"]> {
  question_id: string;
  value: string;
}
export interface ElicitReplyNoOperator extends Header<P["elicitReplyNoOperator"]> {
  question_id: string;
}
export interface ElicitWaiting extends Header<P["elicitWaiting"]> {
  question_id: string;
}
export type ElicitReply = ElicitReplyApprove | ElicitReplyConfirm | ElicitReplySelect | ElicitReplyInput | ElicitReplyNoOperator;

/** Gen 1 `…v1.request`: `prompt` is always sent; no token, answer, replay or force. */
export interface Gen1Request extends Omit<Header<P["gen1Request"]>, "traceparent"> {
  prompt: string;
  context?: string;
  tool_hints?: string[];
  budget?: Budget;
  stream?: boolean;
}

/** Gen 1 `…v1.event`: the block names its own kind in `type`. */
export interface Gen1Event extends Omit<Header<P["gen1Event"]>, "traceparent"> {
  block: Gen1Block;
}

export type FiskMessage =
  | DiscoveryRequest
  | DiscoveryReply
  | ToolRequest
  | ToolReply
  | Ack
  | RequestPrompt
  | RequestAnswer
  | RequestResume
  | RequestRead
  | Gen2Event
  | Result
  | ErrorMessage
  | Cancel
  | ElicitRequest
  | ElicitReply
  | ElicitWaiting
  | Gen1Request
  | Gen1Event;

export type FiskRequest = RequestPrompt | RequestAnswer | RequestResume | RequestRead;
