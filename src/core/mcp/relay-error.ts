import type { RelayStep } from "./relay-api.ts";

/** Where a relayed connection failed: a relay API call, or a step the relay itself reported. */
export type RelayFailureStep = "relay-unreachable" | "create-session" | "open-stream" | "send" | "stream" | RelayStep;

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

/** The first 4 KB of a response body, or undefined when it cannot be read. */
export async function bodyPreview(response: Response): Promise<string | undefined> {
  try {
    const text = await response.text();
    return text.length > 4096 ? text.slice(0, 4096) : text;
  } catch {
    return undefined;
  }
}

/** The relay's `{"error":{"code","message"}}` message, else the raw text. */
export function relayErrorMessage(body: string | undefined): string {
  if (body === undefined) return "no body";
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    const e = parsed.error;
    if (e && typeof e.message === "string") return typeof e.code === "string" ? `${e.code}: ${e.message}` : e.message;
  } catch {
    // not the relay's JSON error shape; the raw text says more
  }
  return body === "" ? "empty body" : body;
}
