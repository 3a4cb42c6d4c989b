import { formatPointer, isJsonObject } from "../../json/index.ts";
import type { Issue, IssueSeverity, MessageKind } from "../../validation/types.ts";
import { V1_ERRORS } from "./notes.ts";
import { A2A_V10 } from "./v1-0.ts";
import { planOf, type SchemaPlan } from "./rules-v1-plan.ts";
import { ONEOF_GROUPS, OMITTABLE_REQUIRED, ROLES, TASK_STATES } from "./v1-0-model.ts";

/**
 * v1.0 rules the JSON schema cannot state, found by walking the message along the pack's own
 * definitions: proto oneofs, REQUIRED members ProtoJSON omits, enum spellings, version strings,
 * and hints for v0.x members and snake_case names the schema refuses.
 */

type Json = Record<string, unknown>;
type SchemaNode = Readonly<Record<string, unknown>>;

const DEFS = A2A_V10.document.$defs as Readonly<Record<string, SchemaNode>>;
const MAX_DEPTH = 64;

/** Enum members, with the enum's value names: numbers and *_UNSPECIFIED parse, but writers send names of real values. */
const ENUM_MEMBERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  TaskStatus: { state: TASK_STATES },
  Message: { role: ROLES },
  ListTasksRequest: { status: TASK_STATES },
};

const ENUM_ENTRIES = new Map(Object.entries(ENUM_MEMBERS).map(([def, members]) => [def, Object.entries(members)]));

/** Members of v0.x or of the v1.0.0 sample card that the proto lacks, with what to write instead. */
const LEGACY_HINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  AgentCard: {
    security: "v1.0 names card-level requirements securityRequirements: [{schemes: {<name>: {list: [scopes]}}}] (the v1.0.0 spec's own sample card still writes security)",
    url: "v1.0 cards list their endpoints in supportedInterfaces [{url, protocolBinding, protocolVersion}]",
    preferredTransport: "v1.0 cards list endpoints in supportedInterfaces, the first preferred",
    additionalInterfaces: "v1.0 cards list endpoints in supportedInterfaces",
    protocolVersion: "v1.0 declares protocolVersion per entry of supportedInterfaces",
    supportsAuthenticatedExtendedCard: "v1.0 moved this to capabilities.extendedAgentCard",
  },
  AgentCapabilities: {
    stateTransitionHistory: "v1.0 dropped stateTransitionHistory (the v1.0.0 spec's own sample card still has it)",
  },
  AgentSkill: { security: "v1.0 names skill-level requirements securityRequirements" },
  Task: { kind: "v1.0 has no kind discriminator" },
  Message: { kind: "v1.0 has no kind discriminator" },
  TaskStatusUpdateEvent: { kind: "v1.0 has no kind discriminator", final: "v1.0 has no final flag: the stream ends after a terminal or interrupted state" },
  TaskArtifactUpdateEvent: { kind: "v1.0 has no kind discriminator" },
  Part: {
    kind: "v1.0 parts have no kind: set exactly one of text, raw, url or data",
    type: "v1.0 parts have no type: set exactly one of text, raw, url or data",
    file: "v1.0 puts file content in raw (base64) or url, with filename and mediaType",
    mimeType: "v1.0 names it mediaType",
  },
  SendMessageConfiguration: {
    blocking: "v1.0 replaced blocking with returnImmediately (inverted)",
    pushNotificationConfig: "v1.0 names it taskPushNotificationConfig",
  },
};

function issue(pointer: string, rule: string, message: string, severity: IssueSeverity): Issue {
  return { pointer, message, severity, source: "rule", rule };
}

/** The walk keeps its place as a token stack; a pointer string is made only for an issue. */
type Path = string[];
const here = (path: Path): string => formatPointer(path);
const at = (path: Path, key: string): string => formatPointer([...path, key]);
const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_m: string, c: string) => c.toUpperCase());
const listWords = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]!}`;

/** What the walk checks at one definition, looked up once per definition rather than table by table at every object. */
interface DefinitionRules {
  readonly def: string;
  readonly plan: SchemaPlan;
  readonly oneof: { readonly name: string; readonly members: readonly string[] } | undefined;
  readonly omittable: readonly string[];
  readonly enums: readonly (readonly [string, readonly string[]])[] | undefined;
  readonly hints: Readonly<Record<string, string>> | undefined;
}

function oneofRule(rules: DefinitionRules, value: Json, path: Path, issues: Issue[]): void {
  const group = rules.oneof;
  if (!group) return;
  const def = rules.def;
  // Counted first: the usual case, exactly one set, builds no list.
  let count = 0;
  for (const m of group.members) if (m in value) count++;
  if (count === 1) return;
  const set = group.members.filter((m) => m in value);
  const choices = group.members.join(", ");
  const found = set.length === 0 ? "it sets none" : `it sets ${listWords(set)}`;
  const where = set.length > 1 ? at(path, set[1]!) : here(path);
  issues.push(issue(where, "a2a.v1.oneof", `A ${def} sets exactly one of ${choices} (the proto's oneof ${group.name}); ${found}.`, "error"));
}

const NO_MEMBERS: readonly string[] = [];

function omittedRule(rules: DefinitionRules, value: Json, path: Path, issues: Issue[]): void {
  const def = rules.def;
  for (const member of rules.omittable) {
    const present = value[member];
    if (present === undefined) {
      const text = `"${member}" is missing. The proto marks it REQUIRED, but ProtoJSON writers leave out empty lists, maps and zeros, so it reads as empty.`;
      issues.push(issue(here(path), "a2a.v1.omitted-default", text, "warning"));
    } else if (Array.isArray(present) && present.length === 0 && def !== "ListTasksResponse") {
      issues.push(issue(at(path, member), "a2a.v1.omitted-default", `"${member}" is empty; the spec asks a REQUIRED list for at least one element.`, "warning"));
    }
  }
  if (def === "AgentCard" && Array.isArray(value.supportedInterfaces) && value.supportedInterfaces.length === 0) {
    issues.push(issue(at(path, "supportedInterfaces"), "a2a.v1.no-interface", "supportedInterfaces is empty: the card names no endpoint to call.", "error"));
  }
}

function enumRule(rules: DefinitionRules, value: Json, path: Path, issues: Issue[]): void {
  const members = rules.enums;
  if (!members) return;
  const def = rules.def;
  for (const [member, names] of members) {
    const v = value[member];
    const name = typeof v === "number" ? names[v] : undefined;
    if (name !== undefined) {
      const text = `"${member}" is the number ${String(v)}. ProtoJSON parsers accept it, but writers send the name ${name} (spec §5.5).`;
      issues.push(issue(at(path, member), "a2a.v1.integer-enum", text, "warning"));
    } else if (typeof v === "string" && v.endsWith("_UNSPECIFIED") && def !== "ListTasksRequest") {
      issues.push(issue(at(path, member), "a2a.v1.unspecified-enum", `"${member}" is ${v}, the proto's "not set" value.`, "warning"));
    }
  }
}

function memberHints(rules: DefinitionRules, value: Json, path: Path, issues: Issue[]): void {
  const properties = rules.plan.properties;
  if (!properties) return;
  const hints = rules.hints;
  for (const key in value) {
    if (properties.has(key)) continue;
    const hint = hints && Object.hasOwn(hints, key) ? hints[key] : undefined;
    if (hint) issues.push(issue(at(path, key), "a2a.v1.legacy-member", `"${key}" is not a v1.0 member: ${hint}.`, "warning"));
    else if (key.includes("_") && properties.has(camel(key))) {
      issues.push(issue(at(path, key), "a2a.v1.snake-case", `Write "${camel(key)}", not "${key}": v1.0 JSON uses camelCase names (spec §5.5).`, "warning"));
    }
  }
}

function visit(rules: DefinitionRules, value: Json, path: Path, issues: Issue[]): void {
  oneofRule(rules, value, path, issues);
  omittedRule(rules, value, path, issues);
  enumRule(rules, value, path, issues);
  memberHints(rules, value, path, issues);
  const def = rules.def;
  if (def === "AgentInterface" && typeof value.protocolVersion === "string" && !/^\d+\.\d+$/.test(value.protocolVersion)) {
    const text = `protocolVersion "${value.protocolVersion}" should be Major.Minor, such as "1.0": v1.0 versions carry no patch number.`;
    issues.push(issue(at(path, "protocolVersion"), "a2a.v1.version-format", text, "warning"));
  }
  if (def === "OAuthFlows") {
    for (const flow of ["implicit", "password"]) {
      if (flow in value) issues.push(issue(at(path, flow), "a2a.v1.deprecated-flow", `The ${flow} OAuth flow is deprecated in v1.0.`, "warning"));
    }
  }
}

/** Each definition's plan and rules by name, so a $ref costs one map read. */
const DEFINITION_RULES = new Map<string, DefinitionRules>();

function definitionRules(def: string): DefinitionRules | undefined {
  let rules = DEFINITION_RULES.get(def);
  if (rules === undefined && Object.hasOwn(DEFS, def)) {
    rules = { def, plan: planOf(DEFS[def]), oneof: ONEOF_GROUPS[def], omittable: OMITTABLE_REQUIRED[def] ?? NO_MEMBERS, enums: ENUM_ENTRIES.get(def), hints: LEGACY_HINTS[def] };
    DEFINITION_RULES.set(def, rules);
  }
  return rules;
}

function walkDefinition(def: string, value: unknown, path: Path, issues: Issue[], depth: number): void {
  const rules = definitionRules(def);
  if (!rules || depth > MAX_DEPTH) return;
  if (isJsonObject(value)) visit(rules, value, path, issues);
  walkSchema(rules.plan, value, path, issues, depth + 1);
}

function walkSchema(plan: SchemaPlan, value: unknown, path: Path, issues: Issue[], depth: number): void {
  if (plan.definition !== null) {
    walkDefinition(plan.definition, value, path, issues, depth);
    return;
  }
  if (Array.isArray(value)) {
    const items = plan.items;
    if (items === null || items.leaf) return;
    for (let i = 0; i < value.length; i++) {
      path.push(String(i));
      walkSchema(items, value[i], path, issues, depth);
      path.pop();
    }
    return;
  }
  if (!isJsonObject(value) || plan.leaf) return;
  for (const key in value) {
    const sub = plan.properties?.get(key) ?? plan.extra;
    if (sub === null || sub.leaf) continue;
    path.push(key);
    walkSchema(sub, value[key], path, issues, depth);
    path.pop();
  }
}

const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";

function errorInfoRule(value: unknown, issues: Issue[]): void {
  const error = isJsonObject(value) ? value.error : undefined;
  if (!isJsonObject(error) || typeof error.code !== "number" || error.code > -32001 || error.code < -32099) return;
  const data = error.data;
  const info = Array.isArray(data) ? data.find((d) => isJsonObject(d) && d["@type"] === ERROR_INFO) : undefined;
  if (info === undefined) {
    const text = `An A2A error (code ${error.code}) carries a google.rpc.ErrorInfo ("@type": "${ERROR_INFO}") in an error.data array (spec §9.5).`;
    issues.push(issue(data === undefined ? "/error" : "/error/data", "a2a.v1.error-info", text, "warning"));
    return;
  }
  const expected = V1_ERRORS[error.code]?.reason;
  const reason = isJsonObject(info) ? info.reason : undefined;
  if (expected && reason !== expected) {
    const text = `The ErrorInfo reason is ${JSON.stringify(reason)}; code ${error.code} pairs with "${expected}" (spec §9.5).`;
    issues.push(issue("/error/data", "a2a.v1.error-info", text, "warning"));
  }
}

/** Every v1.0 rule issue of a message of the given kind, added to `issues` when given. */
export function rulesV1(value: unknown, kind: MessageKind, issues: Issue[] = []): Issue[] {
  walkDefinition(kind.definition, value, [], issues, 0);
  if (kind.role === "error") errorInfoRule(value, issues);
  return issues;
}
