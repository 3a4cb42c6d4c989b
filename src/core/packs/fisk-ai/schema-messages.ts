import type { Generation } from "./generations.ts";
import { GEN2_EVENT_KINDS, NAMESPACE, QUESTION_KINDS, REPLY_KINDS, type QuestionKind } from "./protocol.ts";
import { blockDef, bool, count, type Defs, ref, type Schema, str, strings } from "./schema-parts.ts";

/**
 * One definition per message kind. Every message is the shared header plus its own fields, with
 * `protocol` pinned to its id; Gen 1 closes each message with `unevaluatedProperties: false`.
 */

const pin = (suffix: string): Schema => ({ const: `${NAMESPACE}.${suffix}` });

function message(gen: Generation, protocol: Schema, own: Schema, required: readonly string[] = [], forbidden: readonly string[] = []): Schema {
  const properties: Schema = { protocol, ...own };
  // A `false` schema refuses a property that belongs to a sibling kind of the same family.
  for (const name of forbidden) properties[name] = false;
  const schema: Schema = { allOf: [ref("header")], properties };
  if (required.length > 0) schema.required = [...required];
  if (gen.strict) schema.unevaluatedProperties = false;
  return schema;
}

/** Messages whose id both generations use; Gen 2 adds fields to several. */
function sharedMessages(gen: Generation): Defs {
  const gen2 = gen.generation === 2;
  const card: Schema = { name: str(), version: str(), description: str() };
  if (gen2) card.model = str({ maxLength: 128 });
  card.protocols = strings();
  card.tools = { type: "array", items: ref("toolDescriptor") };
  if (gen2) Object.assign(card, { telemetry: bool(), telemetry_content: bool() });

  const ack: Schema = { accepted: bool(), reason: str() };
  if (gen2) Object.assign(ack, { conversation_token: ref("conversationToken"), max_tokens: count() });

  const reply: Schema = { is_error: bool() };
  if (gen2) reply.code = str();
  Object.assign(reply, { output: str(), exec: ref("execResult") });

  const telemetry: Schema = gen2 ? { trace_id: str(), content_exported: bool() } : {};
  const result: Schema = { stop_reason: ref("stopReason"), text: str(), usage: ref("usage"), ...telemetry };
  const error: Schema = { stop_reason: ref("stopReason"), error: str(), code: str() };
  if (gen2) Object.assign(error, { usage: ref("usage"), ...telemetry });

  return {
    DiscoveryRequest: message(gen, pin("discovery.request"), {}),
    DiscoveryReply: message(gen, pin("discovery.reply"), card, ["name", "version"]),
    ToolRequest: message(gen, pin("tool.request"), { name: str(), input: { type: "object" } }, ["name"]),
    ToolReply: message(gen, pin("tool.reply"), reply),
    Ack: message(gen, pin("ack"), ack, ["accepted"]),
    Result: message(gen, pin("result"), result, ["stop_reason"]),
    Error: message(gen, pin("error"), error, ["error"]),
    Cancel: message(gen, pin("cancel"), { reason: str() }),
  };
}

function gen1Messages(gen: Generation): Defs {
  const request = {
    prompt: str(),
    context: str(),
    tool_hints: strings(),
    budget: ref("budget"),
    stream: { type: "boolean", default: true },
  };
  return {
    Request: message(gen, pin("request"), request, ["prompt"]),
    Event: message(gen, pin("event"), { block: ref("block") }, ["block"]),
  };
}

/** The four request ids share one struct; each refuses the fields that belong to another kind. */
function requestMessages(gen: Generation): Defs {
  const token = ref("conversationToken");
  const stream = { type: "boolean", default: true };
  const replay = { type: "integer", minimum: 1 };
  const turn = { budget: ref("budget"), stream, force: bool() };
  return {
    RequestPrompt: message(
      gen,
      pin("request.prompt"),
      { prompt: str({ minLength: 1 }), context: str(), tool_hints: strings(), ...turn, conversation_token: token, replay },
      ["prompt"],
      ["answer"],
    ),
    RequestAnswer: message(gen, pin("request.answer"), { conversation_token: token, answer: ref("answer"), ...turn, replay }, ["conversation_token", "answer"], ["prompt"]),
    RequestResume: message(gen, pin("request.resume"), { conversation_token: token, ...turn }, ["conversation_token"], ["prompt", "answer", "replay"]),
    RequestRead: message(gen, pin("request.read"), { conversation_token: token, replay }, ["conversation_token", "replay"], ["prompt", "answer"]),
  };
}

const pascal = (s: string): string => s.replace(/(^|[._])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());

function eventMessages(gen: Generation): Defs {
  const defs: Defs = {};
  for (const kind of GEN2_EVENT_KINDS) {
    defs[`Event${pascal(kind)}`] = message(gen, pin(`event.${kind}`), { block: ref(blockDef(kind)) }, ["block"]);
  }
  // An event kind this build does not name: only its framing is checked, and it is kept as is.
  const anyKind = str({ pattern: "^io\\.choria\\.fisk-ai\\.v1\\.event\\.[^.]+$" });
  defs.EventUnknownKind = message(gen, anyKind, { block: { type: "object" } }, ["block"]);
  return defs;
}

const QUESTION_FIELDS: Record<QuestionKind, { own: Schema; required: string[] }> = {
  approve: { own: { command: str(), display: str(), tag: str() }, required: ["command", "display"] },
  confirm: { own: { question: str() }, required: ["question"] },
  select: { own: { question: str(), options: strings() }, required: ["question", "options"] },
  input: { own: { question: str(), default: str() }, required: ["question"] },
};
const ALL_QUESTION_FIELDS = ["command", "display", "tag", "question", "options", "default"];

const ANSWER_FIELDS: Record<string, Schema> = {
  approve: { choice: ref("elicitChoice") },
  confirm: { confirmed: bool() },
  select: { index: count() },
  input: { value: ref("elicitValue") },
  no_operator: {},
};
const ALL_ANSWER_FIELDS = ["choice", "confirmed", "index", "value"];

function elicitMessages(gen: Generation): Defs {
  const defs: Defs = {};
  for (const kind of QUESTION_KINDS) {
    const { own, required } = QUESTION_FIELDS[kind];
    const forbidden = ALL_QUESTION_FIELDS.filter((f) => !(f in own));
    const fields = { question_id: ref("questionId"), tool_use_id: ref("toolUseId"), ...own, wait_ms: ref("waitMs") };
    defs[`ElicitRequest${pascal(kind)}`] = message(gen, pin(`elicit.request.${kind}`), fields, ["question_id", ...required], forbidden);
  }
  for (const kind of REPLY_KINDS) {
    const own = ANSWER_FIELDS[kind] ?? {};
    const forbidden = ALL_ANSWER_FIELDS.filter((f) => !(f in own));
    defs[`ElicitReply${pascal(kind)}`] = message(gen, pin(`elicit.reply.${kind}`), { question_id: ref("questionId"), ...own }, ["question_id", ...Object.keys(own)], forbidden);
  }
  // Restarts the question's window; carries no answer.
  defs.ElicitWaiting = message(gen, pin("elicit.waiting"), { question_id: ref("questionId") }, ["question_id"], ALL_ANSWER_FIELDS);
  return defs;
}

/** Every message definition of a generation. */
export function messageDefs(gen: Generation): Defs {
  if (gen.generation === 1) return { ...sharedMessages(gen), ...gen1Messages(gen) };
  return { ...sharedMessages(gen), ...requestMessages(gen), ...eventMessages(gen), ...elicitMessages(gen) };
}
