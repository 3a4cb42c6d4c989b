import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
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

/** The SDK prefixes "MCP error <code>: "; the server's own words are what follows. */
export function serverMessage(error: McpError): string {
  const prefix = `MCP error ${error.code}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/** True for the SDK's own timeout (it carries the timeout it waited), not a server's -32001. */
export function isLocalTimeout(error: unknown): error is McpError {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout && typeof (error.data as { timeout?: unknown } | undefined)?.timeout === "number";
}

/** True for the SDK's rejection of requests pending when the transport closed. */
export function isConnectionClosed(error: unknown): error is McpError {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed && serverMessage(error) === "Connection closed" && error.data === undefined;
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

function looksLikeVersionRefusal(error: McpError): boolean {
  const data = error.data as { supported?: unknown } | undefined;
  return Array.isArray(data?.supported) || /protocol version/i.test(error.message);
}

/**
 * What a failed connect attempt tells, by step; `closedReason` is the relay's account of an early
 * close, and `notJsonRpc` what the server sent that is not JSON-RPC. A server that closed or went
 * quiet after sending such text is named for that text: it is the likelier cause.
 */
export function classifyConnectFailure(error: unknown, closedReason?: string, notJsonRpc?: string): ConnectFailure {
  const failure = classifyOnly(error, closedReason);
  if (notJsonRpc === undefined || (failure.step !== "closed" && failure.step !== "timeout")) return failure;
  return { step: "not-mcp", message: `${notJsonRpc}, so it is not an MCP server, or not started as one (${failure.message})` };
}

function classifyOnly(error: unknown, closedReason?: string): ConnectFailure {
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
  if (isLocalTimeout(error)) {
    return { step: "timeout", message: `no answer to initialize within ${(error.data as { timeout: number }).timeout} ms` };
  }
  if (isConnectionClosed(error)) {
    return { step: "closed", message: `the connection closed before initialize was answered${closedReason ? `: ${closedReason}` : ""}` };
  }
  if (error instanceof McpError) {
    const raw = JSON.stringify({ code: error.code, message: serverMessage(error), ...(error.data !== undefined ? { data: error.data } : {}) });
    const refused = looksLikeVersionRefusal(error);
    return {
      step: refused ? "version-refused" : "initialize",
      message: `${refused ? "the server refused the protocol version" : "the server answered initialize with an error"}: ${serverMessage(error)} (code ${error.code})`,
      raw,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { step: "initialize", message: `initialize failed: ${message}` };
}
