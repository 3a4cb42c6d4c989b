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
} from "@modelcontextprotocol/client";
import type { Issue } from "../validation/types.ts";
import type { EraChoice, EraSetting, ProtocolEra } from "./era.ts";
import type { InputAnswers, InputRound } from "./mrtr.ts";
import type { TaskView } from "./tasks.ts";

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
  /** legacy (initialize, the default), modern (server/discover, 2026-07-28 only) or auto (probe, then fall back). */
  readonly era?: EraSetting;
  /** Asked for in initialize (legacy, and auto's fallback); defaults to the newest legacy version. */
  readonly protocolVersion?: string;
  readonly capabilities?: ClientCapabilityChoice;
  readonly handlers?: ClientHandlers;
  /** How long initialize may take; defaults to 30 s. */
  readonly timeoutMs?: number;
}

export interface ConnectResult {
  /** The server's name and version; a modern server may leave them out (then `serverInfoGiven` is false). */
  readonly serverInfo: Implementation;
  readonly serverInfoGiven: boolean;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  readonly requestedVersion: string;
  readonly negotiatedVersion: string;
  readonly era: ProtocolEra;
  /** The era setting, the era reached and why. */
  readonly eraChoice: EraChoice;
  /** The initialize result, or the server/discover result, as received. */
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
  | "initialize"
  | "auth";

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
  | { readonly kind: "success"; readonly result: ToolResult; readonly structuredContentIssues: readonly Issue[]; readonly eraIssue?: string }
  /** Not a CallToolResult of the negotiated version; `eraIssue` says when it is the other era's shape. */
  | { readonly kind: "invalid-result"; readonly result: unknown; readonly issues: readonly Issue[]; readonly eraIssue?: string }
  | { readonly kind: "timeout"; readonly timeoutMs: number }
  | { readonly kind: "cancelled"; readonly reason: string }
  | { readonly kind: "connection-closed"; readonly message: string }
  /** The server still wants input and the call stopped there (the user stopped, or too many rounds). */
  | { readonly kind: "input-required"; readonly result: Record<string, unknown>; readonly message: string }
  /** The server runs the call as a task; its result comes through the task. */
  | { readonly kind: "task"; readonly task: TaskView; readonly result: Record<string, unknown> };

export interface CallOptions {
  readonly timeoutMs?: number;
  /** Progress of the call, under a token of its own or the one given in `meta`. */
  readonly onProgress?: (progress: { readonly progress: number; readonly total?: number; readonly message?: string }) => void;
  readonly signal?: AbortSignal;
  /** `_meta` for the request; a progressToken given here is kept. */
  readonly meta?: Record<string, unknown>;
  /** Ask for the call to run as a task (legacy `task` param; the modern tasks extension for this request). */
  readonly asTask?: { readonly ttlMs?: number };
  /** Each request of the call as it goes out (the first, then each retry with input), by JSON-RPC id. */
  readonly onRequest?: (id: number, params: Record<string, unknown>) => void;
  /** An `input_required` answer: the round, for the page to show. */
  readonly onInputRound?: (round: InputRound) => void;
  /**
   * Answers a round's input requests; the default asks the connection's handlers (the page's
   * dialogs and stubs). Return null to stop the call there.
   */
  readonly answerInput?: (round: InputRound) => Promise<InputAnswers | null>;
  /** Most rounds of input before the call gives up; defaults to 10. */
  readonly maxInputRounds?: number;
}

export type ListName = "tools" | "resources" | "resourceTemplates" | "prompts";

export type McpConnectionEvents = {
  log: LoggingMessageNotification["params"];
  /** The server answered in the other era's shape; the words say how. */
  "era-mismatch": { readonly method: string; readonly message: string };
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
