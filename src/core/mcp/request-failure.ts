import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { isConnectionClosed, isLocalTimeout, serverMessage } from "./connect-failure.ts";
import { relayFailureOf } from "./relay-error.ts";

/** Limits of one request: how long to wait for the answer, and a way to give up early. */
export interface RequestOptions {
  /** How long to wait for the answer; defaults to 60 s. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** Why a request got no result: the server refused it, or no answer came. */
export type RequestFailureKind = "json-rpc-error" | "relay-failure" | "timeout" | "cancelled" | "connection-closed";

/** A request that did not produce a result, named precisely, with the server's code and data when it answered. */
export class McpRequestError extends Error {
  override readonly name = "McpRequestError";
  readonly method: string;
  readonly kind: RequestFailureKind;
  /** The JSON-RPC error as the server sent it (code, its own message, data), for a refusal. */
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined;
  constructor(method: string, kind: RequestFailureKind, message: string, error?: McpRequestError["error"]) {
    super(message);
    this.method = method;
    this.kind = kind;
    this.error = error;
  }

  get code(): number | undefined {
    return this.error?.code;
  }
}

/** The failure of `method` as an McpRequestError; anything that is not about the request is returned unchanged. */
export function requestFailure(method: string, error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return new McpRequestError(method, "cancelled", `${method} was cancelled: ${String(signal.reason ?? "aborted")}`);
  if (isLocalTimeout(error)) {
    const timeout = (error.data as { timeout: number }).timeout;
    return new McpRequestError(method, "timeout", `${method} got no answer within ${timeout} ms`);
  }
  if (isConnectionClosed(error)) return new McpRequestError(method, "connection-closed", `the connection closed before ${method} was answered`);
  const relayFailure = error instanceof McpError ? relayFailureOf(error.data) : undefined;
  if (relayFailure) return new McpRequestError(method, "relay-failure", `${method} never got an answer from the server: ${serverMessage(error as McpError)}`);
  if (error instanceof McpError) {
    const message = serverMessage(error);
    return new McpRequestError(method, "json-rpc-error", `${method} was refused by the server (JSON-RPC error ${error.code}): ${message}`, {
      code: error.code,
      message,
      ...(error.data !== undefined ? { data: error.data } : {}),
    });
  }
  return error;
}
