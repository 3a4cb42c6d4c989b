import type { Clock } from "../../env/index.ts";
import { MAX_REQUEST_ID_BYTES, NAME_RE } from "../../packs/fisk-ai/protocol.ts";

/**
 * Ids as fisk-ai mints and checks them. A KSUID is 20 bytes, a 4-byte big-endian count of
 * seconds since 2014-05-13T16:53:20Z followed by 16 random bytes, written as 27 base62 digits.
 */

/** Fills the array with random bytes and returns it: `crypto.getRandomValues`, injected. */
export type RandomBytes = (bytes: Uint8Array) => Uint8Array;

/** Seconds since the Unix epoch at KSUID time zero. */
export const KSUID_EPOCH_SECONDS = 1_400_000_000;
export const KSUID_LENGTH = 27;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The 27-character base62 form of 20 KSUID bytes. */
export function ksuidFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new RangeError(`a KSUID is 20 bytes, not ${bytes.length}`);
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)]! + out;
    n /= 62n;
  }
  return out.padStart(KSUID_LENGTH, "0");
}

/** A fresh KSUID from the injected wall clock and randomness. */
export function mintKsuid(clock: Pick<Clock, "wallNow">, random: RandomBytes): string {
  const bytes = new Uint8Array(20);
  // Go's ksuid stores the difference as a uint32, so it wraps rather than failing.
  const stamp = (Math.floor(clock.wallNow() / 1000) - KSUID_EPOCH_SECONDS) >>> 0;
  bytes[0] = stamp >>> 24;
  bytes[1] = (stamp >>> 16) & 0xff;
  bytes[2] = (stamp >>> 8) & 0xff;
  bytes[3] = stamp & 0xff;
  const tail = random(new Uint8Array(16));
  if (tail.length !== 16) throw new RangeError("the random source must fill 16 bytes");
  bytes.set(tail, 4);
  return ksuidFromBytes(bytes);
}

/** The Unix time (seconds) a KSUID was minted at, or null when the text is not a KSUID. */
export function ksuidTimestamp(ksuid: string): number | null {
  if (ksuid.length !== KSUID_LENGTH) return null;
  let n = 0n;
  for (const ch of ksuid) {
    const digit = BASE62.indexOf(ch);
    if (digit < 0) return null;
    n = n * 62n + BigInt(digit);
  }
  if (n >> 160n !== 0n) return null;
  return Number(n >> 128n) + KSUID_EPOCH_SECONDS;
}

/** `id`, `conversation`, `question_id`, identity names: `^[a-zA-Z0-9_-]+$`, no length limit. */
export function isValidId(s: string): boolean {
  return NAME_RE.test(s);
}

/** Identity names key NATS subjects, so they follow the same rule. */
export const isValidIdentityName = isValidId;

/** A request tag: the id rule, at most 64 bytes (the tag becomes part of cancel and elicit subjects). */
export function isValidRequestId(s: string): boolean {
  return s.length <= MAX_REQUEST_ID_BYTES && NAME_RE.test(s);
}

export const MAX_CONVERSATION_TOKEN_BYTES = 128;

export function isValidConversationToken(s: string): boolean {
  return s.length <= MAX_CONVERSATION_TOKEN_BYTES && NAME_RE.test(s);
}
