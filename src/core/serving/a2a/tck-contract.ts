/**
 * What the A2A TCK (0.3.x) documents it needs of the agent it tests, as general behaviours the
 * agent can be asked for. Its SUT requirements: a task for a message whose id starts with
 * `test-resubscribe-message-id` stays active at least 2 × TCK_STREAMING_TIMEOUT seconds (default
 * 2). Its tests also act on a task right after creating it with a v0.3 send that carries no
 * `configuration` (cancel it, continue it a few times), so such a send returns at once and every
 * task waits before its tool starts until it has had no message for 2.5 s.
 */
export const TCK_RESUBSCRIBE_PREFIX = "test-resubscribe-message-id";
/** The TCK's default TCK_STREAMING_TIMEOUT, in seconds. */
export const TCK_DEFAULT_STREAMING_TIMEOUT_S = 2;
/** How long a task waits for its messages to stop before its tool starts, under the TCK's behaviours. */
export const TCK_HOLD_MS = 2500;
/** Beyond the documented minimum, so a task outlives the TCK's own timeouts however they round. */
const MARGIN_MS = 500;

/** TCK_STREAMING_TIMEOUT as the TCK reads it (a number of seconds); the default when unset or not a positive number. */
export function streamingTimeoutS(raw: string | undefined): number {
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : TCK_DEFAULT_STREAMING_TIMEOUT_S;
}

/** How long a task waits before its tool starts, by its message's id. */
export function tckHold(timeoutS: number, baseMs = TCK_HOLD_MS): (messageId: string) => number {
  const long = Math.max(baseMs, Math.ceil(2 * timeoutS * 1000) + MARGIN_MS);
  return (messageId) => (messageId.startsWith(TCK_RESUBSCRIBE_PREFIX) ? long : baseMs);
}
