/**
 * How the peer writes fisk-ai messages the way Go's encoding/json does: fields in struct order
 * (header first), omitempty fields absent when zero, `< > &` escaped, RFC 3339 UTC time with
 * trimmed nanoseconds, 27-character KSUID ids. Plain ordered object literals, so this stays
 * independent of the project's codec it helps to test.
 */
import { NAMESPACE } from "../../../src/core/packs/fisk-ai/protocol.ts";

export const SUBJECT_PREFIX = "choria.fisk-ai";
export const FINAL_HEADER = "Fisk-AI-Stream-Final";
export const SERVICE_DESCRIPTION = "fisk-ai a2a tool server";
export const SERVICE_VERSION = "0.0.0";

/** A protocol id under the fisk-ai namespace, e.g. `id("tool.reply")`. */
export const id = (suffix: string): string => `${NAMESPACE}.${suffix}`;

export const subjects = {
  discovery: (identity: string) => `${SUBJECT_PREFIX}.discovery.${identity}`,
  tool: (identity: string) => `${SUBJECT_PREFIX}.tool.${identity}`,
  task: (identity: string) => `${SUBJECT_PREFIX}.task.${identity}`,
  cancel: (identity: string, request: string) => `${SUBJECT_PREFIX}.cancel.${identity}.${request}`,
  elicit: (identity: string, request: string) => `${SUBJECT_PREFIX}.elicit.${identity}.${request}`,
};

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KSUID_EPOCH = 1_400_000_000;

/** A KSUID: 4 bytes of seconds since 2014-05-13 and 16 random bytes, base62, 27 characters. */
export function ksuid(): string {
  const bytes = new Uint8Array(20);
  new DataView(bytes.buffer).setUint32(0, Math.floor(Date.now() / 1000) - KSUID_EPOCH);
  crypto.getRandomValues(bytes.subarray(4));
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(27, "0");
}

/** A micro service instance id: 22 base62 characters, like a NUID. */
export function serviceInstanceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(22));
  return Array.from(bytes, (b) => BASE62[b % 62]).join("");
}

// Wall-clock nanoseconds from one anchor plus the monotonic clock: finer than Date, never backwards.
const anchorNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

/** Go's `time.Time.UTC()` in RFC 3339 with nanoseconds, trailing zeros (and a bare dot) trimmed. */
export function goTime(): string {
  const ns = anchorNs + process.hrtime.bigint();
  const seconds = new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 19);
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return fraction ? `${seconds}.${fraction}Z` : `${seconds}Z`;
}

/**
 * JSON.stringify, then Go's differences: `<`, `>`, `&`, U+2028 and U+2029 as \u escapes, and
 * \b \f as \u0008 \u000c. These characters only occur inside strings, so a textual pass is safe;
 * the lookbehind skips an escaped backslash followed by a literal b or f.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/(?<!\\)((?:\\\\)*)\\([bf])/g, (_m, lead: string, c: string) => `${lead}\\u000${c === "b" ? "8" : "c"}`);
}

/** A Go map marshals with sorted keys, at every depth; arrays keep their order. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** Go's omitempty: nil, "", false, 0 and empty slices are left out. */
function isZero(value: unknown): boolean {
  return value === undefined || value === null || value === "" || value === false || value === 0 || (Array.isArray(value) && value.length === 0);
}

/** Appends `[key, value]` pairs in order, leaving out omitempty zeros. */
export function omitEmpty(target: Record<string, unknown>, pairs: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  for (const [key, value] of pairs) if (!isZero(value)) target[key] = value;
  return target;
}

export interface Identity {
  readonly name: string;
  readonly instance?: string;
}

const identityJson = (who: Identity): Record<string, unknown> => omitEmpty({ name: who.name }, [["instance", who.instance]]);

/** Who a reply answers: the request's correlation and its sender's name. */
export interface ReplyContext {
  readonly request: string;
  readonly conversation: string;
  /** The request's `sender.name`, which becomes the reply's `recipient`. */
  readonly caller: string | undefined;
  readonly me: Identity;
}

export function replyContextOf(request: Record<string, unknown>, me: Identity): ReplyContext {
  const sender = request.sender as { name?: unknown } | undefined;
  return {
    request: String(request.request ?? ""),
    conversation: String(request.conversation ?? ""),
    caller: typeof sender?.name === "string" ? sender.name : undefined,
    me,
  };
}

/** `StampReply`: a fresh id, the request's correlation echoed, `recipient` = the caller. */
export function replyHeader(protocol: string, ctx: ReplyContext, sequence: number): Record<string, unknown> {
  const header: Record<string, unknown> = {
    protocol,
    id: ksuid(),
    request: ctx.request,
    conversation: ctx.conversation,
    sequence,
    time: goTime(),
    sender: identityJson(ctx.me),
  };
  if (ctx.caller !== undefined) header.recipient = { name: ctx.caller };
  return header;
}

/** A whole message: the header, then the body's fields in the order given. */
export function message(protocol: string, ctx: ReplyContext, sequence: number, body: Record<string, unknown>): string {
  return goJson(Object.assign(replyHeader(protocol, ctx, sequence), body));
}
