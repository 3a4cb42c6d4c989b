/**
 * A2A errors named by dialect: the JSON-RPC code table (the same code means different things in
 * v0.1 and v0.3), v1.0's google.rpc.ErrorInfo in `error.data`, and AIP-193 bodies on REST.
 */
import { isJsonObject } from "../json/index.ts";
import type { Dialect } from "./dialect.ts";

export interface NamedError {
  /** JSON-RPC code, or the HTTP status of a REST error. */
  readonly code: number;
  /** What the code means in the dialect ("TaskNotFoundError"). */
  readonly name: string;
  readonly message: string;
  /** v1.0 ErrorInfo reason ("TASK_NOT_FOUND"), or a REST body's status ("NOT_FOUND"). */
  readonly reason?: string;
  readonly data?: unknown;
}

const STANDARD: Readonly<Record<number, string>> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
};

const V01: Readonly<Record<number, string>> = {
  [-32001]: "TaskNotFound",
  [-32002]: "TaskNotCancelable",
  [-32003]: "PushNotificationNotSupported",
  [-32004]: "UnsupportedOperation",
  [-32005]: "ContentTypeNotSupported",
  [-32006]: "StreamingNotSupported",
  [-32007]: "AuthenticationRequired",
  [-32008]: "AuthorizationFailed",
  [-32009]: "InvalidTaskState",
  [-32010]: "RateLimitExceeded",
  [-32011]: "ResourceUnavailable",
};

const V0X: Readonly<Record<number, string>> = {
  [-32001]: "TaskNotFoundError",
  [-32002]: "TaskNotCancelableError",
  [-32003]: "PushNotificationNotSupportedError",
  [-32004]: "UnsupportedOperationError",
  [-32005]: "ContentTypeNotSupportedError",
  [-32006]: "InvalidAgentResponseError",
  [-32007]: "AuthenticatedExtendedCardNotConfiguredError",
};

const V10: Readonly<Record<number, string>> = {
  ...V0X,
  [-32007]: "ExtendedAgentCardNotConfiguredError",
  [-32008]: "ExtensionSupportRequiredError",
  [-32009]: "VersionNotSupportedError",
};

/** The name of a JSON-RPC error code in `dialect`. */
export function errorCodeName(code: number, dialect: Dialect | undefined): string {
  const table = dialect === "0.1" ? V01 : dialect === "1.0" ? V10 : V0X;
  return STANDARD[code] ?? table[code] ?? (code >= -32099 && code <= -32000 ? "server error (not defined by A2A)" : "error code not defined by JSON-RPC or A2A");
}

/** The reason of the first google.rpc.ErrorInfo in `details`, if any. */
function errorInfoReason(details: unknown): string | undefined {
  const list = Array.isArray(details) ? details : [details];
  for (const d of list) if (isJsonObject(d) && typeof d.reason === "string" && String(d["@type"] ?? "").endsWith("google.rpc.ErrorInfo")) return d.reason;
  return undefined;
}

/** A JSON-RPC `error` member, named. */
export function nameJsonRpcError(error: unknown, dialect: Dialect | undefined): NamedError {
  if (!isJsonObject(error)) return { code: 0, name: "malformed error", message: "the error member is not an object" };
  const code = typeof error.code === "number" ? error.code : 0;
  const message = typeof error.message === "string" ? error.message : "";
  const reason = errorInfoReason(error.data);
  return { code, name: errorCodeName(code, dialect), message, ...(reason ? { reason } : {}), ...(error.data !== undefined ? { data: error.data } : {}) };
}

/** A REST error body (AIP-193 `{error:{code,status,message,details}}`, problem+json, or anything) with its HTTP status. */
export function nameRestError(status: number, body: unknown, text: string): NamedError {
  if (isJsonObject(body) && isJsonObject(body.error)) {
    const e = body.error;
    const reason = errorInfoReason(e.details) ?? (typeof e.status === "string" ? e.status : undefined);
    return { code: status, name: typeof e.status === "string" ? e.status : `HTTP ${status}`, message: typeof e.message === "string" ? e.message : "", ...(reason ? { reason } : {}), data: body };
  }
  if (isJsonObject(body) && (typeof body.title === "string" || typeof body.type === "string")) {
    return { code: status, name: String(body.title ?? body.type), message: typeof body.detail === "string" ? body.detail : "", data: body };
  }
  return { code: status, name: `HTTP ${status}`, message: text.slice(0, 300) };
}
