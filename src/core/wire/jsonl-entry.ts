/** One wire log entry as a JSONL line, and back: the per-entry half of the export format. */
import { isJsonObject } from "../json/json-object.ts";
import { Base64Error, decodeBase64, encodeBase64 } from "./base64.ts";
import { decodeFrame, exactUtf8Text } from "./decode.ts";
import { WIRE_CHANNELS, type WireChannel, type WireDirection, type WireEntry } from "./wire-entry.ts";

const encoder = new TextEncoder();

function payloadField(bytes: Uint8Array): { text: string } | { base64: string } {
  // The exact decoder keeps a leading BOM, so the text form re-encodes to the same bytes.
  const text = exactUtf8Text(bytes);
  return text !== null ? { text } : { base64: encodeBase64(bytes) };
}

/** One entry as its JSONL line (without the newline). The decoded view is not written. */
export function wireEntryLine(e: WireEntry): string {
  return JSON.stringify({
    seq: e.seq,
    ts: e.ts,
    wall: e.wall,
    channel: e.channel,
    direction: e.direction,
    target: e.target,
    headers: e.headers,
    correlationId: e.correlationId,
    status: e.status,
    rttMs: e.rttMs,
    note: e.note,
    size: e.size,
    bytes: payloadField(e.bytes),
  });
}

/** A non-negative safe integer. */
export const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

const DIRECTIONS: readonly WireDirection[] = ["out", "in"];
const KNOWN = new Set([
  "seq", "ts", "wall", "channel", "direction", "target", "headers", "correlationId", "status", "rttMs", "note", "size", "bytes",
]);

/** A wire log line that cannot become an entry; the message says why. */
export class LineError extends Error {}

function fail(message: string): never {
  throw new LineError(message);
}

const show = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v).slice(0, 60));

function finite(o: Record<string, unknown>, key: string, optional: boolean): number | undefined {
  const v = o[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) fail(`"${key}" must be a finite number, got ${show(v)}`);
  return v;
}

function text(o: Record<string, unknown>, key: string, optional: boolean): string | undefined {
  const v = o[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== "string") fail(`"${key}" must be a string, got ${show(v)}`);
  return v;
}

function headersOf(v: unknown): Record<string, string[]> | undefined {
  if (v === undefined) return undefined;
  if (!isJsonObject(v)) fail(`"headers" must be an object of string arrays`);
  const pairs = Object.entries(v).map(([name, values]): [string, string[]] => {
    if (!Array.isArray(values) || !values.every((x) => typeof x === "string")) {
      fail(`header ${JSON.stringify(name)} must be an array of strings`);
    }
    return [name, values.slice()];
  });
  // fromEntries defines own properties, so a "__proto__" header name stays a plain key.
  return Object.fromEntries(pairs);
}

function bytesOf(v: unknown): Uint8Array {
  if (!isJsonObject(v)) fail(`"bytes" must be {"text": …} or {"base64": …}`);
  const keys = Object.keys(v);
  if (keys.length !== 1) fail(`"bytes" must have exactly one of "text" or "base64"`);
  if (typeof v.text === "string") {
    if (!v.text.isWellFormed()) fail(`"bytes.text" contains a lone surrogate, which has no UTF-8 form`);
    return encoder.encode(v.text);
  }
  if (typeof v.base64 === "string") {
    try {
      return decodeBase64(v.base64);
    } catch (err) {
      if (err instanceof Base64Error) fail(`"bytes.base64": ${err.message}`);
      throw err;
    }
  }
  fail(`"bytes" must be {"text": string} or {"base64": string}`);
}

/** Validate one parsed entry line into an entry, collecting any unknown field names. */
export function entryFrom(raw: unknown, unknownKeys: string[]): WireEntry {
  if (!isJsonObject(raw)) fail("an entry must be a JSON object");
  for (const k of Object.keys(raw)) if (!KNOWN.has(k)) unknownKeys.push(k);
  const seq = raw.seq;
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) fail(`"seq" must be a positive integer, got ${show(seq)}`);
  const channel = raw.channel as WireChannel;
  if (!WIRE_CHANNELS.includes(channel)) fail(`"channel" must be one of ${WIRE_CHANNELS.join(", ")}, got ${show(channel)}`);
  const direction = raw.direction as WireDirection;
  if (!DIRECTIONS.includes(direction)) fail(`"direction" must be "out" or "in", got ${show(direction)}`);
  const status = raw.status;
  if (status !== undefined && !Number.isSafeInteger(status)) fail(`"status" must be an integer, got ${show(status)}`);
  const rttMs = finite(raw, "rttMs", true);
  if (rttMs !== undefined && rttMs < 0) fail(`"rttMs" must not be negative`);
  const size = raw.size;
  if (!isCount(size)) fail(`"size" must be a non-negative integer, got ${show(size)}`);
  const bytes = bytesOf(raw.bytes);
  if (bytes.byteLength !== size) fail(`"size" says ${size} bytes but the payload holds ${bytes.byteLength}`);
  const headers = headersOf(raw.headers);
  const correlationId = text(raw, "correlationId", true);
  const note = text(raw, "note", true);
  return {
    seq: seq as number,
    ts: finite(raw, "ts", false) as number,
    wall: finite(raw, "wall", false) as number,
    channel,
    direction,
    target: text(raw, "target", false) as string,
    ...(headers !== undefined ? { headers } : {}),
    ...(correlationId !== undefined ? { correlationId } : {}),
    ...(status !== undefined ? { status: status as number } : {}),
    ...(rttMs !== undefined ? { rttMs } : {}),
    ...(note !== undefined ? { note } : {}),
    bytes,
    size,
    decoded: decodeFrame(bytes),
  };
}

