/**
 * Checks a collection's steps: names unique, the target known and of the action's protocol,
 * each action's fields for its protocol and kind, each assertion's fields for its kind, and the
 * captures. A misspelt field is reported by name, since it would otherwise be ignored silently.
 */
import { OPERATIONS } from "../a2a/dialect.ts";
import { nearestNames } from "../validation/near-miss.ts";
import {
  at,
  booleanField,
  choiceField,
  count,
  described,
  integerField,
  isString,
  jsonValue,
  type JsonRecord,
  knownFields,
  LIMITS,
  mapAt,
  named,
  NAME_RULE,
  objectAt,
  pointerValue,
  stringField,
  timeoutField,
} from "./collection-check-kit.ts";
import {
  A2A_ACTION_FIELDS,
  ASSERTION_FIELDS,
  ASSERTION_KINDS,
  CODED_OUTCOMES,
  COUNT_FIELDS,
  MCP_ACTION_FIELDS,
  NATS_ACTION_FIELDS,
  NATS_KINDS,
  OUTCOME_KINDS,
  PROTOCOLS,
  STATE_OUTCOME,
  STEP_FIELDS,
} from "./collection-fields.ts";
import type { HarnessProtocol } from "./collection-types.ts";
import { type CheckContext, headersAt } from "./header-check.ts";

const NEEDS_TEXT = new Set(["send", "stream"]);
const NEEDS_TASK = new Set(["get", "cancel", "subscribe"]);

function freeObject(cx: CheckContext, obj: JsonRecord, key: string, pointer: string, nullable = false): void {
  if (!Object.hasOwn(obj, key)) return;
  const value = obj[key];
  const where = at(pointer, key);
  if (nullable && value === null) return;
  if (objectAt(cx.ck, value, where, `'${key}'`)) jsonValue(cx.ck, value, where);
}

function actionAt(cx: CheckContext, value: unknown, where: string): HarnessProtocol | undefined {
  const { ck } = cx;
  const obj = objectAt(ck, value, where, "the action");
  if (!obj) return undefined;
  const protocol = choiceField(ck, obj, "protocol", where, PROTOCOLS, true);
  if (protocol === "mcp") {
    knownFields(ck, obj, where, MCP_ACTION_FIELDS, " of an mcp action");
    stringField(ck, obj, "method", where, { required: true, nonEmpty: true });
    freeObject(cx, obj, "params", where);
  } else if (protocol === "a2a") {
    knownFields(ck, obj, where, A2A_ACTION_FIELDS, " of an a2a action");
    const operation = choiceField(ck, obj, "operation", where, OPERATIONS, true);
    for (const key of ["text", "taskId", "contextId"]) stringField(ck, obj, key, where);
    freeObject(cx, obj, "message", where);
    if (operation && NEEDS_TEXT.has(operation) && !Object.hasOwn(obj, "text") && !Object.hasOwn(obj, "message")) {
      ck.add(where, `a2a '${operation}' needs 'text' or 'message'`);
    }
    if (operation && NEEDS_TASK.has(operation) && !Object.hasOwn(obj, "taskId")) ck.add(where, `a2a '${operation}' needs 'taskId'`);
  } else if (protocol === "nats") {
    const kind = choiceField(ck, obj, "kind", where, NATS_KINDS, true);
    if (!kind) return protocol;
    knownFields(ck, obj, where, NATS_ACTION_FIELDS[kind], ` of a nats ${kind} action`);
    if (kind === "request") {
      stringField(ck, obj, "subject", where, { required: true, nonEmpty: true });
      stringField(ck, obj, "payload", where, { required: true });
      if (Object.hasOwn(obj, "headers")) headersAt(cx, obj.headers, at(where, "headers"));
    } else if (kind === "tool") {
      stringField(ck, obj, "identity", where, { required: true, nonEmpty: true });
      stringField(ck, obj, "tool", where, { required: true, nonEmpty: true });
      freeObject(cx, obj, "input", where, true);
    } else {
      stringField(ck, obj, "identity", where, { required: true, nonEmpty: true });
      stringField(ck, obj, "text", where, { required: true });
    }
  }
  return protocol;
}

function requiredPointer(cx: CheckContext, obj: JsonRecord, where: string): void {
  if (Object.hasOwn(obj, "pointer")) pointerValue(cx.ck, obj.pointer, at(where, "pointer"));
  else cx.ck.add(where, "missing required field 'pointer'");
}

function countAt(cx: CheckContext, value: unknown, where: string): void {
  const { ck } = cx;
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) ck.add(where, `must be a whole number of messages or {min, max}; got ${described(value)}`);
    return;
  }
  const obj = objectAt(ck, value, where, "count");
  if (!obj) return;
  knownFields(ck, obj, where, COUNT_FIELDS);
  const min = integerField(ck, obj, "min", where, 0, Number.MAX_SAFE_INTEGER);
  const max = integerField(ck, obj, "max", where, 0, Number.MAX_SAFE_INTEGER);
  if (!Object.hasOwn(obj, "min") && !Object.hasOwn(obj, "max")) ck.add(where, "a count range needs 'min', 'max' or both");
  if (min !== undefined && max !== undefined && min > max) ck.add(where, `min ${min} is greater than max ${max}`);
}

function assertionAt(cx: CheckContext, value: unknown, where: string): void {
  const { ck } = cx;
  const obj = objectAt(ck, value, where, "an assertion");
  if (!obj) return;
  const kind = choiceField(ck, obj, "kind", where, ASSERTION_KINDS, true, "assertion kind");
  if (!kind) return;
  knownFields(ck, obj, where, ASSERTION_FIELDS[kind], ` of a ${kind} assertion`);
  switch (kind) {
    case "equals":
      requiredPointer(cx, obj, where);
      if (Object.hasOwn(obj, "value")) jsonValue(ck, obj.value, at(where, "value"));
      else ck.add(where, "missing required field 'value'");
      break;
    case "matches": {
      requiredPointer(cx, obj, where);
      const pattern = stringField(ck, obj, "pattern", where, { required: true });
      if (pattern !== undefined) {
        const problem = patternProblem(pattern);
        if (problem) ck.add(at(where, "pattern"), problem);
      }
      break;
    }
    case "exists":
    case "absent":
      requiredPointer(cx, obj, where);
      break;
    case "outcome": {
      const is = choiceField(ck, obj, "is", where, OUTCOME_KINDS, true, "outcome");
      integerField(ck, obj, "code", where, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      stringField(ck, obj, "state", where, { nonEmpty: true });
      if (is && Object.hasOwn(obj, "code") && !CODED_OUTCOMES.has(is)) ck.add(at(where, "code"), `a code applies only to outcomes ${[...CODED_OUTCOMES].join(", ")}; not ${is}`);
      if (is && Object.hasOwn(obj, "state") && is !== STATE_OUTCOME) ck.add(at(where, "state"), `a state applies only to outcome ${STATE_OUTCOME}; not ${is}`);
      break;
    }
    case "latency": {
      const below = obj.belowMs;
      if (!Object.hasOwn(obj, "belowMs")) ck.add(where, "missing required field 'belowMs'");
      else if (typeof below !== "number" || !(below > 0) || below > LIMITS.timeoutMs) {
        ck.add(at(where, "belowMs"), `must be a number of milliseconds above 0 and at most ${count(LIMITS.timeoutMs)}; got ${described(below)}`);
      }
      break;
    }
    case "stream":
      if (Object.hasOwn(obj, "count")) countAt(cx, obj.count, at(where, "count"));
      if (Object.hasOwn(obj, "order")) stringList(cx, obj.order, at(where, "order"));
      booleanField(ck, obj, "final", where);
      break;
    case "valid":
      stringField(ck, obj, "version", where, { nonEmpty: true });
      break;
  }
}

function stringList(cx: CheckContext, value: unknown, where: string): void {
  if (!Array.isArray(value)) cx.ck.add(where, `must be an array of strings; got ${described(value)}`);
  else if (value.length > LIMITS.entries) cx.ck.add(where, `has ${count(value.length)} items; at most ${count(LIMITS.entries)} are allowed`);
  else for (let i = 0; i < value.length; i++) isString(cx.ck, value[i], at(where, i));
}

function targetOf(cx: CheckContext, obj: JsonRecord, where: string): { known: boolean; protocol?: HarnessProtocol } {
  const name = stringField(cx.ck, obj, "target", where, { required: true, nonEmpty: true });
  if (name === undefined) return { known: false };
  if (cx.targets.has(name)) {
    const protocol = cx.targets.get(name);
    return protocol ? { known: true, protocol } : { known: true };
  }
  const near = nearestNames(name, cx.targets.keys())[0];
  const names = [...cx.targets.keys()];
  const hint = near ? ` (did you mean '${near.name}'?)` : names.length > 0 ? ` (targets: ${names.slice(0, 10).join(", ")})` : " (there are no targets)";
  cx.ck.add(at(where, "target"), `no target '${named(name)}' in targets${hint}`);
  return { known: false };
}

function stepAt(cx: CheckContext, value: unknown, index: number, names: Map<string, number>): void {
  const { ck } = cx;
  const where = at("/steps", index);
  const obj = objectAt(ck, value, where, `step ${index}`);
  if (!obj) return;
  knownFields(ck, obj, where, STEP_FIELDS, " of a step");
  const name = stringField(ck, obj, "name", where, { required: true, nonEmpty: true });
  if (name !== undefined) {
    const first = names.get(name);
    if (first !== undefined) ck.add(at(where, "name"), `step name '${named(name)}' is already used by step ${first}`);
    else names.set(name, index);
  }
  const target = targetOf(cx, obj, where);
  timeoutField(ck, obj, where);
  if (!Object.hasOwn(obj, "action")) ck.add(where, "missing required field 'action'");
  else {
    const protocol = actionAt(cx, obj.action, at(where, "action"));
    if (protocol && target.protocol && protocol !== target.protocol) {
      ck.add(at(at(where, "action"), "protocol"), `the action is ${protocol} but target '${String(obj.target)}' is ${target.protocol}`);
    }
  }
  if (Object.hasOwn(obj, "assert")) {
    const list = obj.assert;
    if (!Array.isArray(list)) ck.add(at(where, "assert"), `must be an array of assertions; got ${described(list)}`);
    else if (list.length > LIMITS.assertions) ck.add(at(where, "assert"), `has ${count(list.length)} assertions; at most ${count(LIMITS.assertions)} are allowed`);
    else for (let i = 0; i < list.length; i++) assertionAt(cx, list[i], at(at(where, "assert"), i));
  }
  if (Object.hasOwn(obj, "capture")) {
    mapAt(ck, obj.capture, at(where, "capture"), "capture", LIMITS.entries, (captureName, pointer, itemAt) => {
      if (cx.secrets.has(captureName)) ck.add(itemAt, `capture '${captureName}' has the name of a secret: a captured value must not stand in for a secret`);
      pointerValue(ck, pointer, itemAt);
    }, NAME_RULE);
  }
}

export function checkSteps(cx: CheckContext, value: unknown): void {
  if (!Array.isArray(value)) {
    cx.ck.add("/steps", `steps must be an array; got ${described(value)}`);
    return;
  }
  if (value.length > LIMITS.steps) {
    cx.ck.add("/steps", `has ${count(value.length)} steps; at most ${count(LIMITS.steps)} are allowed`);
    return;
  }
  const names = new Map<string, number>();
  for (let i = 0; i < value.length; i++) stepAt(cx, value[i], i, names);
}

/** Longest `matches` pattern; a collection file is shared, so its patterns are not trusted. */
export const MAX_PATTERN_LENGTH = 1000;
/** A quantified group holding a quantifier, e.g. `(a+)+` or `(\d*){2,}`, escapes aside. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,)/;

/**
 * Why a pattern is refused: not a regular expression, too long, or a nested quantifier, the
 * usual shape of a pattern whose matching time explodes on a near-miss (JavaScript has no limit).
 */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed`;
  try {
    new RegExp(pattern);
  } catch (err) {
    return `is not a valid regular expression: ${(err as Error).message}`;
  }
  if (NESTED_QUANTIFIER.test(pattern)) return "has a repeated group that itself repeats (like (a+)+), which can take exponential time to match; repeat once instead (a+)";
  return undefined;
}

