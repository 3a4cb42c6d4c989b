export { McpConnection, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "./connection.ts";
export type { McpTransport } from "./mcp-transport.ts";
export { ERA_SETTINGS, eraOfVersion, isEraSetting, LEGACY_VERSIONS, MODERN_VERSION, NEWEST_LEGACY_VERSION } from "./era.ts";
export type { EraChoice, EraSetting, ProtocolEra } from "./era.ts";
export type { InputAnswers, InputRequest, InputRound } from "./mrtr.ts";
export { withEnvelope } from "./envelope.ts";
export type { Envelope } from "./envelope.ts";
export { isTerminal, TASK_STATUSES } from "./tasks.ts";
export type { TaskStatus, TaskSupport, TaskView } from "./tasks.ts";
export { TaskError } from "./task-ops.ts";
export { classifyConnectFailure, McpConnectError, VersionRefusedError } from "./connect-failure.ts";
export type {
  CallOptions,
  CallOutcome,
  ClientCapabilityChoice,
  ClientHandlers,
  ConnectFailure,
  ConnectOptions,
  ConnectResult,
  ConnectStep,
  ListName,
  McpConnectionEvents,
  ToolResult,
} from "./connection-types.ts";
export { RelayTransport } from "./relay-transport.ts";
export type { RelayTransportOptions } from "./relay-transport.ts";
export { parseRelayEvent, sessionTarget } from "./relay-api.ts";
export type { CreateSessionBody, JsonRpcId, RelayConsoleEvent, RelayEvent, RelayLimitsBody, RelayStep } from "./relay-api.ts";
export { RELAY_FAILURE_CODE, RelayError, relayFailureOf } from "./relay-error.ts";
export type { RelayFailureDetail, RelayFailureStep } from "./relay-error.ts";
export { LineSplitter, MAX_LINE_CHARS } from "../framing/line-splitter.ts";
export { DirectTransport } from "./direct-transport.ts";
export type { DirectSession, DirectTransportOptions } from "./direct-transport.ts";
export { DirectRefusedError } from "./direct-refusal.ts";
export { MAX_CONFIG_CHARS, MAX_CONFIG_SERVERS, parseServerEntry, parseServersConfig, parseServersValue } from "./server-config.ts";
export type { ConfigNote, HttpServerEntry, ServerEntry, ServersConfig, ServerTransport, StdioServerEntry } from "./server-config.ts";
export { CONFIG_FLAVOURS, entryJson, formatServersConfig } from "./server-config-format.ts";
export type { ConfigFlavour } from "./server-config-format.ts";
