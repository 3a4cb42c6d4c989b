import type { RelayFailureDetail } from "./relay-error.ts";

/** Limits of one request: how long to wait for the answer, and a way to give up early. */
export interface RequestOptions {
  /** How long to wait for the answer; defaults to 60 s. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** Why a request got no result: the server refused it, or no answer came. */
export type RequestFailureKind = "json-rpc-error" | "relay-failure" | "timeout" | "cancelled" | "connection-closed";

/** What else is known of a failure: the time waited, why it was cancelled, what the relay saw. */
export interface RequestFailureDetail {
  readonly timeoutMs?: number;
  readonly reason?: string;
  readonly relayFailure?: RelayFailureDetail;
  /** The relay's or transport's own words, without the method prefix. */
  readonly relayMessage?: string;
}

/** A request that did not produce a result, named precisely, with the server's code and data when it answered. */
export class McpRequestError extends Error {
  override readonly name = "McpRequestError";
  readonly method: string;
  readonly kind: RequestFailureKind;
  /** The JSON-RPC error as the server sent it (code, its own message, data), for a refusal. */
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined;
  readonly detail: RequestFailureDetail;
  constructor(method: string, kind: RequestFailureKind, message: string, error?: McpRequestError["error"], detail: RequestFailureDetail = {}) {
    super(message);
    this.method = method;
    this.kind = kind;
    this.error = error;
    this.detail = detail;
  }

  get code(): number | undefined {
    return this.error?.code;
  }
}

export const timedOut = (method: string, timeoutMs: number) => new McpRequestError(method, "timeout", `${method} got no answer within ${timeoutMs} ms`, undefined, { timeoutMs });

export const cancelled = (method: string, reason: string) => new McpRequestError(method, "cancelled", `${method} was cancelled: ${reason}`, undefined, { reason });

export const closedBefore = (method: string) => new McpRequestError(method, "connection-closed", `the connection closed before ${method} was answered`);

/** A JSON-RPC error answer: the server's refusal, or the relay's account of a request it could not get answered. */
export function refusal(method: string, error: { readonly code: number; readonly message: string; readonly data?: unknown }, relayFailure: RelayFailureDetail | undefined): McpRequestError {
  if (relayFailure) {
    return new McpRequestError(method, "relay-failure", `${method} never got an answer from the server: ${error.message}`, undefined, { relayFailure, relayMessage: error.message });
  }
  return new McpRequestError(method, "json-rpc-error", `${method} was refused by the server (JSON-RPC error ${error.code}): ${error.message}`, {
    code: error.code,
    message: error.message,
    ...(error.data !== undefined ? { data: error.data } : {}),
  });
}
