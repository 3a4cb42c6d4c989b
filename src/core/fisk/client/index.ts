export { FiskClient } from "./fisk-client.ts";
export { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SENDER, freshInbox } from "./deps.ts";
export type { FiskClientDeps } from "./deps.ts";
export { agentInfo, DEFAULT_LISTING_STALL_MS, DEFAULT_LISTING_TIMEOUT_MS, FISK_SERVICE_DESCRIPTION, listAgents, MICRO_INFO_SUBJECT } from "./agent-listing.ts";
export type { AgentInfo, AgentListing, AgentSummary, ListingOptions } from "./agent-listing.ts";
export { INSTANCE_SILENCE_MS, instancePingProbe, LIVENESS_AFTER_MS, microPingProbe, pingSubject } from "./liveness.ts";
export { instanceLoad, listInstances } from "./instances.ts";
export type { EndpointLoad, InstanceListing, InstanceLoad } from "./instances.ts";
export { statusFanout } from "./status-fanout.ts";
export type { LivenessOption } from "./liveness.ts";
export { cardGeneration, discover } from "./discovery.ts";
export type { CardGeneration, DiscoveryOutcome, DiscoveryResult } from "./discovery.ts";
export { callTool } from "./tool-call.ts";
export type { CallOptions, ToolCallResult } from "./tool-call.ts";
export { toolOutcome } from "./tool-outcome.ts";
export type { ToolOutcome } from "./tool-outcome.ts";
export { viewToolOutcome } from "./tool-outcome-view.ts";
export type { OutcomeEvidence, OutcomeTone, OutcomeView } from "./tool-outcome-view.ts";
export { sendRaw } from "./raw-exchange.ts";
export type { RawExchange, RawInput } from "./raw-exchange.ts";
export { startTask } from "./task.ts";
export type {
  AnswerOutcome,
  CancelOutcome,
  ResultMessage,
  TaskEvent,
  TaskHandle,
  TaskOptions,
  TaskRequestInput,
  TaskResult,
  UnsentAnswer,
} from "./task-types.ts";
export { correlationOf, DEFAULT_TAP_SUBJECTS, startTap } from "./tap.ts";
export type { Tap, TapFrame } from "./tap.ts";
export { REDACTED, redactConversationTokens, redactFrameTokens, redactToken } from "./redact.ts";
export { DEFAULT_IDLE_MS, FINAL_HEADER, headerValue, MIN_IDLE_MS, readReplySet, SERVICE_ERROR, SERVICE_ERROR_CODE } from "./reply-set.ts";
export type { EntryDisposition, LivenessAnswer, LivenessEvidence, ReplySetDeps, ReplySetEnd, ReplySetEntry, ReplySetRequest, ReplySetResult } from "./reply-set.ts";
