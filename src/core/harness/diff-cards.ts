/**
 * Two agent cards compared: an A2A Agent Card of any dialect (the dialect each reads as, the
 * interfaces a client can reach, skills by id, every other member at its pointer with media types
 * and tags compared as sets), or a fisk-ai card or discovery reply (its members, and its tools
 * through the tool-list diff). A card of each kind cannot be compared and is refused.
 */
import { cardInterfaces, readCardDialect, type CardInterface } from "../a2a/card.ts";
import type { Dialect } from "../a2a/dialect.ts";
import { jsonTypeName } from "../forms/json-values.ts";
import { isJsonObject } from "../json/json-object.ts";
import { NAMESPACE } from "../packs/fisk-ai/protocol.ts";
import { type ArrayMatch, ChangeSink, DiffInputError, diffJsonInto, type DiffChange, DIFF_MAX_DEPTH, lastName, stableKey, type Tokens } from "./diff-json.ts";
import { diffToolLists, type ToolListDiff } from "./diff-tools.ts";

export interface SkillSummary {
  readonly id: string;
  readonly name?: string;
  readonly description?: string;
}

export interface SkillChange {
  readonly id: string;
  /** Pointers from the skill (`/tags`, `/description`). */
  readonly changes: readonly DiffChange[];
}

export interface CardDiff {
  readonly kind: "a2a" | "fisk";
  /** A2A: the dialect each card reads as. */
  readonly dialect?: { readonly before: Dialect | undefined; readonly after: Dialect | undefined };
  /** A2A: endpoints (URL, binding, version) only one card offers, across dialects. */
  readonly interfaces?: { readonly added: readonly CardInterface[]; readonly removed: readonly CardInterface[] };
  /** Every member but skills and tools, pointers from the card. */
  readonly fields: readonly DiffChange[];
  readonly skills?: { readonly added: readonly SkillSummary[]; readonly removed: readonly SkillSummary[]; readonly changed: readonly SkillChange[]; readonly unchanged: readonly string[] };
  readonly tools?: ToolListDiff;
  readonly problems: readonly string[];
}

export interface CardDiffOptions {
  readonly maxDepth?: number;
  readonly maxChanges?: number;
}

/** Lists whose order carries no meaning. */
const SET_MEMBERS = new Set(["defaultInputModes", "defaultOutputModes", "inputModes", "outputModes", "tags", "examples", "protocols", "security", "securityRequirements"]);

const str = (o: unknown, key: string): string | undefined => (isJsonObject(o) && typeof o[key] === "string" ? (o[key] as string) : undefined);

/** An interface by where it is and how it is spoken to, whichever dialect spells it. */
const interfaceKey = (item: unknown): string | undefined => {
  const url = str(item, "url");
  if (url === undefined) return undefined;
  return `${url} ${str(item, "protocolBinding") ?? str(item, "transport") ?? ""} ${str(item, "protocolVersion") ?? ""}`;
};

function arrayMatch(tokens: Tokens): ArrayMatch {
  const name = lastName(tokens);
  if (name === undefined || typeof tokens[tokens.length - 1] !== "string") return undefined;
  if (SET_MEMBERS.has(name)) return "set";
  if (name === "supportedInterfaces" || name === "additionalInterfaces") return interfaceKey;
  if (name === "extensions") return (item) => str(item, "uri");
  return undefined;
}

/** The fisk-ai header members of a discovery reply: per message, not part of the card. */
const FISK_HEADER = new Set(["protocol", "id", "request", "conversation", "parent", "sequence", "time", "sender", "recipient", "must_understand", "traceparent"]);

function kindOf(card: Record<string, unknown>): "a2a" | "fisk" {
  if (typeof card.protocol === "string" && card.protocol.startsWith(`${NAMESPACE}.`)) return "fisk";
  if (Array.isArray(card.tools) && !("skills" in card) && !("capabilities" in card)) return "fisk";
  return "a2a";
}

function cardObject(value: unknown, side: string): Record<string, unknown> {
  if (!isJsonObject(value)) throw new DiffInputError(`${side}: an agent card must be a JSON object, got ${jsonTypeName(value)}`);
  return value;
}

function skillsOf(card: Record<string, unknown>, side: string, problems: string[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (card.skills === undefined) return out;
  if (!Array.isArray(card.skills)) {
    problems.push(`${side}: "skills" must be an array, got ${jsonTypeName(card.skills)}; compared as a member`);
    return out;
  }
  card.skills.forEach((s, i) => {
    const id = str(s, "id") ?? str(s, "name");
    if (!isJsonObject(s) || id === undefined) {
      problems.push(`${side}: skills[${i}] has neither a string "id" nor a "name"; not compared`);
      return;
    }
    const key = out.has(id) ? `${id} #${i}` : id;
    if (key !== id) problems.push(`${side}: skills[${i}] repeats id ${JSON.stringify(id)}; compared as "${key}"`);
    out.set(key, s);
  });
  return out;
}

const summary = (id: string, s: Record<string, unknown>): SkillSummary => ({
  id,
  ...(typeof s.name === "string" ? { name: s.name } : {}),
  ...(typeof s.description === "string" ? { description: s.description } : {}),
});

function without(card: Record<string, unknown>, drop: (key: string) => boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(card).filter(([k]) => !drop(k)));
}

function diffSkills(b: Record<string, unknown>, a: Record<string, unknown>, problems: string[], options: CardDiffOptions): NonNullable<CardDiff["skills"]> {
  const before = skillsOf(b, "before", problems);
  const after = skillsOf(a, "after", problems);
  const added: SkillSummary[] = [];
  const removed: SkillSummary[] = [];
  const changed: SkillChange[] = [];
  const unchanged: string[] = [];
  for (const [id, skill] of before) {
    const other = after.get(id);
    if (!other) {
      removed.push(summary(id, skill));
      continue;
    }
    const sink = new ChangeSink(options.maxChanges);
    diffJsonInto(sink, skill, other, [], { arrayMatch, maxDepth: options.maxDepth ?? DIFF_MAX_DEPTH });
    if (sink.changes.length === 0) unchanged.push(id);
    else changed.push({ id, changes: sink.changes });
  }
  for (const [id, skill] of after) if (!before.has(id)) added.push(summary(id, skill));
  return { added, removed, changed, unchanged };
}

function diffInterfaces(b: unknown, a: unknown): NonNullable<CardDiff["interfaces"]> {
  const key = (i: CardInterface): string => stableKey([i.url, i.bindingName.toUpperCase(), i.dialect, i.tenant ?? ""]);
  const before = cardInterfaces(b);
  const after = cardInterfaces(a);
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  return { added: after.filter((i) => !had.has(key(i))), removed: before.filter((i) => !has.has(key(i))) };
}

/**
 * What changed between two agent cards. Throws DiffInputError for a side that is not an object,
 * or for an A2A card compared with a fisk-ai card.
 */
export function diffAgentCards(before: unknown, after: unknown, options: CardDiffOptions = {}): CardDiff {
  const b = cardObject(before, "before");
  const a = cardObject(after, "after");
  const kind = kindOf(b);
  if (kind !== kindOf(a)) {
    throw new DiffInputError(`before is ${kind === "a2a" ? "an A2A Agent Card" : "a fisk-ai card"} and after is not: compare two cards of one kind`);
  }
  const problems: string[] = [];
  const maxDepth = options.maxDepth ?? DIFF_MAX_DEPTH;
  const fields = new ChangeSink(options.maxChanges);
  if (kind === "fisk") {
    const drop = (k: string): boolean => FISK_HEADER.has(k) || k === "tools";
    diffJsonInto(fields, without(b, drop), without(a, drop), [], { arrayMatch, maxDepth });
    const tools = diffToolLists({ protocols: [], tools: Array.isArray(b.tools) ? b.tools : [] }, { protocols: [], tools: Array.isArray(a.tools) ? a.tools : [] }, options);
    for (const [side, card] of [["before", b], ["after", a]] as const) {
      if (card.tools !== undefined && !Array.isArray(card.tools)) problems.push(`${side}: "tools" must be an array, got ${jsonTypeName(card.tools)}; read as no tools`);
    }
    return { kind, fields: fields.changes, tools, problems: [...problems, ...tools.problems] };
  }
  const skills = diffSkills(b, a, problems, options);
  const skillsCompared = (card: Record<string, unknown>): boolean => card.skills === undefined || Array.isArray(card.skills);
  const drop = (k: string): boolean => k === "skills" && skillsCompared(b) && skillsCompared(a);
  diffJsonInto(fields, without(b, drop), without(a, drop), [], { arrayMatch, maxDepth });
  return {
    kind,
    dialect: { before: readCardDialect(b).dialect, after: readCardDialect(a).dialect },
    interfaces: diffInterfaces(b, a),
    fields: fields.changes,
    skills,
    problems,
  };
}

/** True when the diff found nothing to show. */
export function cardsEqual(d: CardDiff): boolean {
  const skills = d.skills ? d.skills.added.length + d.skills.removed.length + d.skills.changed.length : 0;
  const tools = d.tools ? d.tools.added.length + d.tools.removed.length + d.tools.changed.length : 0;
  const interfaces = d.interfaces ? d.interfaces.added.length + d.interfaces.removed.length : 0;
  return d.fields.length + skills + tools + interfaces === 0 && d.dialect?.before === d.dialect?.after;
}
