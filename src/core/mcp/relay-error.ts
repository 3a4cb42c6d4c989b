import type { RelayStep } from "./relay-api.ts";

/** Where a relayed connection failed: a relay API call, or a step the relay itself reported. */
export type RelayFailureStep = "relay-unreachable" | "create-session" | "open-stream" | "send" | "stream" | RelayStep;

/**
 * The JSON-RPC error code of an answer the client side makes up for a request the relay reported
 * as failed (server-defined range); such an answer carries `data.relayFailure`.
 */
export const RELAY_FAILURE_CODE = -32099;

export interface RelayFailureDetail {
  readonly step: RelayFailureStep;
  readonly status?: number;
  readonly body?: string;
}

/** The relay failure an error answer carries, when the relay made it up rather than the server. */
export function relayFailureOf(data: unknown): RelayFailureDetail | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const detail = (data as { relayFailure?: unknown }).relayFailure;
  if (typeof detail !== "object" || detail === null || typeof (detail as { step?: unknown }).step !== "string") return undefined;
  return detail as RelayFailureDetail;
}

/** A failure of the relay or of the connection behind it, with the raw answer when there was one. */
export class RelayError extends Error {
  override readonly name = "RelayError";
  readonly step: RelayFailureStep;
  readonly status: number | undefined;
  readonly body: string | undefined;

  constructor(step: RelayFailureStep, message: string, details: { readonly status?: number; readonly body?: string } = {}) {
    super(message);
    this.step = step;
    this.status = details.status;
    this.body = details.body;
  }
}

/**
 * What the server sent that is not JSON-RPC. Kept apart from the relay's other protocol errors (a
 * write to a process that already went away, say): at connect time it is the likeliest reason no
 * answer came, and they are not.
 */
export class NotJsonRpcError extends RelayError {
  constructor(message: string) {
    super("protocol", message);
  }
}

/** The first 4 KB of a response body, or undefined when it cannot be read. */
export async function bodyPreview(response: Response): Promise<string | undefined> {
  try {
    const text = await response.text();
    return text.length > 4096 ? text.slice(0, 4096) : text;
  } catch {
    return undefined;
  }
}

/** The code and message of the relay's `{"error":{"code","message"}}` body, when it is one. */
export function relayErrorOf(body: string | undefined): { readonly code?: string; readonly message: string } | undefined {
  if (body === undefined) return undefined;
  try {
    const e = (JSON.parse(body) as { error?: { code?: unknown; message?: unknown } }).error;
    if (e && typeof e.message === "string") return { message: e.message, ...(typeof e.code === "string" ? { code: e.code } : {}) };
  } catch {
    // not the relay's JSON error shape
  }
  return undefined;
}

/** The relay's `{"error":{"code","message"}}` message, else the raw text. */
export function relayErrorMessage(body: string | undefined): string {
  if (body === undefined) return "no body";
  const e = relayErrorOf(body);
  if (e) return e.code !== undefined ? `${e.code}: ${e.message}` : e.message;
  return body === "" ? "empty body" : body;
}
