export { agentCard, fiskBehavior, fiskDescription, toolDescriptor } from "./fisk-card.ts";
export type { FiskGeneration } from "./fisk-card.ts";
export { discoveryShape, engineValidator, intake, toolShape } from "./fisk-intake.ts";
export type { FiskValidator, Intake } from "./fisk-intake.ts";
export { atCapacity, commandWithoutPath, notAvailable, refusalFields, replyFields } from "./fisk-reply.ts";
export type { ToolReplyFields } from "./fisk-reply.ts";
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_KEEPALIVE_MS,
  DEFAULT_QUESTION_WINDOW_MS,
  defaultConcurrency,
  FiskServeError,
  generatedInstance,
  MAX_CONCURRENCY,
  startFiskServer,
} from "./fisk-server.ts";
export { SCRIPTED_MODEL } from "./fisk-card.ts";
export { DEFAULT_CONVERSATION_LIMIT, MAX_REPLAY } from "./conversations.ts";
export { shareSubject } from "./conversation-share.ts";
export type { EndpointCounters, FiskServeOptions, FiskServer, FiskServerStatus } from "./fisk-server.ts";
export { SERVICE_DESCRIPTION, SERVICE_VERSION } from "./micro-service.ts";
export { FINAL_HEADER, SERVICE_ERROR, SERVICE_ERROR_CODE } from "./reply-stream.ts";
export type { ToolExecutor } from "./tool-endpoint.ts";
