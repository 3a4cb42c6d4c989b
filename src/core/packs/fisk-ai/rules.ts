import { isJsonObject } from "../../json/index.ts";
import type { Candidate, Issue, IssueSeverity, RawMessage } from "../../validation/types.ts";
import { ERROR_CODES, MAX_BODY_BYTES, MAX_REQUEST_ID_BYTES, NAME_RE, STOP_REASONS_NAMED } from "./protocol.ts";
import { isRfc3339 } from "./rfc3339.ts";
import { utf8Length } from "./utf8.ts";

export { isRfc3339 };

/**
 * fisk-ai protocol rules that its JSON Schemas do not state: the body cap, the Go decoder's RFC 3339
 * time, Gen 2 id rules a Gen 1 schema leaves open, stop reasons and codes outside the named sets,
 * and the answer checks the task endpoint makes.
 */

/** What the session has learned from earlier messages that a rule can use. */
export interface RuleContext {
  /** How many options a select question offered, by question id, when the question was seen. */
  optionCount(questionId: string): number | undefined;
}

function issue(pointer: string, rule: string, severity: IssueSeverity, message: string): Issue {
  return { pointer, message, severity, source: "rule", rule };
}

const fmt = (n: number): string => n.toLocaleString("en-US");

function bodySize(raw: RawMessage): Issue | null {
  const text = raw.text;
  // Every UTF-16 unit is at most 3 UTF-8 bytes, so short texts need no count.
  if (text === undefined || text.length * 3 <= MAX_BODY_BYTES) return null;
  const bytes = utf8Length(text);
  if (bytes <= MAX_BODY_BYTES) return null;
  return issue("", "fisk-ai.body-size", "error", `The body is ${fmt(bytes)} bytes, over fisk-ai's ${fmt(MAX_BODY_BYTES)}-byte cap; peers refuse it before reading it.`);
}

function time(value: Record<string, unknown>): Issue | null {
  const t = value.time;
  if (typeof t !== "string" || isRfc3339(t)) return null;
  return issue("/time", "fisk-ai.time", "error", `time ${JSON.stringify(t)} is not an RFC 3339 timestamp; fisk-ai's decoder refuses the message.`);
}

/**
 * Gen 1 schemas leave id, request and conversation open (Gen 2's constrain them), so on Gen 1 a
 * value a Gen 2 peer would refuse is only a warning. Identity names and instances, question ids
 * and conversation tokens need no rule: every schema that has them states their character set.
 */
function gen1Ids(value: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const fields: [string, string, number | null][] = [
    ["id", "fisk-ai.id-charset", null],
    ["request", "fisk-ai.request-id", MAX_REQUEST_ID_BYTES],
    ["conversation", "fisk-ai.conversation-charset", null],
  ];
  for (const [field, rule, maxBytes] of fields) {
    const v = value[field];
    if (typeof v !== "string") continue;
    const tooLong = maxBytes !== null && utf8Length(v) > maxBytes;
    if (NAME_RE.test(v) && !tooLong) continue;
    const limit = maxBytes === null ? "" : `at most ${maxBytes} bytes of `;
    const message = `${field} ${JSON.stringify(v)} is fine for Gen 1, but Gen 2 peers require ${limit}letters, digits, "_" and "-" (it becomes part of NATS subjects).`;
    issues.push(issue(`/${field}`, rule, "warning", message));
  }
  return issues;
}

const NAMED_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS_NAMED);
const STOP_SHAPE = /^[a-z][a-z0-9_]{0,63}$/;

function stopReason(value: Record<string, unknown>): Issue | null {
  const reason = value.stop_reason;
  if (typeof reason !== "string" || !STOP_SHAPE.test(reason) || NAMED_STOP_REASONS.has(reason)) return null;
  return issue("/stop_reason", "fisk-ai.stop-reason", "warning", `stop_reason "${reason}" is not one of the eight named reasons: receivers accept it, StopReason.Valid() is false.`);
}

function code(value: Record<string, unknown>): Issue | null {
  const c = value.code;
  if (typeof c !== "string" || ERROR_CODES.has(c)) return null;
  return issue("/code", "fisk-ai.error-code", "warning", `code "${c}" is not one of the codes fisk-ai defines (${[...ERROR_CODES].join(", ")}).`);
}

/** Which answer field each question kind takes; no_operator fits any. */
const ANSWER_FOR: Record<string, string> = { approve: "choice", confirm: "confirmed", select: "value", input: "value" };

function answerFits(value: Record<string, unknown>): Issue[] {
  const answer = value.answer;
  if (!isJsonObject(answer) || typeof answer.kind !== "string" || typeof answer.answer !== "string") return [];
  const wanted = ANSWER_FOR[answer.kind];
  if (wanted === undefined || answer.answer === "no_operator") return [];
  if (answer.answer !== wanted) {
    return [issue("/answer/answer", "fisk-ai.answer-kind", "error", `A "${answer.kind}" question is answered with "${wanted}", not "${answer.answer}"; the agent refuses it.`)];
  }
  if (!(wanted in answer)) {
    return [issue("/answer", "fisk-ai.answer-value", "warning", `answer names "${wanted}" but the answer object carries no ${wanted}.`)];
  }
  return [];
}

function selectIndex(value: Record<string, unknown>, context: RuleContext): Issue | null {
  const { question_id: questionId, index } = value;
  if (typeof questionId !== "string" || typeof index !== "number") return null;
  const options = context.optionCount(questionId);
  if (options === undefined || index < options) return null;
  return issue("/index", "fisk-ai.select-index", "error", `index ${index} is not one of the ${options} options question "${questionId}" offered.`);
}

/** Every rule for a message classified as `chosen`. Runs per message: the rules add to one list, with no helper closures. */
export function fiskAiRules(value: unknown, chosen: Candidate, raw: RawMessage, context: RuleContext): Issue[] {
  const issues: Issue[] = [];
  add(issues, bodySize(raw));
  if (!isJsonObject(value)) return issues;
  add(issues, time(value));
  const gen2 = chosen.pack.version === "gen2";
  if (!gen2) issues.push(...gen1Ids(value));
  switch (chosen.kind.id) {
    case "result":
      if (gen2) add(issues, stopReason(value));
      break;
    case "error":
      if (gen2) add(issues, stopReason(value));
      add(issues, code(value));
      break;
    case "tool.reply":
      if (gen2) add(issues, code(value));
      break;
    case "request.answer":
      issues.push(...answerFits(value));
      break;
    case "elicit.reply.select":
      add(issues, selectIndex(value, context));
      break;
  }
  return issues;
}

function add(issues: Issue[], found: Issue | null): void {
  if (found) issues.push(found);
}
