/**
 * Reading recorded NATS traffic back into steps: a fisk-ai tool.request on a tool subject is a
 * tool call to that identity, a request.prompt on a task subject a task, anything else a plain
 * request; and what the recorded replies came to, in the words the NATS executor uses.
 */
import { SERVICE_ERROR_CODE } from "../fisk/client/reply-set.ts";
import { FISK_PROTOCOLS } from "../fisk/codec/protocol-ids.ts";
import { SUBJECT_PREFIX } from "../fisk/codec/subjects.ts";
import { isJsonObject } from "../json/json-object.ts";
import type { WireEntry } from "../wire/wire-entry.ts";
import type { Assertion, NatsAction } from "./collection-types.ts";

const TOOL_SUBJECT = new RegExp(`^${SUBJECT_PREFIX.replace(/\./g, "\\.")}\\.tool\\.([^.]+)$`);
const TASK_SUBJECT = new RegExp(`^${SUBJECT_PREFIX.replace(/\./g, "\\.")}\\.task\\.([^.]+)$`);
const NOT_AVAILABLE = /^tool ".*" is not available$/s;

/** One header value per name, as a request action carries them; repeated values joined by ", ". */
function singleHeaders(h: Readonly<Record<string, readonly string[]>> | undefined): Record<string, string> | undefined {
  if (!h) return undefined;
  const pairs = Object.entries(h).filter(([, v]) => v.length > 0).map(([k, v]): [string, string] => [k, v.join(", ")]);
  return pairs.length > 0 ? Object.fromEntries(pairs) : undefined;
}

/** The action an outgoing NATS frame was; `payload` is its text. */
export function readNatsRequest(e: WireEntry, payload: string): NatsAction {
  const json = e.decoded.json;
  const tool = TOOL_SUBJECT.exec(e.target);
  if (tool && isJsonObject(json) && json.protocol === FISK_PROTOCOLS.toolRequest && typeof json.name === "string") {
    const input = isJsonObject(json.input) ? json.input : undefined;
    return { protocol: "nats", kind: "tool", identity: tool[1]!, tool: json.name, ...(input ? { input } : {}) };
  }
  const task = TASK_SUBJECT.exec(e.target);
  const prompted = isJsonObject(json) && (json.protocol === FISK_PROTOCOLS.requestPrompt || json.protocol === FISK_PROTOCOLS.gen1Request);
  if (task && prompted && typeof json.prompt === "string") return { protocol: "nats", kind: "task", identity: task[1]!, text: json.prompt };
  const headers = singleHeaders(e.headers);
  return { protocol: "nats", kind: "request", subject: e.target, payload, ...(headers ? { headers } : {}) };
}

const timedOut = (r: WireEntry): boolean => r.status === 408 || /timeout|timed out/i.test(r.note ?? "");

function failure(responses: readonly WireEntry[]): Assertion | undefined {
  if (responses.some((r) => r.status === 503)) return { kind: "outcome", is: "no-responders" };
  if (responses.some(timedOut)) return { kind: "outcome", is: "timeout" };
  const refused = responses.find((r) => r.bytes.byteLength === 0 && r.headers?.[SERVICE_ERROR_CODE]?.[0] !== undefined);
  const code = refused?.headers?.[SERVICE_ERROR_CODE]?.[0];
  if (code !== undefined) return /^-?\d+$/.test(code) ? { kind: "outcome", is: "refused", code: Number(code) } : { kind: "outcome", is: "refused" };
  return undefined;
}

function toolOutcome(reply: Record<string, unknown>): Assertion {
  if (reply.code === "capacity") return { kind: "outcome", is: "capacity-refusal" };
  if (reply.is_error === true) return { kind: "outcome", is: typeof reply.output === "string" && NOT_AVAILABLE.test(reply.output) && !reply.code ? "not-available" : "is-error" };
  const exit = isJsonObject(reply.exec) ? reply.exec.exit_code : undefined;
  if (typeof exit === "number" && exit !== 0) return { kind: "outcome", is: "exit-code", code: exit };
  return { kind: "outcome", is: "result" };
}

/** The outcome the recorded replies support, or undefined when they support none for sure. */
export function natsOutcomeAssertion(action: NatsAction, responses: readonly WireEntry[]): Assertion | undefined {
  const failed = failure(responses);
  if (failed) return failed;
  if (action.kind === "tool") {
    const reply = responses.find((r) => r.decoded.protocolId === FISK_PROTOCOLS.toolReply)?.decoded.json;
    return isJsonObject(reply) ? toolOutcome(reply) : undefined;
  }
  if (action.kind === "task") {
    const end = [...responses].reverse().find((r) => r.decoded.protocolId === FISK_PROTOCOLS.result || r.decoded.protocolId === FISK_PROTOCOLS.error);
    const json = end?.decoded.json;
    if (!end || !isJsonObject(json)) return undefined;
    if (end.decoded.protocolId === FISK_PROTOCOLS.result) return { kind: "outcome", is: "result" };
    if (json.code === "capacity") return { kind: "outcome", is: "capacity-refusal" };
    return { kind: "outcome", is: "task-state", state: typeof json.code === "string" ? json.code : "error" };
  }
  const reply = responses.find((r) => r.bytes.byteLength > 0 || r.note === undefined);
  return reply ? { kind: "outcome", is: "result" } : undefined;
}

/** The body the harness reads pointers in: the last reply with a payload, parsed when JSON. */
export function natsRecordedBody(responses: readonly WireEntry[]): unknown {
  for (let i = responses.length - 1; i >= 0; i--) {
    const r = responses[i]!;
    if (r.bytes.byteLength === 0) continue;
    return r.decoded.json ?? new TextDecoder().decode(r.bytes);
  }
  return undefined;
}
