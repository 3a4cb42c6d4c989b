import { isJsonObject } from "../../json/index.ts";
import type { Candidate, Recognition } from "../../validation/types.ts";
import { decided, METHOD_INDEX, NEWEST_FIRST, ranked, type MethodEntry, type Pinning } from "./catalog.ts";
import { KIND, resultKindId } from "./pack-kit.ts";
import { cardCandidates, payloadCandidates, resultCandidates, streamKindFor } from "./recognise-shapes.ts";
import { A2A_V10 } from "./v1-0.ts";

/** What the session knows when it recognises a message: the pinned version and the open requests. */
export interface RecogniseContext {
  readonly pin: Pinning;
  readonly pending: ReadonlyMap<unknown, MethodEntry>;
}

/** Methods MCP also has; MCP names the task `taskId`, A2A names it `id`. */
const SHARED_WITH_MCP = new Set(["tasks/get", "tasks/cancel"]);

const NOT_A2A: Recognition = { candidates: [], reason: "not a JSON-RPC message with an A2A method, nor an Agent Card or A2A object" };

/** Classifies a value as an A2A message; cheap: a handful of property reads. */
export function recognise(value: unknown, context: RecogniseContext): Recognition {
  if (!isJsonObject(value)) return NOT_A2A;
  let candidates: Candidate[];
  if (typeof value.method === "string") candidates = requestCandidates(value, value.method, context.pin);
  else if ("result" in value || "error" in value) candidates = responseCandidates(value, context);
  // A message that names its own protocol (fisk-ai does) is no A2A card or object.
  else if (typeof value.protocol === "string") return NOT_A2A;
  else candidates = cardCandidates(value, context.pin) ?? payloadCandidates(value, context.pin);
  if (candidates.length === 0) {
    return typeof value.method === "string" ? { candidates, reason: `method "${value.method}" is not an A2A method` } : NOT_A2A;
  }
  return { candidates };
}

function requestCandidates(value: Record<string, unknown>, method: string, pin: Pinning): Candidate[] {
  const entries = METHOD_INDEX.get(method);
  if (!entries) return [];
  let base = 0.95;
  const evidence = [`method is "${method}"`];
  if (entries.length === 1) evidence.push(`only ${entries[0]!.pack.label} has this method`);
  if (SHARED_WITH_MCP.has(method)) {
    const params = value.params;
    if (isJsonObject(params) && "taskId" in params && !("id" in params)) {
      base = 0.3;
      evidence.push('params names the task "taskId", as MCP does; A2A names it "id"');
    } else if (isJsonObject(params) && "id" in params) {
      evidence.push('params names the task "id" (MCP\'s method of this name uses "taskId")');
    }
  }
  const kindId = `${method}:request`;
  return ranked(
    entries.map((e) => e.pack),
    kindId,
    base,
    evidence,
    pin,
  );
}

function responseCandidates(value: Record<string, unknown>, context: RecogniseContext): Candidate[] {
  const id = value.id;
  const pending = id === null || id === undefined ? undefined : context.pending.get(id);
  const isError = "error" in value;
  if (pending) {
    const shown = typeof id === "string" ? `"${id}"` : String(id);
    const why = [`answers request ${shown} (${pending.spec.method}, earlier in the batch)`];
    if (isError) return [decided(pending.pack, KIND.error, 0.95, [...why, "carries an error"])];
    const kindId = pending.spec.streaming ? streamKindFor(pending.pack, value.result) : resultKindId(pending.spec.method);
    return [decided(pending.pack, kindId, 0.95, why)];
  }
  return isError ? errorCandidates(value.error, context.pin) : resultCandidates(value.result, context.pin);
}

function errorCandidates(error: unknown, pin: Pinning): Candidate[] {
  const code = isJsonObject(error) ? error.code : undefined;
  const data = isJsonObject(error) ? error.data : undefined;
  const evidence = ["carries a JSON-RPC error; no request with its id was seen"];
  if (Array.isArray(data)) {
    const v1 = decided(A2A_V10, KIND.error, 0.8, [...evidence, "error.data is an array, where v1.0 puts google.rpc.ErrorInfo"]);
    return [v1, ...ranked(NEWEST_FIRST.slice(1), KIND.error, 0.45, evidence, pin)];
  }
  const a2aCode = typeof code === "number" && code <= -32001 && code >= -32099;
  const why = a2aCode ? [...evidence, `code ${code} is in A2A's error range`] : evidence;
  // Earlier A2A traffic in the batch makes an unanswered error likelier to be A2A's.
  const seenA2A = pin.pack !== null || pin.generation !== null;
  return ranked(NEWEST_FIRST, KIND.error, (a2aCode ? 0.7 : 0.5) + (seenA2A ? 0.15 : 0), why, pin);
}
