import { FISK_PROTOCOLS, isValidConversationToken } from "../../fisk/codec/index.ts";
import { isJsonObject } from "../../json/index.ts";
import { NAMESPACE, QUESTION_KINDS } from "../../packs/fisk-ai/protocol.ts";
import type { Wanted } from "./fisk-intake.ts";

/**
 * What the task, cancel and elicit subjects take, checked the way fisk-ai's task endpoint checks
 * them after the schema: each request kind's own fields, and an answer that fits its question
 * kind. The wording follows fisk-ai's, so a caller reading the 400 sees the field at fault.
 */

const REQUESTS: ReadonlySet<string> = new Set([FISK_PROTOCOLS.requestPrompt, FISK_PROTOCOLS.requestAnswer, FISK_PROTOCOLS.requestResume, FISK_PROTOCOLS.requestRead]);
const REPLY_PREFIX = `${NAMESPACE}.elicit.reply.`;

export const TASK_REQUESTS: Wanted = { accepts: (p) => REQUESTS.has(p), wording: `one of ${[...REQUESTS].map((p) => JSON.stringify(p)).join(", ")} (this path carries requests)` };
export const CANCELS: Wanted = { accepts: (p) => p === FISK_PROTOCOLS.cancel, wording: JSON.stringify(FISK_PROTOCOLS.cancel) };
export const ELICIT_ANSWERS: Wanted = {
  accepts: (p) => p === FISK_PROTOCOLS.elicitWaiting || (p.startsWith(REPLY_PREFIX) && !p.slice(REPLY_PREFIX.length).includes(".")),
  wording: `${JSON.stringify(`${REPLY_PREFIX}<kind>`)} or ${JSON.stringify(FISK_PROTOCOLS.elicitWaiting)}`,
};

/** The most an answer's `value` may hold, and its tool_use_id. */
const MAX_VALUE = 4096;
const MAX_TOOL_USE_ID = 256;
/** Which answer field each question kind is answered with. */
const FITS: Readonly<Record<string, string>> = { approve: "choice", confirm: "confirmed", select: "value", input: "value" };
const ARTICLE: Readonly<Record<string, string>> = { approve: "an approval", confirm: "a confirmation", select: "a selection", input: "an input" };

const tokenProblem = (m: Record<string, unknown>, required: boolean): string | null => {
  const token = m.conversation_token;
  if (token === undefined) return required ? "/conversation_token: this request continues a conversation and needs its conversation_token" : null;
  return typeof token === "string" && isValidConversationToken(token) ? null : "/conversation_token: must be 1 to 128 letters, digits, _ or -";
};

const replayProblem = (m: Record<string, unknown>, required: boolean): string | null => {
  if (m.replay === undefined) return required ? "/replay: a read says how many blocks to replay (1 or more)" : null;
  return typeof m.replay === "number" && Number.isInteger(m.replay) && m.replay >= 1 ? null : "/replay: must be a whole number of at least 1";
};

function answerProblem(answer: unknown): string | null {
  if (!isJsonObject(answer)) return "/answer: must be an object with tool_use_id, kind and answer";
  const { tool_use_id: toolUse, kind, answer: how } = answer;
  if (typeof toolUse !== "string" || toolUse === "" || toolUse.length > MAX_TOOL_USE_ID) return `/answer/tool_use_id: must be 1 to ${MAX_TOOL_USE_ID} characters`;
  if (typeof kind !== "string" || !(QUESTION_KINDS as readonly string[]).includes(kind)) return `/answer/kind: must be one of ${QUESTION_KINDS.join(", ")}`;
  if (how === "no_operator") return null;
  if (typeof how !== "string" || !["choice", "confirmed", "value"].includes(how)) return "/answer/answer: must be choice, confirmed, value or no_operator";
  if (FITS[kind] !== how) return `/answer: ${ARTICLE[kind]} is answered with a ${FITS[kind] === "confirmed" ? "confirmed flag" : FITS[kind]}, not with ${JSON.stringify(how)}`;
  if (how === "choice" && !["no", "once", "always"].includes(answer.choice as string)) return "/answer/choice: must be no, once or always";
  if (how === "confirmed" && typeof answer.confirmed !== "boolean") return "/answer/confirmed: must be true or false";
  if (how === "value" && (typeof answer.value !== "string" || answer.value.length > MAX_VALUE)) return `/answer/value: must be a string of at most ${MAX_VALUE} characters`;
  return null;
}

function promptProblem(m: Record<string, unknown>): string | null {
  if (typeof m.prompt !== "string" || m.prompt === "") return "/prompt: a prompt needs its text";
  if (m.answer !== undefined) return "/answer: a prompt carries no answer; send it as request.answer";
  if (m.tool_hints !== undefined && !(Array.isArray(m.tool_hints) && m.tool_hints.every((h) => typeof h === "string"))) return "/tool_hints: must be a list of tool names";
  return tokenProblem(m, false) ?? replayProblem(m, false);
}

/** The own fields of whichever request arrived; the header and the schema were checked before. */
export function requestShape(m: Record<string, unknown>): string | null {
  if (m.stream !== undefined && typeof m.stream !== "boolean") return "/stream: must be true or false";
  if (m.budget !== undefined && !isJsonObject(m.budget)) return "/budget: must be an object";
  switch (m.protocol) {
    case FISK_PROTOCOLS.requestPrompt:
      return promptProblem(m);
    case FISK_PROTOCOLS.requestAnswer:
      if (m.prompt !== undefined) return "/prompt: an answer carries no prompt";
      return tokenProblem(m, true) ?? (m.answer === undefined ? "/answer: request.answer needs its answer" : answerProblem(m.answer)) ?? replayProblem(m, false);
    case FISK_PROTOCOLS.requestResume:
      if (m.prompt !== undefined) return "/prompt: a resume carries no prompt";
      if (m.replay !== undefined) return "/replay: a resume cannot ask for a replay";
      return tokenProblem(m, true);
    default:
      if (m.prompt !== undefined || m.answer !== undefined) return "/prompt: a read takes no turn: no prompt and no answer";
      return tokenProblem(m, true) ?? replayProblem(m, true);
  }
}

/** A cancel is the header and an optional reason. */
export function cancelShape(m: Record<string, unknown>): string | null {
  return m.reason === undefined || typeof m.reason === "string" ? null : "/reason: must be a string";
}

/** An answer or a waiting names its question; each answer carries its own field, even at its zero value. */
export function elicitShape(m: Record<string, unknown>): string | null {
  if (typeof m.question_id !== "string" || m.question_id === "") return "/question_id: must name the question";
  const kind = String(m.protocol).slice(REPLY_PREFIX.length);
  if (kind === "approve" && !["no", "once", "always"].includes(m.choice as string)) return "/choice: must be no, once or always";
  if (kind === "confirm" && typeof m.confirmed !== "boolean") return "/confirmed: must be true or false";
  if (kind === "select" && !(typeof m.index === "number" && Number.isInteger(m.index) && m.index >= 0)) return "/index: must be a whole number of at least 0";
  if (kind === "input" && (typeof m.value !== "string" || m.value.length > MAX_VALUE)) return `/value: must be a string of at most ${MAX_VALUE} characters`;
  return null;
}
