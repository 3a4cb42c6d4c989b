import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  Implementation,
  LoggingLevel,
  LoggingMessageNotification,
  ProgressNotificationParams,
  Root,
  ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { Issue } from "../validation/types.ts";

/** The RFC 5424 severities `logging/setLevel` takes, least severe first. */
export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const satisfies readonly LoggingLevel[];

/** Client capabilities the console can declare; each needs the matching handler to be useful. */
export interface ClientCapabilityChoice {
  readonly elicitation?: boolean;
  readonly sampling?: boolean;
  /** Roots, announcing `listChanged` so `sendRootsListChanged` is allowed. */
  readonly roots?: boolean;
}

/** Answers to requests the server sends the client. A declared capability without a handler answers with a JSON-RPC error. */
export interface ClientHandlers {
  elicitation?(params: ElicitRequest["params"]): Promise<ElicitResult>;
  sampling?(params: CreateMessageRequest["params"]): Promise<CreateMessageResult>;
  roots?(): Promise<Root[]>;
}

export interface ConnectOptions {
  readonly clientInfo: Implementation;
  /** Sent in initialize; defaults to the newest version the SDK speaks. */
  readonly protocolVersion?: string;
  readonly capabilities?: ClientCapabilityChoice;
  readonly handlers?: ClientHandlers;
  /** How long initialize may take; defaults to 30 s. */
  readonly timeoutMs?: number;
}

export interface ConnectResult {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  readonly requestedVersion: string;
  readonly negotiatedVersion: string;
  /** The initialize result as received. */
  readonly raw: Record<string, unknown>;
}

/** Which step of connecting failed. */
export type ConnectStep =
  | "relay"
  | "spawn"
  | "dns"
  | "tcp"
  | "tls"
  | "cors"
  | "http"
  | "not-mcp"
  | "protocol"
  | "closed"
  | "timeout"
  | "version-refused"
  | "initialize";

export interface ConnectFailure {
  readonly step: ConnectStep;
  /** Plain words: what failed and why. */
  readonly message: string;
  readonly status?: number;
  /** The raw answer (response body, error data) when one is known. */
  readonly raw?: string;
}

/** A tool result as received (loose: the raw members are kept). */
export type ToolResult = Record<string, unknown>;

/**
 * How a tools/call ended, named precisely: the server refused the request (JSON-RPC error), the
 * tool ran and reported failure (isError), the tool succeeded; or the call never got an answer.
 */
export type CallOutcome =
  | { readonly kind: "json-rpc-error"; readonly code: number; readonly message: string; readonly data: unknown }
  /** The relay reported that the request could not be delivered or answered (step, HTTP status, raw body). */
  | { readonly kind: "relay-failure"; readonly step: string; readonly message: string; readonly status?: number; readonly body?: string }
  | { readonly kind: "tool-error"; readonly result: ToolResult }
  | { readonly kind: "success"; readonly result: ToolResult; readonly structuredContentIssues: readonly Issue[] }
  | { readonly kind: "invalid-result"; readonly result: unknown; readonly issues: readonly Issue[] }
  | { readonly kind: "timeout"; readonly timeoutMs: number }
  | { readonly kind: "cancelled"; readonly reason: string }
  | { readonly kind: "connection-closed"; readonly message: string };

export interface CallOptions {
  readonly timeoutMs?: number;
  readonly onProgress?: (progress: { readonly progress: number; readonly total?: number; readonly message?: string }) => void;
  readonly signal?: AbortSignal;
  /**
   * `_meta` for the request. With onProgress the SDK puts its own progressToken here, replacing any
   * given; to keep a token of your own, leave onProgress out and listen for `progress` events.
   */
  readonly meta?: Record<string, unknown>;
}

export type ListName = "tools" | "resources" | "resourceTemplates" | "prompts";

export type McpConnectionEvents = {
  log: LoggingMessageNotification["params"];
  "list-changed": { readonly list: "tools" | "resources" | "prompts" };
  "resource-updated": { readonly uri: string };
  /** Progress under a token the caller put in `_meta` itself (progress for SDK-made tokens goes to `onProgress`). */
  progress: ProgressNotificationParams;
  /** Any other notification the server sent. */
  notification: { readonly method: string; readonly params: unknown };
  error: Error;
  close: undefined;
};

export type { LoggingLevel, Root };
