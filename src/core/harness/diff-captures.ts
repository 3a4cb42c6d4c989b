/**
 * Two captures of wire frames compared exchange by exchange. Frames are grouped into exchanges
 * (a request and the frames that answered it: same channel and correlation id, or for A2A frames
 * without one, the next frames for the same URL); exchanges pair up by channel and method (the
 * JSON-RPC method, the REST route, the NATS subject) in order; each pair's bodies are compared at
 * JSON pointers. Ids and timestamps differ on every run and are skipped by default.
 */
import { jsonTypeName } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { utf8Text } from "../wire/decode.ts";
import { importWireJsonl, WireImportError } from "../wire/jsonl.ts";
import type { WireChannel, WireEntry } from "../wire/wire-entry.ts";
import { ChangeSink, DiffInputError, diffJsonInto, type DiffChange, DIFF_MAX_DEPTH, stableKey } from "./diff-json.ts";

/** Members skipped at any depth by default: per-run ids, correlation tags and times. */
export const VOLATILE_KEYS: readonly string[] = [
  "id", "messageId", "taskId", "contextId", "requestId", "sessionId", "progressToken",
  "request", "conversation", "parent", "traceparent", "conversation_token", "tool_use_id", "question_id",
  "time", "timestamp", "createdAt", "updatedAt", "lastUpdated",
];

export interface CaptureDiffOptions {
  /** Skip VOLATILE_KEYS and normalise ids in REST paths and inbox subjects; default true. */
  readonly ignoreIdsAndTimes?: boolean;
  /** More member names to skip. */
  readonly ignoreKeys?: readonly string[];
  readonly maxDepth?: number;
  readonly maxChanges?: number;
}

export interface ExchangeRef {
  readonly channel: WireChannel;
  /** What pairs exchanges: the JSON-RPC method, `GET /v1/tasks/{id}`, the NATS subject. */
  readonly method: string;
  readonly target: string;
  /** The request's seq; absent for answers whose request is not in the capture. */
  readonly requestSeq?: number;
  readonly responseSeqs: readonly number[];
}

export interface ExchangeDiff {
  readonly method: string;
  readonly channel: WireChannel;
  readonly before: ExchangeRef;
  readonly after: ExchangeRef;
  /** Pointers into the request body. */
  readonly request: readonly DiffChange[];
  /** Pointers into the answer: the one frame's body, or an array of the frames' bodies. */
  readonly response: readonly DiffChange[];
  /** Transport statuses of the answer frames (HTTP status, NATS 503), when they differ. */
  readonly status?: { readonly before: readonly (number | null)[]; readonly after: readonly (number | null)[] };
}

export interface CaptureDiff {
  /** Paired exchanges that differ. */
  readonly changed: readonly ExchangeDiff[];
  readonly same: number;
  readonly onlyBefore: readonly ExchangeRef[];
  readonly onlyAfter: readonly ExchangeRef[];
  /** Lines an export could not import, entries that are not wire entries. */
  readonly problems: readonly string[];
}

/** A request and the frames that answered it, in capture order. */
export interface Exchange {
  readonly ref: { channel: WireChannel; method: string; target: string; requestSeq?: number; responseSeqs: number[] };
  readonly request?: WireEntry;
  readonly responses: WireEntry[];
}

/** Wire entries, or a wire log export's entries; what cannot be read is named in `problems`. */
export function wireEntriesOf(value: unknown, side: string, problems: string[]): WireEntry[] {
  if (typeof value === "string") {
    try {
      const imported = importWireJsonl(value);
      for (const p of imported.problems) problems.push(`${side} line ${p.line}: ${p.reason}`);
      return imported.entries;
    } catch (err) {
      if (err instanceof WireImportError) throw new DiffInputError(`${side}: ${err.message}`);
      throw err;
    }
  }
  if (!Array.isArray(value)) throw new DiffInputError(`${side}: expected wire entries or a wire log export, got ${jsonTypeName(value)}`);
  return value.filter((e, i) => {
    const ok = isJsonObject(e) && typeof e.channel === "string" && (e.direction === "out" || e.direction === "in") && e.bytes instanceof Uint8Array && isJsonObject(e.decoded);
    if (!ok) problems.push(`${side}[${i}]: not a wire entry (channel, direction, bytes, decoded); left out`);
    return ok;
  }) as WireEntry[];
}

function restMethod(e: WireEntry, normalise: boolean): string {
  const verb = e.headers?.[":method"]?.[0] ?? "POST";
  let path: string;
  try {
    path = new URL(e.target).pathname;
  } catch {
    path = e.target;
  }
  if (normalise) path = path.replace(/\/tasks\/[^/:]+/g, "/tasks/{id}").replace(/\/pushNotificationConfigs\/[^/:]+/g, "/pushNotificationConfigs/{configId}");
  return `${verb} ${path}`;
}

/** Whether a frame asks (a request or notification) rather than answers. */
function asks(e: WireEntry): boolean {
  if (e.decoded.method !== undefined) return true;
  return e.direction === "out" && e.channel !== "mcp";
}

function methodOf(e: WireEntry, normalise: boolean): string {
  if (e.decoded.method !== undefined) return e.decoded.method;
  if (e.channel === "a2a-http") return restMethod(e, normalise);
  if (e.channel === "nats") return normalise && e.target.startsWith("_INBOX.") ? "_INBOX.*" : e.target;
  return e.decoded.requestMethod ?? "(answer)";
}

/** The capture's frames grouped into exchanges; `normalise` folds ids out of REST paths and inbox subjects. */
export function captureExchanges(entries: readonly WireEntry[], normalise: boolean): Exchange[] {
  const out: Exchange[] = [];
  const open = new Map<string, Exchange>();
  const openByUrl = new Map<string, Exchange>();
  for (const e of entries) {
    const corr = e.correlationId !== undefined ? `${e.channel}\u0000${e.correlationId}` : undefined;
    if (asks(e)) {
      const ex: Exchange = { ref: { channel: e.channel, method: methodOf(e, normalise), target: e.target, requestSeq: e.seq, responseSeqs: [] }, request: e, responses: [] };
      out.push(ex);
      if (corr !== undefined) open.set(corr, ex);
      else if (e.channel === "a2a-http") openByUrl.set(e.target, ex);
      continue;
    }
    const ex = corr !== undefined ? open.get(corr) : e.channel === "a2a-http" ? openByUrl.get(e.target) : undefined;
    if (ex) {
      ex.responses.push(e);
      ex.ref.responseSeqs.push(e.seq);
    } else {
      out.push({ ref: { channel: e.channel, method: methodOf(e, normalise), target: e.target, responseSeqs: [e.seq] }, responses: [e] });
    }
  }
  return out;
}

function body(e: WireEntry): unknown {
  if (e.decoded.json !== undefined) return e.decoded.json;
  if (e.bytes.byteLength === 0) return e.note !== undefined ? { note: e.note } : "";
  return utf8Text(e.bytes) ?? `(${e.bytes.byteLength} bytes, not UTF-8)`;
}

const answerBody = (ex: Exchange): unknown => (ex.responses.length === 1 ? body(ex.responses[0]!) : ex.responses.map(body));
const statuses = (ex: Exchange): (number | null)[] => ex.responses.map((r) => r.status ?? null);

function compare(b: Exchange, a: Exchange, options: CaptureDiffOptions, ignoreKeys: ReadonlySet<string>): ExchangeDiff | undefined {
  const rules = { ignoreKeys, maxDepth: options.maxDepth ?? DIFF_MAX_DEPTH };
  const request = new ChangeSink(options.maxChanges);
  if (b.request && a.request) diffJsonInto(request, body(b.request), body(a.request), [], rules);
  const response = new ChangeSink(options.maxChanges);
  diffJsonInto(response, answerBody(b), answerBody(a), [], rules);
  const sb = statuses(b);
  const sa = statuses(a);
  const statusDiffers = stableKey(sb) !== stableKey(sa);
  if (request.changes.length + response.changes.length === 0 && !statusDiffers) return undefined;
  return {
    method: a.ref.method,
    channel: a.ref.channel,
    before: b.ref,
    after: a.ref,
    request: request.changes,
    response: response.changes,
    ...(statusDiffers ? { status: { before: sb, after: sa } } : {}),
  };
}

/**
 * What differs between two captures (wire entries, or wire log exports as text). Throws
 * DiffInputError for a side that is neither; entries that are not wire entries are left out and
 * named in `problems`.
 */
export function diffCaptures(before: unknown, after: unknown, options: CaptureDiffOptions = {}): CaptureDiff {
  const problems: string[] = [];
  const normalise = options.ignoreIdsAndTimes ?? true;
  const ignoreKeys = new Set([...(normalise ? VOLATILE_KEYS : []), ...(options.ignoreKeys ?? [])]);
  const b = captureExchanges(wireEntriesOf(before, "before", problems), normalise);
  const a = captureExchanges(wireEntriesOf(after, "after", problems), normalise);
  const queues = new Map<string, Exchange[]>();
  const key = (ex: Exchange): string => `${ex.ref.channel} ${ex.ref.method}`;
  for (const ex of a) {
    const q = queues.get(key(ex)) ?? [];
    q.push(ex);
    queues.set(key(ex), q);
  }
  const changed: ExchangeDiff[] = [];
  const onlyBefore: ExchangeRef[] = [];
  let same = 0;
  const paired = new Set<Exchange>();
  for (const ex of b) {
    const other = queues.get(key(ex))?.shift();
    if (!other) {
      onlyBefore.push(ex.ref);
      continue;
    }
    paired.add(other);
    const d = compare(ex, other, options, ignoreKeys);
    if (d) changed.push(d);
    else same++;
  }
  const onlyAfter = a.filter((ex) => !paired.has(ex)).map((ex) => ex.ref);
  return { changed, same, onlyBefore, onlyAfter, problems };
}
