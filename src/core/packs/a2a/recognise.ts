import { isJsonObject } from "../../json/index.ts";
import { isAllowedMethod, nearestNames } from "../../validation/near-miss.ts";
import { RecentStrings } from "../../validation/recent-strings.ts";
import type { Candidate, Recognition } from "../../validation/types.ts";
import { decided, METHOD_INDEX, NEWEST_FIRST, PIN_KEYS, pinKey, ranked, type MethodEntry, type Pinning } from "./catalog.ts";
import { KIND, requestKindId, resultKindId } from "./pack-kit.ts";
import { cardCandidates, payloadCandidates, resultCandidates, streamKindFor } from "./recognise-shapes.ts";
import { A2A_V10 } from "./v1-0.ts";

/** What the session knows when it recognises a message: the pinned version and the open requests. */
export interface RecogniseContext {
  readonly pin: Pinning;
  readonly pending: { get(id: unknown): MethodEntry | undefined };
  /** Methods the user allows as extensions: never taken for a near miss. */
  readonly extensions?: readonly string[] | undefined;
}

/** Methods MCP also has; MCP names the task `taskId`, A2A names it `id`. */
const SHARED_WITH_MCP = new Set(["tasks/get", "tasks/cancel"]);

const NOT_A2A: Recognition = { candidates: [], reason: "not a JSON-RPC message with an A2A method, nor an Agent Card or A2A object" };

/** What recognising a request needs of its method, worked out once per method. */
interface MethodFacts {
  readonly entries: readonly MethodEntry[] | undefined;
  /** Recognitions of an A2A method's requests, by params hint and pinning: see requestRecognition. */
  readonly slots: (Recognition | undefined)[];
  /** For a method that is not A2A's: the A2A methods it is one or two edits from, and why it is none. */
  near?: ReturnType<typeof nearestNames>;
  notA2A?: Recognition;
}

/** Methods arrive from traffic, so the table is cleared when it grows this large. */
const MAX_METHODS = 1024;
const METHOD_FACTS = new Map<string, MethodFacts>();
const RECENT_METHODS = new RecentStrings<MethodFacts>();

function factsOf(method: string): MethodFacts {
  let facts = METHOD_FACTS.get(method);
  if (!facts) {
    if (METHOD_FACTS.size >= MAX_METHODS) METHOD_FACTS.clear();
    METHOD_FACTS.set(method, (facts = { entries: METHOD_INDEX.get(method), slots: [] }));
  }
  return facts;
}

const methodFacts = (method: string): MethodFacts => RECENT_METHODS.through(method, factsOf)!;

function notA2AMethod(method: string, facts: MethodFacts): Recognition {
  return (facts.notA2A ??= { candidates: [], reason: `method "${method}" is not an A2A method` });
}

/** Classifies a value as an A2A message; cheap: a handful of property reads. */
export function recognise(value: unknown, context: RecogniseContext): Recognition {
  if (!isJsonObject(value)) return NOT_A2A;
  const method = value.method;
  if (typeof method === "string") return requestRecognition(value, method, context);
  let candidates: readonly Candidate[];
  if ("result" in value || "error" in value) candidates = responseCandidates(value, context);
  // A message that names its own protocol (fisk-ai does) is no A2A card or object.
  else if (typeof value.protocol === "string") return NOT_A2A;
  else candidates = cardCandidates(value, context.pin) ?? payloadCandidates(value, context.pin);
  return candidates.length === 0 ? NOT_A2A : { candidates };
}

/** How params bear on a method A2A shares with MCP: no bearing, MCP's taskId, or A2A's id. */
type ParamsHint = 0 | 1 | 2;

function paramsHint(method: string, params: unknown): ParamsHint {
  if (!SHARED_WITH_MCP.has(method) || !isJsonObject(params)) return 0;
  if ("taskId" in params && !("id" in params)) return 1;
  return "id" in params ? 2 : 0;
}

/**
 * A request's recognition depends only on the method, the params hint and the pinning, so each is
 * built once: by method, then hint and pinning as one slot number.
 */
function requestRecognition(value: Record<string, unknown>, method: string, context: RecogniseContext): Recognition {
  const pin = context.pin;
  const facts = methodFacts(method);
  const entries = facts.entries;
  if (!entries) return isAllowedMethod(method, context.extensions) ? notA2AMethod(method, facts) : nearMissRecognition(value, method, facts, pin);
  const hint = paramsHint(method, value.params);
  const key = pinKey(pin);
  if (key === null) return { candidates: buildRequest(entries, method, hint, pin) };
  const slot = hint * PIN_KEYS + key;
  return (facts.slots[slot] ??= { candidates: buildRequest(entries, method, hint, pin) });
}

/**
 * A name a couple of edits from an A2A method is judged as that method mistyped, so the rest of
 * the request is checked too and the name is reported as its first fault.
 */
function nearMissRecognition(value: Record<string, unknown>, method: string, facts: MethodFacts, pin: Pinning): Recognition {
  const near = (facts.near ??= nearestNames(method, METHOD_INDEX.keys()));
  if (near.length === 0) return notA2AMethod(method, facts);
  const candidates = near.slice(0, 3).flatMap(({ name, edits }) => {
    const entries = METHOD_INDEX.get(name)!;
    const hint = paramsHint(name, value.params);
    const why = [`method "${method}" is not A2A's, but ${edits === 1 ? "one edit" : "two edits"} from "${name}"`];
    const base = (edits === 1 ? 0.7 : 0.6) - (hint === 1 ? 0.3 : 0);
    return ranked(
      entries.map((e) => e.pack),
      requestKindId(name),
      base,
      why,
      pin,
    );
  });
  return { candidates: candidates.sort((a, b) => b.score - a.score) };
}

/** Never empty: a method in the index has at least one pack. */
function buildRequest(entries: readonly MethodEntry[], method: string, hint: ParamsHint, pin: Pinning): readonly Candidate[] {
  let base = 0.95;
  const evidence = [`method is "${method}"`];
  if (entries.length === 1) evidence.push(`only ${entries[0]!.pack.label} has this method`);
  if (hint === 1) {
    base = 0.3;
    evidence.push('params names the task "taskId", as MCP does; A2A names it "id"');
  } else if (hint === 2) {
    evidence.push('params names the task "id" (MCP\'s method of this name uses "taskId")');
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

function responseCandidates(value: Record<string, unknown>, context: RecogniseContext): readonly Candidate[] {
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
