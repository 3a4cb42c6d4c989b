export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, McpHttpSessions, rpcErrorResponse } from "./http-sessions.ts";
export type { HttpSessionsOptions, RequestBody } from "./http-sessions.ts";
export { RecordingTransport } from "./recording-transport.ts";
export type { FrameDirection, FrameEvent, FrameSink } from "./recording-transport.ts";
export { createMcpServer } from "./server-factory.ts";
export { APPROVAL_TIMEOUT_MS, createServingContext, DEFAULT_MCP_CONCURRENCY } from "./serving-context.ts";
export type { McpServingContext, McpServingOptions } from "./serving-context.ts";
export { listedTool, toolAnnotations } from "./tool-listing.ts";
export { FIXTURE_PROMPTS, FIXTURE_RESOURCES, FIXTURE_TEMPLATES, FIXTURE_TOOLS } from "./fixtures/index.ts";
