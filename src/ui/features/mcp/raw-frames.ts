import { isJsonObject } from "../../../core/json/index.ts";
import type { WireEntry } from "../../../core/wire/index.ts";
import { formatCount, formatRtt } from "../../lib/format.ts";
import type { FrameVerdict } from "./raw-frame-check.ts";
import type { RawAnswer } from "./raw-state.svelte.ts";

const decoder = new TextDecoder("utf-8", { fatal: false });
const MAX_SHOWN = 64 * 1024;
const PREVIEW_CHARS = 300;

/** A frame's bytes as text for display, cut at 64 KB (Traffic keeps the whole frame). */
export function byteString(bytes: Uint8Array): string {
  if (bytes.byteLength <= MAX_SHOWN) return decoder.decode(bytes);
  return `${decoder.decode(bytes.subarray(0, MAX_SHOWN))}… (${bytes.byteLength} bytes; the whole frame is in Traffic)`;
}

/** The start of a frame's text, on one line, for the list. */
export function framePreview(bytes: Uint8Array): string {
  const text = decoder.decode(bytes.subarray(0, PREVIEW_CHARS * 4)).replace(/\s+/g, " ");
  return text.length > PREVIEW_CHARS || bytes.byteLength > PREVIEW_CHARS * 4 ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** What a frame is, in a few words: its method, or which id it answers. */
export function frameTitle(entry: WireEntry): string {
  const json = entry.decoded.json;
  if (entry.decoded.method !== undefined) return entry.decoded.method;
  if (Array.isArray(json)) return `batch of ${json.length}`;
  if (!isJsonObject(json)) return entry.decoded.jsonError !== undefined ? "not JSON" : "not an object";
  const id = "id" in json ? ` to id ${JSON.stringify(json.id)}` : "";
  if ("error" in json) return `error${id}`;
  return "result" in json ? `result${id}` : "no method, result or error";
}

/** A response's latency: the time since the request with the same id crossed the other way. */
export function latencyText(entry: WireEntry): string {
  return entry.rttMs === undefined ? "" : `after ${formatRtt(entry.rttMs)}`;
}

const WORDS: Readonly<Record<FrameVerdict["status"], string>> = {
  checking: "checking…",
  "not-checked": "not validated",
  valid: "valid",
  invalid: "invalid",
  "error-response": "error response",
  unrecognised: "not recognised",
  unparseable: "not JSON",
};

export function verdictWord(verdict: FrameVerdict | undefined): string {
  return verdict ? WORDS[verdict.status] : "not checked";
}

/** Verdicts seen so far on this connection. */
export interface FrameCounts {
  readonly valid: number;
  /** Invalid, unparseable and unrecognised. */
  readonly invalid: number;
  readonly errorResponses: number;
  readonly notValidated: number;
}

export const NO_COUNTS: FrameCounts = { valid: 0, invalid: 0, errorResponses: 0, notValidated: 0 };

export function tally(counts: FrameCounts, verdicts: Iterable<readonly [number, FrameVerdict]>): FrameCounts {
  let { valid, invalid, errorResponses, notValidated } = counts;
  for (const [, v] of verdicts) {
    if (v.status === "valid") valid++;
    else if (v.status === "error-response") errorResponses++;
    else if (v.status === "not-checked") notValidated++;
    else if (v.status !== "checking") invalid++;
  }
  return { valid, invalid, errorResponses, notValidated };
}

export const NO_VERDICTS: ReadonlyMap<number, FrameVerdict> = new Map();

/** The verdicts shown: new ones over old, none for frames before `oldest` (no longer listed). */
export function mergeVerdicts(current: ReadonlyMap<number, FrameVerdict>, incoming: Iterable<readonly [number, FrameVerdict]>, oldest: number): ReadonlyMap<number, FrameVerdict> {
  const next = new Map<number, FrameVerdict>();
  for (const [seq, verdict] of current) if (seq >= oldest) next.set(seq, verdict);
  for (const [seq, verdict] of incoming) if (seq >= oldest) next.set(seq, verdict);
  return next;
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** One line on how the connection's frames fared against the negotiated version. */
export function countsText(counts: FrameCounts, version: string | null, checking: number): string {
  if (version === null) return "Frames are not checked: no protocol version was negotiated.";
  const checked = counts.valid + counts.invalid + counts.errorResponses;
  const parts = [`${plural(checked, "frame")} checked against MCP ${version}: ${formatCount(counts.valid)} valid, ${formatCount(counts.invalid)} invalid, ${plural(counts.errorResponses, "error response")}`];
  if (checking > 0) parts.push(`${formatCount(checking)} being checked`);
  if (counts.notValidated > 0) parts.push(`${plural(counts.notValidated, "frame")} not validated`);
  return `${parts.join("; ")}.`;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** What became of the last raw message, in a sentence. */
export function answerText(answer: RawAnswer): string {
  switch (answer.state) {
    case "waiting":
      return `Waiting up to ${seconds(answer.timeoutMs)} for an answer to id ${answer.id}…`;
    case "answered":
      return `Answered id ${answer.id}${answer.rttMs === undefined ? "" : ` after ${formatRtt(answer.rttMs)}`}.`;
    case "no-answer":
      return `No answer to id ${answer.id} after ${seconds(answer.timeoutMs)}.`;
    case "closed":
      return `The connection closed before an answer to id ${answer.id} came.`;
    case "not-expected":
      return "Sent. It is no request with an id, so no answer is awaited; whatever the server sends is listed below.";
  }
}
