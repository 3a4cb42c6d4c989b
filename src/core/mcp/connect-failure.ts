import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { ConnectFailure, ConnectStep } from "./connection-types.ts";
import { RelayError } from "./relay-error.ts";

/** Thrown by McpConnection.connect: the failure names the step. */
export class McpConnectError extends Error {
  override readonly name = "McpConnectError";
  readonly failure: ConnectFailure;
  constructor(failure: ConnectFailure) {
    super(`${failure.step}: ${failure.message}`);
    this.failure = failure;
  }
}

/** The server answered initialize with a protocol version this client cannot speak. */
export class VersionRefusedError extends Error {
  override readonly name = "VersionRefusedError";
  readonly raw: string;
  constructor(message: string, raw: string) {
    super(message);
    this.raw = raw;
  }
}

/** True for the SDK's own timeout (it carries the timeout it waited), not a server's -32001. */
export function isLocalTimeout(error: unknown): error is SdkError {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && typeof (error.data as { timeout?: unknown } | undefined)?.timeout === "number";
}

/** True for the SDK's rejection of requests pending when the transport closed. */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

const RELAY_STEPS: Readonly<Record<RelayError["step"], ConnectStep>> = {
  "relay-unreachable": "relay",
  "create-session": "relay",
  "open-stream": "relay",
  send: "relay",
  stream: "relay",
  spawn: "spawn",
  dns: "dns",
  tcp: "tcp",
  tls: "tls",
  cors: "cors",
  http: "http",
  "not-mcp": "not-mcp",
  protocol: "protocol",
};

function looksLikeVersionRefusal(error: ProtocolError): boolean {
  const data = error.data as { supported?: unknown } | undefined;
  return Array.isArray(data?.supported) || /protocol version/i.test(error.message);
}

/** What the connection knows about the lifecycle exchange that failed. */
export interface ConnectContext {
  /** The lifecycle request last sent: initialize, or the server/discover probe. */
  readonly step?: "initialize" | "server/discover";
  /** Why the relay closed the session early, when it said. */
  readonly closedReason?: string;
  /** What the server sent that is not JSON-RPC, if anything. */
  readonly notJsonRpc?: string;
  /** The lifecycle answer as received, for a malformed or refused one. */
  readonly raw?: string;
  /** What server/discover answered, in words, for an era that could not be reached. */
  readonly probe?: string;
}

/**
 * What a failed connect attempt tells, by step; `closedReason` is the relay's account of an early
 * close, and `notJsonRpc` what the server sent that is not JSON-RPC. A server that closed or went
 * quiet after sending such text is named for that text: it is the likelier cause.
 */
export function classifyConnectFailure(error: unknown, ctx: ConnectContext = {}): ConnectFailure {
  const failure = classifyOnly(error, ctx);
  if (ctx.notJsonRpc === undefined || (failure.step !== "closed" && failure.step !== "timeout")) {
    // Some stdio servers end on any request that comes before initialize.
    if (failure.step === "closed" && ctx.step === "server/discover") return { ...failure, message: `${failure.message}; a server that exits on a request before initialize needs the legacy era` };
    return failure;
  }
  return { step: "not-mcp", message: `${ctx.notJsonRpc}, so it is not an MCP server, or not started as one (${failure.message})` };
}

function classifyOnly(error: unknown, ctx: ConnectContext): ConnectFailure {
  const step = ctx.step ?? "initialize";
  const raw = ctx.raw !== undefined ? { raw: ctx.raw } : {};
  if (error instanceof McpConnectError) return error.failure;
  if (error instanceof RelayError) {
    return {
      step: RELAY_STEPS[error.step],
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.body !== undefined ? { raw: error.body } : {}),
    };
  }
  if (error instanceof VersionRefusedError) return { step: "version-refused", message: error.message, raw: error.raw };
  if (isLocalTimeout(error)) return { step: "timeout", message: `no answer to ${step} within ${(error.data as { timeout: number }).timeout} ms` };
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && step === "server/discover") {
    return { step: "timeout", message: `no answer to server/discover: ${error.message}` };
  }
  if (isConnectionClosed(error) || (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /connection closed during the server\/discover probe/.test(error.message))) {
    return { step: "closed", message: `the connection closed before ${step} was answered${ctx.closedReason ? `: ${ctx.closedReason}` : ""}` };
  }
  if (error instanceof SdkHttpError && (error.data?.status === 401 || error.data?.status === 403)) {
    return { step: "auth", message: `the server wants authorization (HTTP ${error.data.status}) before it answers ${step}`, status: error.data.status, ...(typeof error.data.text === "string" ? { raw: error.data.text } : {}) };
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) {
    return { step: "version-refused", message: `the server does not speak 2026-07-28: ${ctx.probe ?? error.message}`, ...raw };
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
    return { step: "initialize", message: `the ${step} result is malformed: ${error.message}`, ...raw };
  }
  if (error instanceof ProtocolError) {
    const body = JSON.stringify({ code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) });
    const refused = looksLikeVersionRefusal(error);
    return {
      step: refused ? "version-refused" : "initialize",
      message: `${refused ? "the server refused the protocol version" : `the server answered ${step} with an error`}: ${error.message} (code ${error.code})`,
      raw: body,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/protocol version is not supported/i.test(message)) return { step: "version-refused", message: `the server answered with a protocol version this client does not speak: ${message}`, ...raw };
  return { step: "initialize", message: `${step} failed: ${message}`, ...raw };
}
