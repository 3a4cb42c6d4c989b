import type { DiscoveryResult } from "../../../core/fisk/client/index.ts";
import type { AgentCard, ToolBehavior, ToolDescriptor } from "../../../core/fisk/codec/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";

/**
 * What the Agents panel shows of a card: generation with its evidence, tools with behaviour
 * badges, and two cards compared. A card read off the wire is not trusted to have the right
 * shapes, so every reader here tolerates missing or mistyped fields.
 */

export type Generation = "gen1" | "gen2" | "either";

export function generationLabel(g: Generation): string {
  if (g === "gen1") return "Gen 1";
  if (g === "gen2") return "Gen 2";
  return "Gen 1 or Gen 2";
}

/** The card's tools that are objects with a string name; anything else is skipped. */
export function toolsOf(card: AgentCard | null | undefined): ToolDescriptor[] {
  const tools: unknown = card?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.filter((t): t is ToolDescriptor => isJsonObject(t) && typeof t.name === "string");
}

const BEHAVIOURS = [
  ["read_only", "read-only"],
  ["destructive", "destructive"],
  ["idempotent", "idempotent"],
  ["open_world", "open-world"],
] as const;

export interface Badge {
  readonly label: string;
  /** Absent on the wire means undeclared, which is not the same as false. */
  readonly state: "yes" | "no" | "undeclared";
}

export function behaviourBadges(behavior: ToolBehavior | undefined): Badge[] {
  const b: Record<string, unknown> = isJsonObject(behavior) ? behavior : {};
  return BEHAVIOURS.map(([key, label]) => ({ label, state: b[key] === true ? "yes" : b[key] === false ? "no" : "undeclared" }));
}

/** What the engine tried, and how each candidate fared: the evidence behind the chosen pack. */
export function verdictEvidence(verdict: Verdict): string[] {
  const out = [...verdict.evidence];
  for (const c of verdict.candidates) out.push(`${c.label}: ${c.valid ? "valid" : `invalid${c.firstIssue ? ` (${c.firstIssue.message})` : ""}`}`);
  return out;
}

/** A tap on the agents' subjects is itself a subscriber, so NATS no longer answers 503 for a missing agent. */
export const TAP_HINT = " (a tap on choria.fisk-ai.> counts as a subscriber: while it runs, a missing agent times out instead of reporting no responders)";

export interface Summary {
  readonly tone: "ok" | "warn" | "bad";
  readonly text: string;
}

/** A discovery's outcome in one line. */
export function discoverySummary(result: DiscoveryResult): Summary {
  const o = result.outcome;
  switch (o.kind) {
    case "card":
      return { tone: "ok", text: `Card of ${o.card.name} ${o.card.version} · ${generationLabel(o.generation)}` };
    case "invalid":
      return { tone: "bad", text: `Not a valid discovery reply: ${o.problem}` };
    case "refused":
      return { tone: "bad", text: `Refused with micro error ${o.code}: ${o.description}` };
    case "no-such-agent":
      return { tone: "bad", text: "No such agent: nothing serves its discovery subject (503)" };
    case "timeout":
      return { tone: "bad", text: `No reply within ${o.timeoutMs} ms${TAP_HINT}` };
    case "error":
      return { tone: "bad", text: `Not sent: ${o.message}` };
  }
}

export function verdictLine(verdict: Verdict): Summary {
  const errors = verdict.issues.filter((i) => i.severity === "error").length;
  const warnings = verdict.issues.length - errors;
  const what = [verdict.packLabel, verdict.kindLabel].filter(Boolean).join(" · ");
  switch (verdict.status) {
    case "valid":
      return { tone: warnings > 0 ? "warn" : "ok", text: `valid${what ? ` ${what}` : ""}${warnings > 0 ? `, ${warnings} warning(s)` : ""}` };
    case "error-response":
      return { tone: "warn", text: `a valid error response${what ? ` (${what})` : ""}` };
    case "invalid":
      return { tone: "bad", text: `invalid${what ? ` ${what}` : ""}: ${errors} error(s)${warnings > 0 ? `, ${warnings} warning(s)` : ""}` };
    case "unrecognised":
      return { tone: "bad", text: "not recognised as a fisk-ai message" };
    case "unparseable":
      return { tone: "bad", text: "not parseable as JSON" };
  }
}

/** JSON with object keys sorted, so two schemas compare by content, not key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

export interface CompareRow {
  readonly name: string;
  readonly presence: "both" | "left" | "right";
  /** What differs between the two when both have the tool. */
  readonly differs: readonly string[];
}

export function compareCards(left: AgentCard, right: AgentCard): CompareRow[] {
  const l = new Map(toolsOf(left).map((t) => [t.name, t]));
  const r = new Map(toolsOf(right).map((t) => [t.name, t]));
  const names = [...new Set([...l.keys(), ...r.keys()])].sort();
  return names.map((name) => {
    const a = l.get(name);
    const b = r.get(name);
    if (!a) return { name, presence: "right", differs: [] };
    if (!b) return { name, presence: "left", differs: [] };
    const differs: string[] = [];
    if (canonicalJson(a.input_schema ?? null) !== canonicalJson(b.input_schema ?? null)) differs.push("input schema");
    if ((a.description ?? "") !== (b.description ?? "")) differs.push("description");
    if (canonicalJson(a.behavior ?? null) !== canonicalJson(b.behavior ?? null)) differs.push("behaviour");
    return { name, presence: "both", differs };
  });
}

/** The card fields other than tools, for a side-by-side header. */
export function cardFacts(card: AgentCard): [string, string][] {
  const c = card as unknown as Record<string, unknown>;
  const text = (v: unknown): string => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
  return [
    ["Name", text(c.name)],
    ["Version", text(c.version)],
    ["Description", text(c.description)],
    ["Model", text(c.model)],
    ["Protocols", Array.isArray(c.protocols) ? c.protocols.join(", ") : text(c.protocols)],
    ["Tools", String(toolsOf(card).length)],
  ];
}

/** A tool's input schema as shown: pretty JSON, or what is assumed when the card sends none. */
export function schemaText(card: AgentCard, tool: string): string {
  const t = toolsOf(card).find((x) => x.name === tool);
  if (!t) return "(no such tool)";
  return t.input_schema === undefined ? '(none: {"type":"object"} is assumed)' : JSON.stringify(t.input_schema, null, 2);
}
