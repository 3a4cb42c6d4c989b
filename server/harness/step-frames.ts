/**
 * A step's frames as the report keeps them: each wire-log entry of the step verbatim, with the
 * channel that carried it and, for what the peer sent, the validation engine's verdict. Every
 * frame, sent ones too, goes through the target's validation session in order, so responses are
 * judged knowing the requests they answer and the version the session agreed.
 */
import type { FrameValidity, StepFrame } from "../../src/core/harness/run-types.ts";
import type { ValidationSession } from "../../src/core/validation/engine.ts";
import type { Family, Verdict } from "../../src/core/validation/types.ts";
import { exactUtf8Text, type WireEntry } from "../../src/core/wire/index.ts";

/** Larger frames are kept but not checked: one would take seconds. */
export const MAX_CHECKED_BYTES = 4 * 1024 * 1024;
const MAX_PROBLEMS = 5;
const lossy = new TextDecoder("utf-8", { fatal: false });

export function frameValidity(verdict: Verdict): FrameValidity {
  const valid = verdict.status === "valid" || verdict.status === "error-response";
  const kind = verdict.kindLabel !== undefined ? `${verdict.kindLabel}${verdict.packLabel !== undefined ? ` (${verdict.packLabel})` : ""}` : undefined;
  let problems: string[] = [];
  if (verdict.status === "unrecognised") problems = [`not recognised as a message of any protocol Patchbay checks${verdict.evidence[0] ? `: ${verdict.evidence[0]}` : ""}`];
  else if (!valid) {
    const errors = verdict.issues.filter((i) => i.severity === "error");
    problems = (errors.length > 0 ? errors : verdict.issues).slice(0, MAX_PROBLEMS).map((i) => (i.pointer === "" ? i.message : `${i.pointer}: ${i.message}`));
    if (problems.length === 0) problems = [`the message is ${verdict.status}`];
  }
  return { valid, ...(kind !== undefined ? { kind } : {}), ...(verdict.version !== undefined ? { version: verdict.version } : {}), problems };
}

const FAMILY_LABELS: Readonly<Record<Family, string>> = { mcp: "MCP", a2a: "A2A", "fisk-ai": "fisk-ai" };

/**
 * The verdict on one entry, or undefined when it is not checked (empty, too large). A frame of
 * one protocol's exchange that reads as another protocol's message is not valid for this one.
 */
function judge(entry: WireEntry, text: string | null, validator: ValidationSession | undefined, family?: Family): FrameValidity | undefined {
  if (!validator || entry.size === 0 || entry.size > MAX_CHECKED_BYTES) return undefined;
  if (text === null) return { valid: false, problems: ["the frame is not UTF-8 text"] };
  const verdict = validator.validateText(text);
  const validity = frameValidity(verdict);
  if (family === undefined || verdict.family === undefined || verdict.family === family) return validity;
  return { ...validity, valid: false, problems: [`not ${family === "a2a" ? "an" : "a"} ${FAMILY_LABELS[family]} message: it reads as ${validity.kind ?? verdict.family}`] };
}

/** Runs entries through the validator without keeping them (a session's setup: initialize, the card). */
export function learnFrom(entries: readonly WireEntry[], validator: ValidationSession): void {
  for (const entry of entries) judge(entry, exactUtf8Text(entry.bytes), validator);
}

export interface FrameOptions {
  /** performance.now() when the step started. */
  readonly startedAt: number;
  readonly channel: (entry: WireEntry) => string;
  readonly validator?: ValidationSession;
  /** The protocol the exchange speaks; a frame judged as another's is not valid. */
  readonly family?: Family;
  /** Applied to the text kept, after it was judged as it crossed (a credential the report must not hold). */
  readonly redact?: (text: string) => string;
}

export function stepFrames(entries: readonly WireEntry[], options: FrameOptions): StepFrame[] {
  return entries.map((entry) => {
    const text = exactUtf8Text(entry.bytes);
    const validity = judge(entry, text, options.validator, options.family);
    const received = entry.direction === "in";
    return {
      direction: received ? "received" : "sent",
      atMs: Math.max(0, Math.round(entry.ts - options.startedAt)),
      text: options.redact ? options.redact(text ?? lossy.decode(entry.bytes)) : (text ?? lossy.decode(entry.bytes)),
      channel: options.channel(entry),
      ...(received && validity ? { validity } : {}),
    };
  });
}

/** The entry's JSON: decoded by the log when it could, parsed here when it was too large to decode. */
export function entryJson(entry: WireEntry): unknown {
  if (entry.decoded.json !== undefined) return entry.decoded.json;
  const text = exactUtf8Text(entry.bytes);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first value of a header of the entry (names are lower-case in the log). */
export function entryHeader(entry: WireEntry, name: string): string | undefined {
  return entry.headers?.[name]?.[0];
}
