import { isJsonObject } from "../json/json-object.ts";
import type { WireChannel, WireDirection, WireEntry } from "./wire-entry.ts";

/** "ok" is everything that is not an error; a number matches that exact status. */
export type WireStatusFilter = "any" | "ok" | "error" | number;

/** What to show of the wire log. Absent or empty fields do not constrain. */
export interface WireFilterSpec {
  /** Only these channels; an empty set matches nothing. */
  readonly channels?: ReadonlySet<WireChannel>;
  /** Case-insensitive substring of target, correlation id, note, headers or payload text. */
  readonly text?: string;
  /** Case-insensitive prefix of the decoded method or protocol id, or of the request's a reply answers. */
  readonly method?: string;
  /** Case-insensitive prefix of the decoded protocol id only. */
  readonly protocolId?: string;
  readonly status?: WireStatusFilter;
  readonly direction?: WireDirection;
}

/** Only this much of each payload is searched, so one huge frame cannot stall a filter pass. */
export const SEARCH_PAYLOAD_LIMIT = 64 * 1024;

// Notes the transports attach to failed exchanges ("no responders", "timeout after 5000 ms").
const FAILURE_NOTE = /timeout|timed out|no responders|error|fail|refused|unreachable|abort|closed/i;

// Entries are immutable, so what is derived from one (its error verdict, its lower-cased search
// text) is worked out once and kept only as long as the entry itself is alive.
const errorVerdicts = new WeakMap<WireEntry, boolean>();
const haystacks = new WeakMap<WireEntry, string>();

function failed(e: WireEntry): boolean {
  if (e.status !== undefined && e.status >= 400) return true;
  if (e.note !== undefined && FAILURE_NOTE.test(e.note)) return true;
  const json = e.decoded.json;
  return isJsonObject(json) && json.error != null;
}

/**
 * Whether an entry records a failure: status >= 400, a transport note saying the exchange
 * failed, or a JSON-RPC style reply carrying an `error` member.
 */
export function isErrorEntry(e: WireEntry): boolean {
  let verdict = errorVerdicts.get(e);
  if (verdict === undefined) {
    verdict = failed(e);
    errorVerdicts.set(e, verdict);
  }
  return verdict;
}

// Lossy decoding is fine here: this text is only searched, never shown or exported.
const lenientUtf8 = new TextDecoder("utf-8");
const SEP = "\u0000";

function haystack(e: WireEntry): string {
  let text = haystacks.get(e);
  if (text !== undefined) return text;
  const parts: string[] = [e.target];
  if (e.correlationId !== undefined) parts.push(e.correlationId);
  if (e.note !== undefined) parts.push(e.note);
  if (e.decoded.method !== undefined) parts.push(e.decoded.method);
  if (e.decoded.protocolId !== undefined) parts.push(e.decoded.protocolId);
  if (e.decoded.requestMethod !== undefined) parts.push(e.decoded.requestMethod);
  if (e.decoded.sender?.instance !== undefined) parts.push(e.decoded.sender.instance);
  if (e.headers) {
    for (const [name, values] of Object.entries(e.headers)) parts.push(name, ...values);
  }
  parts.push(lenientUtf8.decode(e.bytes.subarray(0, SEARCH_PAYLOAD_LIMIT)));
  text = parts.join(SEP).toLowerCase();
  haystacks.set(e, text);
  return text;
}

function startsWithFolded(value: string | undefined, prefix: string): boolean {
  return value !== undefined && value.toLowerCase().startsWith(prefix);
}

/** Compile a spec into one predicate; each check is skipped when its field is unset. */
export function compileWireFilter(spec: WireFilterSpec): (e: WireEntry) => boolean {
  const checks: ((e: WireEntry) => boolean)[] = [];
  const { channels, direction, status } = spec;
  if (channels) checks.push((e) => channels.has(e.channel));
  if (direction) checks.push((e) => e.direction === direction);
  if (typeof status === "number") checks.push((e) => e.status === status);
  else if (status === "error") checks.push(isErrorEntry);
  else if (status === "ok") checks.push((e) => !isErrorEntry(e));
  const method = spec.method?.trim().toLowerCase();
  if (method) {
    checks.push(
      (e) =>
        startsWithFolded(e.decoded.method, method) ||
        startsWithFolded(e.decoded.protocolId, method) ||
        startsWithFolded(e.decoded.requestMethod, method),
    );
  }
  const protocolId = spec.protocolId?.trim().toLowerCase();
  if (protocolId) checks.push((e) => startsWithFolded(e.decoded.protocolId, protocolId));
  const needle = spec.text?.trim().toLowerCase();
  if (needle) checks.push((e) => haystack(e).includes(needle));
  return (e) => {
    for (const check of checks) if (!check(e)) return false;
    return true;
  };
}

/** The entries matching the spec, in order, in a single pass. */
export function filterWireEntries(entries: readonly WireEntry[], spec: WireFilterSpec): WireEntry[] {
  const keep = compileWireFilter(spec);
  const out: WireEntry[] = [];
  for (const e of entries) if (keep(e)) out.push(e);
  return out;
}
