export { FISK_PROTOCOLS, isNamedEventKind, routeProtocol } from "./protocol-ids.ts";
export type { FiskProtocol, Generation, Route, RouteFailure } from "./protocol-ids.ts";
export { eventKindOf, MAX_BODY_BYTES, MAX_REQUEST_ID_BYTES } from "../../packs/fisk-ai/protocol.ts";

export type {
  AgentCard,
  Answer,
  ApproveChoice,
  Budget,
  ExecResult,
  Header,
  HeaderFields,
  Identity,
  JsonObject,
  JsonValue,
  QuestionKind,
  ToolBehavior,
  ToolDescriptor,
  Usage,
} from "./types-common.ts";
export type {
  AgentCallBlock,
  Gen1Block,
  Gen1BlockType,
  Gen2BlockByKind,
  PromptBlock,
  StatusBlock,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
  WarningBlock,
} from "./types-blocks.ts";
export type {
  Ack,
  AgentCallEvent,
  Cancel,
  DiscoveryReply,
  DiscoveryRequest,
  ElicitQuestionFields,
  ElicitReply,
  ElicitReplyApprove,
  ElicitReplyConfirm,
  ElicitReplyInput,
  ElicitReplyNoOperator,
  ElicitReplySelect,
  ElicitRequest,
  ElicitRequestApprove,
  ElicitRequestConfirm,
  ElicitRequestInput,
  ElicitRequestSelect,
  ElicitWaiting,
  ErrorMessage,
  FiskMessage,
  FiskRequest,
  Gen1Event,
  Gen1Request,
  Gen2Event,
  PromptEvent,
  RequestAnswer,
  RequestFields,
  RequestPrompt,
  RequestRead,
  RequestResume,
  Result,
  StatusEvent,
  TextEvent,
  ThinkingEvent,
  ToolCallEvent,
  ToolReply,
  ToolRequest,
  ToolResultEvent,
  UnknownEvent,
  UnknownEventProtocol,
  WarningEvent,
} from "./types-messages.ts";
export { isUnknownEvent } from "./guards.ts";

export { decodeFiskMessage, GO_MAX_NESTING } from "./decode.ts";
export type { DecodeError, DecodeErrorCode, DecodeResult } from "./decode.ts";
export { encodeFiskBytes, encodeFiskMessage } from "./encode.ts";
export type { EncodeOptions } from "./encode.ts";
export { FiskEncodeError, goCompact, goString } from "./json-text.ts";

export { formatGoTime, normalizeGoTime, parseGoTime } from "./go-time.ts";
export type { GoTime } from "./go-time.ts";
export {
  isValidConversationToken,
  isValidId,
  isValidIdentityName,
  isValidRequestId,
  KSUID_EPOCH_SECONDS,
  ksuidFromBytes,
  ksuidTimestamp,
  MAX_CONVERSATION_TOKEN_BYTES,
  mintKsuid,
} from "./ids.ts";
export type { RandomBytes } from "./ids.ts";

export { stampReply, stampRequest } from "./stamp.ts";
export type { IdContext, PresetHeader, StampContext, Unstamped } from "./stamp.ts";
export {
  answerRequest,
  cancelMessage,
  discoveryRequest,
  elicitReply,
  elicitWaiting,
  lateAnswer,
  promptRequest,
  readRequest,
  resumeRequest,
  toolRequest,
} from "./builders.ts";
export type { ElicitAnswerInput, RequestFieldsInput } from "./builders.ts";

export {
  cancelSubject,
  discoverySubject,
  elicitSubject,
  InvalidSubjectTokenError,
  SUBJECT_PREFIX,
  taskSubject,
  toolSubject,
} from "./subjects.ts";

export { compileFilterPattern, FilterPatternError } from "./import-filter.ts";
export type { ToolFilter } from "./import-filter.ts";
export { planImport } from "./import-plan.ts";
export type { HostPlan, ImportHost, ImportPlan, ImportSkip, ImportSkipReason, PlannedTool } from "./import-plan.ts";
