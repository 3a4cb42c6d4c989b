export { cardInterfaces, dialectOfVersion, extendedCardWay, readCardDialect } from "./card.ts";
export type { CardInterface, DialectReading, ExtendedCardWay } from "./card.ts";
export { cardUrls, fetchAgentCard } from "./card-fetch.ts";
export type { CardAttempt, CardFetchOptions, CardFetchResult, FetchedCard } from "./card-fetch.ts";
export {
  bindingsOf,
  CARD_PATHS,
  DIALECT_LABELS,
  DIALECTS,
  jsonRpcMethod,
  OPERATION_LABELS,
  operationOfMethod,
  OPERATIONS,
  operationsOf,
  restRoute,
  STREAMING_OPERATIONS,
  VERSION_HEADER,
} from "./dialect.ts";
export type { Binding, Dialect, Operation, RestRoute } from "./dialect.ts";
export { errorCodeName, nameJsonRpcError, nameRestError } from "./errors.ts";
export type { NamedError } from "./errors.ts";
export { messageText, readAnswer, readResult } from "./events.ts";
export type { A2aEvent, ArtifactChunk } from "./events.ts";
export { DEFAULT_EXCHANGE_LIMITS, exchange, redactHeaders } from "./exchange.ts";
export type { AnswerFrame, ExchangeFailure, ExchangeLimits, ExchangeOptions, ExchangePorts, ExchangeResult, FailureKind, FetchLike } from "./exchange.ts";
export { partText, partsText, wireMessage } from "./message-parts.ts";
export type { MessageDraft, PartDraft } from "./message-parts.ts";
export { buildRequest, operationParams, UnsupportedOperationError } from "./requests.ts";
export type { HeaderOptions, HttpRequestSpec, OperationInput, RequestTarget } from "./requests.ts";
export { TaskFold } from "./task-fold.ts";
export type { AssembledArtifact, StateStep, StreamEnd, TaskRecord } from "./task-fold.ts";
export { INTERRUPTED_STATES, isInterrupted, isTerminal, readState, TASK_STATES, TERMINAL_STATES } from "./task-state.ts";
export type { StateReading, TaskState } from "./task-state.ts";
export { cancelTaskGivenUp, chooseInterface, sendOneMessage } from "./one-shot.ts";
export type { OneShotInput, OneShotOutcome, OneShotResult } from "./one-shot.ts";
