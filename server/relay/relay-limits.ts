/**
 * Time and size limits on a relay session's upstream HTTP calls: the defaults, the allowed
 * ranges, and the check of the `limits` object a create-session body may carry.
 */
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";

export interface RelayLimits {
  /** From sending a request to its response headers, connect and same-origin redirects included. */
  readonly headersTimeoutMs: number;
  /** The longest a response body may go without progress: a complete SSE line, or the end of a JSON body. */
  readonly idleTimeoutMs: number;
  /** The largest single message accepted from the server; a bigger one is refused, the session stays. */
  readonly maxMessageBytes: number;
}

/*
 * Node's fetch gives up on its own after 300 s without headers or without body bytes, so longer
 * limits would promise what the relay cannot keep. The defaults sit above the client's default
 * 60 s request timeout, so the client's own timeout and cancellation speak first.
 */
export const LIMIT_RANGES: Readonly<Record<keyof RelayLimits, readonly [min: number, max: number]>> = {
  headersTimeoutMs: [100, 300_000],
  idleTimeoutMs: [100, 300_000],
  maxMessageBytes: [1024, 64 * 1024 * 1024],
};

export const DEFAULT_LIMITS: RelayLimits = {
  headersTimeoutMs: 120_000,
  idleTimeoutMs: 120_000,
  maxMessageBytes: 16 * 1024 * 1024,
};

const invalid = (message: string) => new HttpError(400, "invalid_session", message);

/** The session's limits: the defaults, overridden by a checked `limits` object when given. */
export function parseLimits(value: unknown): RelayLimits {
  if (value === undefined) return DEFAULT_LIMITS;
  if (!isJsonObject(value)) throw invalid("limits must be an object such as {\"headersTimeoutMs\":30000}");
  const names = Object.keys(LIMIT_RANGES) as (keyof RelayLimits)[];
  const out: Record<keyof RelayLimits, number> = { ...DEFAULT_LIMITS };
  for (const [key, v] of Object.entries(value)) {
    if (!(names as string[]).includes(key)) throw invalid(`unexpected property limits.${key}; allowed: ${names.join(", ")}`);
    const [min, max] = LIMIT_RANGES[key as keyof RelayLimits];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      throw invalid(`limits.${key} must be a whole number from ${min} to ${max}`);
    }
    out[key as keyof RelayLimits] = v;
  }
  return out;
}
