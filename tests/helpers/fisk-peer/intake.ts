/**
 * The checks a fisk-ai endpoint makes before it answers: the size cap, schema validation of the
 * body under its own protocol id, then the protocol the subject expects. A failure is a micro 400
 * with the description fisk-ai gives. The schemas are the project's own packs, which the agreement
 * tests prove equal to fisk-ai's.
 */
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import { MAX_BODY_BYTES } from "../../../src/core/packs/fisk-ai/protocol.ts";
import type { ValidationEngine } from "../../../src/core/validation/engine.ts";
import type { PeerGeneration } from "./types.ts";

export type Intake = { readonly ok: true; readonly value: Record<string, unknown>; readonly protocol: string } | { readonly ok: false; readonly description: string };

/** How an endpoint words its refusals. */
export interface Wording {
  tooLarge(bytes: number): string;
  invalid(detail: string): string;
  wrongProtocol(got: string): string;
}

/** Discovery, tool, cancel and elicit endpoints (`ExpectProtocol`). */
export const expectWording = (want: string): Wording => ({
  tooLarge: () => `request exceeds ${MAX_BODY_BYTES} bytes`,
  invalid: (detail) => `invalid request: ${detail}`,
  wrongProtocol: (got) => `unexpected message protocol: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
});

/** The task endpoint. */
export const taskWording: Wording = {
  tooLarge: (bytes) => `the request is ${bytes} bytes, over the ${MAX_BODY_BYTES} byte limit`,
  invalid: (detail) => `the request is not a valid v1 message: ${detail}`,
  wrongProtocol: (got) => `this path carries requests: got ${JSON.stringify(got)}`,
};

const PACKS: Record<PeerGeneration, string> = { gen2: "fisk-ai/gen2", gen1: "fisk-ai/gen1-v0.0.3" };

let engine: ValidationEngine | undefined;

/** Why the engine refused the body, in one line. */
function refusal(text: string, packId: string): string | null {
  engine ??= createValidationEngine();
  const verdict = engine.session().validateText(text, { packId });
  if (verdict.status === "valid" || verdict.status === "error-response") return null;
  const first = verdict.issues.find((i) => i.severity === "error") ?? verdict.issues[0];
  if (first) return first.pointer ? `${first.pointer}: ${first.message}` : first.message;
  return verdict.evidence[0] ?? "not a fisk-ai message";
}

/**
 * Checks one inbound body. `accepts` says whether the subject carries this protocol id.
 * Gen 1 schemas are strict, so an unknown field such as `traceparent` is refused there.
 */
export function intake(data: Uint8Array, generation: PeerGeneration, accepts: (protocol: string) => boolean, wording: Wording): Intake {
  if (data.byteLength > MAX_BODY_BYTES) return { ok: false, description: wording.tooLarge(data.byteLength) };
  const text = new TextDecoder().decode(data);
  const problem = refusal(text, PACKS[generation]);
  if (problem !== null) return { ok: false, description: wording.invalid(problem) };
  const value = JSON.parse(text) as Record<string, unknown>;
  const protocol = String(value.protocol);
  if (!accepts(protocol)) return { ok: false, description: wording.wrongProtocol(protocol) };
  return { ok: true, value, protocol };
}
