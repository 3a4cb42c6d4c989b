import { isJsonObject } from "../../json/index.ts";
import type { Candidate, SchemaPack } from "../../validation/types.ts";
import { decided, GENERATION, ranked, V02_PLUS, type Pinning } from "./catalog.ts";
import { KIND, resultKindId } from "./pack-kit.ts";
import { A2A_V01 } from "./v0-1.ts";
import { A2A_V02 } from "./v0-2.ts";
import { A2A_V03 } from "./v0-3.ts";
import { A2A_V10 } from "./v1-0.ts";

/** Recognition by shape, for results whose request was not seen, cards and bare objects. */

type Json = Record<string, unknown>;

const UNSEEN = "no request with its id was seen, so the method is a guess";

/** A v1.0 enum value: a ProtoJSON name with the given prefix, or a number. */
function protoEnum(value: unknown, prefix: string): boolean {
  return (typeof value === "string" && value.startsWith(prefix)) || typeof value === "number";
}

const v1State = (status: unknown): boolean => isJsonObject(status) && protoEnum(status.state, "TASK_STATE_");
const isObject = (value: unknown): boolean => isJsonObject(value);

/** The stream-event kind of one frame of a streaming method, from the frame's result. */
export function streamKindFor(pack: SchemaPack, result: unknown): string {
  if (pack === A2A_V10 || !isJsonObject(result)) return pack === A2A_V01 ? KIND.streamStatus : KIND.streamEvent;
  if (pack === A2A_V01) return "artifact" in result ? KIND.streamArtifact : KIND.streamStatus;
  if (result.kind === "status-update") return KIND.streamStatus;
  if (result.kind === "artifact-update") return KIND.streamArtifact;
  return KIND.streamEvent;
}

/** Several kinds of the v0.2/v0.3 packs at falling scores, the first the likeliest. */
function v02Guesses(kinds: readonly string[], base: number, evidence: readonly string[], pin: Pinning): Candidate[] {
  return kinds.flatMap((kindId, i) => ranked(V02_PLUS, kindId, base - i * 0.05, evidence, pin));
}

function byKind(kindValue: string, pin: Pinning): Candidate[] {
  const evidence = [`result.kind is "${kindValue}" (v0.2 and later)`];
  switch (kindValue) {
    case "task":
      return v02Guesses(
        [resultKindId("message/send"), KIND.streamEvent, resultKindId("tasks/get"), resultKindId("tasks/cancel")],
        0.85,
        [...evidence, `${UNSEEN}: message/send, tasks/get and tasks/cancel all answer with a Task`],
        pin,
      );
    case "message":
      return v02Guesses([resultKindId("message/send"), KIND.streamEvent], 0.85, [...evidence, UNSEEN], pin);
    case "status-update":
      return v02Guesses([KIND.streamStatus], 0.9, [...evidence, "a message/stream or tasks/resubscribe frame"], pin);
    case "artifact-update":
      return v02Guesses([KIND.streamArtifact], 0.9, [...evidence, "a message/stream or tasks/resubscribe frame"], pin);
    default:
      return [];
  }
}

const v1 = (method: string, score: number, why: string): Candidate => decided(A2A_V10, resultKindId(method), score, [why, UNSEEN]);

function v1Result(result: Json): Candidate[] | null {
  if (isObject(result.statusUpdate) || isObject(result.artifactUpdate)) {
    return [decided(A2A_V10, KIND.streamEvent, 0.9, ["result has statusUpdate or artifactUpdate: a v1.0 StreamResponse"])];
  }
  if (isObject(result.task) || isObject(result.message)) {
    const why = "result wraps a task or message by member name (v1.0)";
    return [v1("SendMessage", 0.9, why), decided(A2A_V10, KIND.streamEvent, 0.88, [why, UNSEEN])];
  }
  if (Array.isArray(result.tasks)) return [v1("ListTasks", 0.9, "result has a tasks list (v1.0 ListTasks)")];
  if (Array.isArray(result.configs)) return [v1("ListTaskPushNotificationConfigs", 0.9, "result has a configs list (v1.0)")];
  if ("supportedInterfaces" in result) return [v1("GetExtendedAgentCard", 0.9, "result is a card with supportedInterfaces (v1.0)")];
  if (typeof result.id === "string" && v1State(result.status)) {
    const why = "result is a Task whose state is a TASK_STATE_ name (v1.0)";
    return [v1("GetTask", 0.85, why), v1("CancelTask", 0.84, why)];
  }
  return null;
}

function v01OrLegacyTask(result: Json, pin: Pinning): Candidate[] {
  if ("contextId" in result) {
    // A v0.2+ Task that lost its kind: report it against v0.2+, with v0.1 far behind.
    const evidence = ["result has id, status and contextId but no kind: a v0.2+ Task missing its discriminator"];
    return [...v02Guesses([resultKindId("message/send")], 0.8, evidence, pin), decided(A2A_V01, resultKindId("tasks/send"), 0.5, evidence)];
  }
  if ("final" in result) return [decided(A2A_V01, KIND.streamStatus, 0.9, ["result has id, status and final: a v0.1 status update"])];
  const why = ["result is a Task without kind (v0.1)", `${UNSEEN}: tasks/send, tasks/get and tasks/cancel all answer with a Task`];
  return [
    decided(A2A_V01, resultKindId("tasks/send"), 0.85, why),
    decided(A2A_V01, resultKindId("tasks/get"), 0.8, why),
    decided(A2A_V01, resultKindId("tasks/cancel"), 0.79, why),
  ];
}

const PUSH_DELETE = resultKindId("tasks/pushNotificationConfig/delete");
const PUSH_LIST = resultKindId("tasks/pushNotificationConfig/list");
const PUSH_SET_GET = [resultKindId("tasks/pushNotificationConfig/set"), resultKindId("tasks/pushNotificationConfig/get")];

function isEmpty(value: Json): boolean {
  for (const _key in value) return false;
  return true;
}

function pushConfigResult(result: Json, pin: Pinning): Candidate[] | null {
  if (isObject(result.pushNotificationConfig)) {
    const why = ["result is a task's push notification config", UNSEEN];
    if ("taskId" in result) return v02Guesses(PUSH_SET_GET, 0.8, why, pin);
    return [
      decided(A2A_V01, resultKindId("tasks/pushNotification/set"), 0.8, why),
      decided(A2A_V01, resultKindId("tasks/pushNotification/get"), 0.75, why),
    ];
  }
  if (typeof result.url === "string" && ("taskId" in result || "id" in result)) {
    const why = ["result is a v1.0 TaskPushNotificationConfig (url at top level)", UNSEEN];
    return [
      decided(A2A_V10, resultKindId("CreateTaskPushNotificationConfig"), 0.8, why),
      decided(A2A_V10, resultKindId("GetTaskPushNotificationConfig"), 0.75, why),
    ];
  }
  return null;
}

/**
 * A result whose telling members are there but broken (a kind misspelt or of the wrong type, an
 * id or status of the wrong type, a discriminator gone) is still judged as what its other members
 * make it, less surely, so the verdict points at what broke.
 */
function nearResult(result: Json, pin: Pinning): Candidate[] | null {
  const why = (what: string): string[] => [`result has ${what}, though not all as A2A defines them`, UNSEEN];
  const discriminated = "kind" in result;
  if ("messageId" in result && "parts" in result) return v02Guesses([resultKindId("message/send"), KIND.streamEvent], 0.6, why("a message's messageId and parts"), pin);
  if ("taskId" in result && "artifact" in result) return v02Guesses([KIND.streamArtifact], 0.6, why("taskId and artifact"), pin);
  if ("taskId" in result && "status" in result && !("pushNotificationConfig" in result)) return v02Guesses([KIND.streamStatus], 0.6, why("taskId and status"), pin);
  if ("id" in result && "status" in result) {
    if (discriminated || "contextId" in result) return v02Guesses([resultKindId("message/send"), KIND.streamEvent, resultKindId("tasks/get")], 0.6, why("a task's id and status"), pin);
    return [decided(A2A_V01, resultKindId("tasks/send"), 0.6, why("a task's id and status")), decided(A2A_V01, KIND.streamStatus, 0.55, why("id and status"))];
  }
  if ("id" in result && "artifact" in result) return [decided(A2A_V01, KIND.streamArtifact, 0.6, why("id and artifact"))];
  if ("pushNotificationConfig" in result) {
    if ("taskId" in result) return v02Guesses(PUSH_SET_GET, 0.6, why("a push notification config"), pin);
    return [decided(A2A_V01, resultKindId("tasks/pushNotification/set"), 0.6, why("a push notification config"))];
  }
  if ("name" in result && "skills" in result && "url" in result) {
    return [decided(A2A_V03, resultKindId("agent/getAuthenticatedExtendedCard"), 0.6, why("an Agent Card's name, skills and url"))];
  }
  return null;
}

/** Candidates for a success response whose request was not seen. */
export function resultCandidates(result: unknown, pin: Pinning): Candidate[] {
  if (result === null) {
    const evidence = ["result is null: tasks/pushNotificationConfig/delete answers so", UNSEEN];
    return [...v02Guesses([PUSH_DELETE], 0.55, evidence, pin), decided(A2A_V10, resultKindId("DeleteTaskPushNotificationConfig"), 0.5, evidence)];
  }
  if (Array.isArray(result)) return v02Guesses([PUSH_LIST], 0.7, ["result is a list: tasks/pushNotificationConfig/list", UNSEEN], pin);
  if (!isJsonObject(result)) return [];
  if (typeof result.kind === "string") {
    const named = byKind(result.kind, pin);
    if (named.length > 0) return named;
  }
  const v1 = v1Result(result);
  if (v1) return v1;
  if (typeof result.name === "string" && Array.isArray(result.skills) && typeof result.url === "string") {
    const why = ["result is an Agent Card with url (v0.3 extended card)", UNSEEN];
    return [decided(A2A_V03, resultKindId("agent/getAuthenticatedExtendedCard"), 0.85, why)];
  }
  if (typeof result.id === "string" && isObject(result.status)) return v01OrLegacyTask(result, pin);
  if (typeof result.id === "string" && isObject(result.artifact)) {
    return [decided(A2A_V01, KIND.streamArtifact, 0.9, ["result has id and artifact: a v0.1 artifact update"])];
  }
  const near = nearResult(result, pin);
  if (near) return near;
  const push = pushConfigResult(result, pin);
  if (push) return push;
  if (isEmpty(result)) {
    const why = ["result is {} (google.protobuf.Empty): v1.0 DeleteTaskPushNotificationConfig", UNSEEN];
    return [decided(A2A_V10, resultKindId("DeleteTaskPushNotificationConfig"), 0.4, why)];
  }
  return [];
}

/** Members only an Agent Card has (of some version): one of them beside a name is a card, however broken. */
const CARD_ONLY: readonly string[] = [
  "skills",
  "capabilities",
  "defaultInputModes",
  "defaultOutputModes",
  "provider",
  "securitySchemes",
  "securityRequirements",
  "protocolVersion",
  "documentationUrl",
  "iconUrl",
  "preferredTransport",
  "additionalInterfaces",
  "supportedInterfaces",
  "authentication",
  "supportsAuthenticatedExtendedCard",
  "signatures",
];

function cardMembers(value: Json): string[] {
  return CARD_ONLY.filter((key) => key in value);
}

/**
 * Agent Cards: `name` plus `url` or `supportedInterfaces` with skills or card members, or a name
 * beside card-only members (a card that lost its url is still a card, and invalid as one); null
 * when not a card.
 */
export function cardCandidates(value: Json, pin: Pinning): Candidate[] | null {
  if (typeof value.name !== "string") return null;
  const interfaces = "supportedInterfaces" in value;
  const located = interfaces || typeof value.url === "string";
  const skills = Array.isArray(value.skills);
  const members = located ? [] : cardMembers(value);
  if (located && !skills && !("capabilities" in value) && !("version" in value)) return null;
  if (!located && members.length === 0) return null;
  const marked = interfaces || "protocolVersion" in value || "authentication" in value || "securitySchemes" in value;
  const whole = skills ? 0.95 : marked ? 0.8 : 0.7;
  const base = located ? whole : skills ? 0.9 : Math.min(0.85, 0.5 + 0.1 * members.length);
  const seen = located
    ? [`has name, ${skills ? "skills, " : ""}${interfaces ? "supportedInterfaces" : "url"}: an Agent Card`]
    : [`has name and ${members.join(", ")}, members only an Agent Card has, but no url: a broken Agent Card`];
  const gap = base - 0.35;
  const declared = typeof value.protocolVersion === "string" ? value.protocolVersion : "";
  // A v0.x card that lists supportedInterfaces besides its url (the a2a-js SDK's v0.3 card) declares its version itself.
  if (interfaces && typeof value.url === "string" && /^0\.[23]/.test(declared)) {
    const why = [...seen, `protocolVersion is "${declared}" beside a url; its supportedInterfaces are for v1.0 clients`];
    const pack = declared.startsWith("0.3") ? A2A_V03 : A2A_V02;
    return [decided(pack, KIND.card, base, why, "declared"), decided(A2A_V10, KIND.card, gap, why)];
  }
  if (interfaces) {
    const why = [...seen, "supportedInterfaces marks the v1.0 card"];
    return [decided(A2A_V10, KIND.card, base, why), decided(A2A_V03, KIND.card, gap, why)];
  }
  const version = value.protocolVersion;
  if (typeof version === "string") {
    const why = [...seen, `protocolVersion is "${version}"`];
    if (version.startsWith("0.3")) return [decided(A2A_V03, KIND.card, base, why, "declared"), decided(A2A_V02, KIND.card, gap, why)];
    if (version.startsWith("0.2")) return [decided(A2A_V02, KIND.card, base, why, "declared"), decided(A2A_V03, KIND.card, gap, why)];
    if (version.startsWith("0.1")) {
      const v01 = [...why, "v0.1 cards carry no protocolVersion"];
      return [decided(A2A_V01, KIND.card, base, v01, "declared"), decided(A2A_V02, KIND.card, gap, v01)];
    }
    if (/^1(\.|$)/.test(version)) {
      const v1 = [...why, "v1.0 cards name their version in supportedInterfaces"];
      return [decided(A2A_V10, KIND.card, base, v1, "declared"), decided(A2A_V03, KIND.card, gap, v1)];
    }
    const odd = [...why, "a card-level protocolVersion is a v0.2.5+/v0.3 member"];
    return [decided(A2A_V03, KIND.card, base - 0.1, odd), decided(A2A_V02, KIND.card, base - 0.11, odd), decided(A2A_V10, KIND.card, gap, odd)];
  }
  if ("authentication" in value) {
    const why = [...seen, "authentication marks the v0.1 card"];
    return [decided(A2A_V01, KIND.card, base, why), decided(A2A_V02, KIND.cardBefore025, gap, why)];
  }
  if ("securitySchemes" in value) {
    const why = [...seen, "securitySchemes without protocolVersion marks a v0.2.0–v0.2.4 card"];
    return [decided(A2A_V02, KIND.cardBefore025, base, why), decided(A2A_V03, KIND.card, gap, why), decided(A2A_V01, KIND.card, gap - 0.01, why)];
  }
  const why = [...seen, "no member marks its version"];
  const unpinned = [
    decided(A2A_V03, KIND.card, base - 0.1, why),
    decided(A2A_V02, KIND.cardBefore025, base - 0.11, why),
    decided(A2A_V01, KIND.card, base - 0.12, why),
  ];
  return pin.pack || pin.generation ? unpinned.map((c) => pinned(c, pin)) : unpinned;
}

function pinned(candidate: Candidate, pin: Pinning): Candidate {
  const agrees = pin.pack ? pin.pack === candidate.pack : pin.generation === GENERATION.get(candidate.pack);
  return agrees ? candidate : { ...candidate, score: candidate.score - 0.35 };
}

const BARE_KINDS: ReadonlyMap<string, string> = new Map([
  ["task", KIND.task],
  ["message", KIND.message],
  ["status-update", KIND.statusEvent],
  ["artifact-update", KIND.artifactEvent],
]);

/** Bare protocol objects: a Task or Message outside JSON-RPC, a REST stream frame, a push body. */
export function payloadCandidates(value: Json, pin: Pinning): Candidate[] {
  const kindValue = value.kind;
  if (typeof kindValue === "string") {
    const evidence = [`kind is "${kindValue}" (v0.2 and later) outside JSON-RPC`];
    const kindId = BARE_KINDS.get(kindValue);
    return kindId ? ranked(V02_PLUS, kindId, 0.6, evidence, pin) : [];
  }
  if (isObject(value.task) || isObject(value.message) || isObject(value.statusUpdate) || isObject(value.artifactUpdate)) {
    return [decided(A2A_V10, KIND.streamResponse, 0.6, ["wraps a task, message or update by member name: a v1.0 StreamResponse"])];
  }
  if (typeof value.id === "string" && isObject(value.status)) {
    if (v1State(value.status)) return [decided(A2A_V10, KIND.task, 0.55, ["a Task whose state is a TASK_STATE_ name (v1.0)"])];
    if ("contextId" in value) return ranked(V02_PLUS, KIND.task, 0.55, ["a Task with contextId but no kind (v0.2+ needs kind)"], pin);
    return [decided(A2A_V01, KIND.task, 0.5, ["a Task without kind or contextId (v0.1)"])];
  }
  if (Array.isArray(value.parts) && "role" in value) {
    if (protoEnum(value.role, "ROLE_")) return [decided(A2A_V10, KIND.message, 0.55, ["a Message whose role is a ROLE_ name (v1.0)"])];
    if ("messageId" in value) return ranked(V02_PLUS, KIND.message, 0.55, ["a Message with messageId but no kind (v0.2+ needs kind)"], pin);
    return [decided(A2A_V01, KIND.message, 0.5, ["a Message without kind or messageId (v0.1)"])];
  }
  return [];
}
