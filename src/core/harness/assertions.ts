/**
 * Judging one assertion against what a step observed. Every verdict carries a sentence naming
 * the pointer, what was expected and what was there (abbreviated), for reports and JUnit.
 */
import { jsonEqual, jsonTypeName, preview } from "../forms/json-values.ts";
import { pointerLabel, readPointer } from "./body-pointer.ts";
import type { Assertion, CountSpec, StepOutcome } from "./collection-types.ts";
import type { AssertionResult, StepObservation } from "./run-types.ts";

/** Values in messages are cut to about this many characters. */
export const SHOWN_CHARS = 200;

const shown = (value: unknown): string => preview(value, SHOWN_CHARS);
/** Plain text (an outcome's words, a list of kinds) cut to the same length, unquoted. */
const clip = (text: string): string => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);
const ms = (value: number): string => `${Number(value.toFixed(1))} ms`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

type Verdict = { readonly passed: boolean; readonly message: string };
const pass = (message: string): Verdict => ({ passed: true, message });
const fail = (message: string): Verdict => ({ passed: false, message });

function outcomeWords(o: { readonly kind: string; readonly code?: number; readonly state?: string }): string {
  if (o.code !== undefined) return `${o.kind} (code ${o.code})`;
  if (o.state !== undefined) return `${o.kind} (state ${o.state})`;
  return o.kind;
}

function outcome(a: Extract<Assertion, { kind: "outcome" }>, actual: StepOutcome): Verdict {
  const expected = outcomeWords({ kind: a.is, ...(a.code !== undefined ? { code: a.code } : {}), ...(a.state !== undefined ? { state: a.state } : {}) });
  const got = outcomeWords({ kind: actual.kind, ...(a.code !== undefined && actual.code !== undefined ? { code: actual.code } : {}), ...(a.state !== undefined && actual.state !== undefined ? { state: actual.state } : {}) });
  const ok = actual.kind === a.is && (a.code === undefined || actual.code === a.code) && (a.state === undefined || actual.state === a.state);
  const words = actual.message ? `: ${clip(actual.message)}` : "";
  return ok ? pass(`outcome is ${expected}${words}`) : fail(`expected outcome ${expected}; got ${got}${words}`);
}

function countWords(spec: CountSpec): string {
  if (typeof spec === "number") return plural(spec, "message");
  if (spec.min !== undefined && spec.max !== undefined) return `${spec.min} to ${spec.max} messages`;
  if (spec.min !== undefined) return `at least ${plural(spec.min, "message")}`;
  return `at most ${plural(spec.max ?? 0, "message")}`;
}

function countFits(spec: CountSpec, n: number): boolean {
  if (typeof spec === "number") return n === spec;
  return (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max);
}

/** How far `order` goes as a subsequence of `kinds`: the number of its items found in turn. */
function subsequenceReach(kinds: readonly string[], order: readonly string[]): number {
  let found = 0;
  for (const kind of kinds) if (found < order.length && kind === order[found]) found++;
  return found;
}

function stream(a: Extract<Assertion, { kind: "stream" }>, obs: StepObservation): Verdict {
  if (!obs.stream) return fail("the answer was not a stream of messages, so there is nothing to count or order");
  const { kinds, final } = obs.stream;
  const list = kinds.length > 0 ? clip(kinds.join(", ")) : "none";
  const problems: string[] = [];
  if (a.count !== undefined && !countFits(a.count, kinds.length)) problems.push(`expected ${countWords(a.count)}, got ${kinds.length}`);
  if (a.order !== undefined) {
    const reach = subsequenceReach(kinds, a.order);
    if (reach < a.order.length) {
      const after = reach === 0 ? "" : ` after ${a.order.slice(0, reach).join(", ")}`;
      problems.push(`expected kinds in order ${a.order.join(", ")}, but no ${a.order[reach]!}${after}`);
    }
  }
  if (a.final !== undefined && final !== a.final) problems.push(a.final ? "expected the last message to be final, but it is not" : "expected no final message, but the last is final");
  const summary = `${plural(kinds.length, "message")} (${list})${final ? ", final" : ", not final"}`;
  return problems.length === 0 ? pass(summary) : fail(`${problems.join("; ")}; the stream had ${summary}`);
}

function valid(a: Extract<Assertion, { kind: "valid" }>, obs: StepObservation): Verdict {
  let received = 0;
  for (let i = 0; i < obs.frames.length; i++) {
    const frame = obs.frames[i]!;
    if (frame.direction !== "received") continue;
    received++;
    const v = frame.validity;
    const as = v?.kind ? ` (as ${v.kind})` : "";
    if (!v) return fail(`frame ${i} (received) was not checked, so its validity is unknown`);
    if (!v.valid) return fail(`frame ${i} (received) is invalid${as}: ${clip(v.problems.join("; ") || "no problems given")}`);
    if (a.version !== undefined && v.version !== a.version) {
      return fail(`frame ${i} (received) was checked against ${v.version === undefined ? "no version" : `version ${v.version}`}${as}, not ${a.version}`);
    }
  }
  if (received === 0) return fail("no frame was received, so there is nothing to find valid");
  const which = received === 1 ? "the one received frame is" : `all ${received} received frames are`;
  return pass(`${which} valid${a.version !== undefined ? ` for version ${a.version}` : ""}`);
}

function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern);
  } catch (err) {
    return (err as Error).message;
  }
}

function judge(a: Assertion, obs: StepObservation): Verdict {
  switch (a.kind) {
    case "equals": {
      const read = readPointer(obs.body, a.pointer);
      if (!read.found) return fail(`${read.reason} (expected ${shown(a.value)})`);
      const label = pointerLabel(a.pointer);
      return jsonEqual(read.value, a.value) ? pass(`${label} equals ${shown(a.value)}`) : fail(`${label} is ${shown(read.value)}; expected ${shown(a.value)}`);
    }
    case "matches": {
      const regex = compile(a.pattern);
      if (typeof regex === "string") return fail(`the pattern ${shown(a.pattern)} is not a valid regular expression: ${regex}`);
      const read = readPointer(obs.body, a.pointer);
      if (!read.found) return fail(`${read.reason} (expected a string matching /${a.pattern}/)`);
      const label = pointerLabel(a.pointer);
      if (typeof read.value !== "string") return fail(`${label} is ${shown(read.value)} (${jsonTypeName(read.value)}), not a string; expected a string matching /${a.pattern}/`);
      return regex.test(read.value) ? pass(`${label} ${shown(read.value)} matches /${a.pattern}/`) : fail(`${label} is ${shown(read.value)}, which does not match /${a.pattern}/`);
    }
    case "exists": {
      const read = readPointer(obs.body, a.pointer);
      return read.found ? pass(`${pointerLabel(a.pointer)} exists: ${shown(read.value)}`) : fail(read.reason);
    }
    case "absent": {
      const read = readPointer(obs.body, a.pointer);
      return read.found ? fail(`${pointerLabel(a.pointer)} should be absent but is ${shown(read.value)}`) : pass(`${read.reason}, as expected`);
    }
    case "outcome":
      return outcome(a, obs.outcome);
    case "latency":
      return obs.latencyMs < a.belowMs ? pass(`answered in ${ms(obs.latencyMs)}, below ${ms(a.belowMs)}`) : fail(`answered in ${ms(obs.latencyMs)}; expected below ${ms(a.belowMs)}`);
    case "stream":
      return stream(a, obs);
    case "valid":
      return valid(a, obs);
  }
}

/** The assertion's verdict on the observation, with the sentence that explains it. */
export function evaluateAssertion(a: Assertion, obs: StepObservation): AssertionResult {
  const verdict = judge(a, obs);
  return { assertion: a, passed: verdict.passed, message: verdict.message };
}
