import { decodeFiskMessage, isValidId, isValidRequestId, MAX_BODY_BYTES, parseGoTime, type FiskMessage } from "../../fisk/codec/index.ts";
import { isJsonObject } from "../../json/index.ts";
import type { ValidationEngine } from "../../validation/engine.ts";
import type { FiskGeneration } from "./fisk-card.ts";

/**
 * What an endpoint checks before it answers, in fisk-ai's order: the size cap on the bytes, then
 * the message against its schema, then the protocol the subject carries. Any failure is a micro
 * 400 with an empty body, worded as fisk-ai words it (`ExpectProtocol`).
 */

/** Why the schema refuses a body, in one line; null when it passes. Injected: ajv stays out of here. */
export type FiskValidator = (text: string, generation: FiskGeneration) => string | null;

export type Intake<M> = { readonly ok: true; readonly message: M } | { readonly ok: false; readonly description: string };

const PACKS: Record<FiskGeneration, string> = { gen2: "fisk-ai/gen2", gen1: "fisk-ai/gen1-v0.0.3" };

/** A validator over the project's own fisk-ai packs (Gen 1 strict, Gen 2 permissive). */
export function engineValidator(engine: ValidationEngine): FiskValidator {
  return (text, generation) => {
    const verdict = engine.session().validateText(text, { packId: PACKS[generation] });
    if (verdict.status === "valid") return null;
    const issue = verdict.issues.find((i) => i.severity === "error") ?? verdict.issues[0];
    if (issue) return issue.pointer ? `${issue.pointer}: ${issue.message}` : issue.message;
    return verdict.evidence[0] ?? `not a fisk-ai message (${verdict.status})`;
  };
}

const invalid = (detail: string): Intake<never> => ({ ok: false, description: `invalid request: ${detail}` });

/** The header every request carries; checked here too, so a missing validator cannot let a bad one through. */
function headerProblem(m: Record<string, unknown>): string | null {
  if (typeof m.id !== "string" || !isValidId(m.id)) return "/id: must be letters, digits, _ or -";
  if (typeof m.request !== "string" || !isValidRequestId(m.request)) return "/request: must be 1 to 64 letters, digits, _ or -";
  if (typeof m.conversation !== "string" || !isValidId(m.conversation)) return "/conversation: must be letters, digits, _ or -";
  if (typeof m.sequence !== "number" || !Number.isInteger(m.sequence) || m.sequence < 0) return "/sequence: must be a whole number of at least 0";
  // The schema leaves formats unchecked, but Go's decoder refuses a time that is not RFC 3339.
  if (typeof m.time !== "string" || parseGoTime(m.time) === null) return "/time: must be an RFC 3339 time";
  if (!isJsonObject(m.sender) || typeof m.sender.name !== "string" || !isValidId(m.sender.name)) return "/sender/name: must be letters, digits, _ or -";
  return null;
}

/**
 * Checks one inbound body for a subject that carries `want`. `shape` checks the kind's own
 * fields once the protocol is known to be right.
 */
export function intake<M extends FiskMessage>(
  data: Uint8Array,
  want: M["protocol"],
  generation: FiskGeneration,
  validate: FiskValidator | undefined,
  shape: (m: Record<string, unknown>) => string | null,
): Intake<M> {
  return intakeOneOf<M>(data, { accepts: (p) => p === want, wording: JSON.stringify(want) }, generation, validate, shape);
}

/** Which protocols a subject carries, and how a refusal names them. */
export interface Wanted {
  readonly accepts: (protocol: string) => boolean;
  readonly wording: string;
}

/** `intake` for a subject that carries several protocols (the task subject's four requests, an elicit subject's answers). */
export function intakeOneOf<M extends FiskMessage>(
  data: Uint8Array,
  want: Wanted,
  generation: FiskGeneration,
  validate: FiskValidator | undefined,
  shape: (m: Record<string, unknown>) => string | null,
): Intake<M> {
  if (data.byteLength > MAX_BODY_BYTES) return { ok: false, description: `request exceeds ${MAX_BODY_BYTES} bytes` };
  const decoded = decodeFiskMessage(data);
  if (!decoded.ok) return invalid(decoded.error.message);
  const problem = validate?.(decoded.text, generation);
  if (problem) return invalid(problem);
  const m = decoded.message as unknown as Record<string, unknown>;
  const header = headerProblem(m);
  if (header) return invalid(header);
  if (typeof m.protocol !== "string" || !want.accepts(m.protocol)) return { ok: false, description: `unexpected message protocol: got ${JSON.stringify(m.protocol)}, want ${want.wording}` };
  const own = shape(m);
  return own ? invalid(own) : { ok: true, message: decoded.message as M };
}

/** A discovery request is the header alone. */
export const discoveryShape = (): string | null => null;

/** A tool request names a tool; its input, when present, is an object (null counts as absent). */
export function toolShape(m: Record<string, unknown>): string | null {
  if (typeof m.name !== "string" || m.name === "") return "/name: must be a non-empty string";
  if (m.input !== undefined && m.input !== null && !isJsonObject(m.input)) return "/input: must be an object";
  return null;
}
