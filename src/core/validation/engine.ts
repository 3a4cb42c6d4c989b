import { JsonLocator, parseJsonText } from "../json/index.ts";
import { SchemaCompiler } from "../schema/compiler.ts";
import type {
  Candidate,
  CandidateOutcome,
  CheckTools,
  FamilyModule,
  FamilySession,
  Issue,
  Override,
  RawMessage,
  SchemaPack,
  Verdict,
} from "./types.ts";

/** A valid candidate wins over the top guess only when its score is this close to the top. */
export const SCORE_MARGIN = 0.25;
/** Below this, an unconfirmed guess is "unrecognised" rather than "invalid". */
export const RECOGNITION_FLOOR = 0.3;
/**
 * A score this high means a discriminator matched exactly (a method, a protocol id, the id of a
 * request seen earlier). Another family's guess cannot displace such a match unless it is just
 * as decisive: a valid shape guess from elsewhere must not hide an invalid answer to a known request.
 */
export const DECISIVE_SCORE = 0.95;
/** How many failed candidates a miss explains. */
const EXPLAINED_CANDIDATES = 4;

/** The packs and family modules, and one compiler caching validators across sessions. */
export class ValidationEngine {
  readonly families: readonly FamilyModule[];
  readonly compiler: SchemaCompiler;

  constructor(families: readonly FamilyModule[], compiler = new SchemaCompiler()) {
    this.families = families;
    this.compiler = compiler;
  }

  /** Every pack, family by family, oldest first. */
  packs(): SchemaPack[] {
    return this.families.flatMap((f) => f.packs);
  }

  #byId: Map<string, SchemaPack> | undefined;

  pack(id: string): SchemaPack | undefined {
    this.#byId ??= new Map(this.packs().map((p) => [p.id, p]));
    return this.#byId.get(id);
  }

  /** A fresh batch: what earlier messages teach stays within the session. */
  session(): ValidationSession {
    return new ValidationSession(this);
  }
}

/** Adds line and column to issues, scanning the text once. */
export function locateIssues(text: string, issues: readonly Issue[]): Issue[] {
  if (issues.length === 0) return [];
  const locator = new JsonLocator(text);
  return issues.map((issue) => {
    if (issue.line !== undefined) return issue;
    const extra = issue.keyword === "additionalProperties" || issue.keyword === "unevaluatedProperties";
    const at = locator.locate(issue.pointer, extra ? { target: "key" } : {});
    return { ...issue, line: at.line, column: at.column };
  });
}


const NO_NOTES: readonly string[] = [];
const NO_OUTCOMES: readonly CandidateOutcome[] = [];

/** Another family's guess, below decisive, cannot displace a decisive match. */
function outranked(top: Candidate, candidate: Candidate): boolean {
  return candidate.pack.family !== top.pack.family && candidate.score < DECISIVE_SCORE - 1e-9;
}

function bestFirst(candidates: readonly Candidate[]): boolean {
  for (let i = 1; i < candidates.length; i++) if (candidates[i]!.score > candidates[i - 1]!.score) return false;
  return true;
}

function sortIssues(issues: Issue[]): Issue[] {
  return issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));
}

/** Validates messages one by one, with the family sessions learning as they go. */
export class ValidationSession {
  readonly #engine: ValidationEngine;
  readonly #sessions: readonly (readonly [FamilyModule, FamilySession])[];
  readonly #sessionList: readonly FamilySession[];
  readonly #byFamily: ReadonlyMap<string, FamilySession>;
  readonly #tools: CheckTools;
  /** The family of the last message classified: equal scores lean towards the capture's own protocol. */
  #lastFamily: string | undefined;

  constructor(engine: ValidationEngine) {
    this.#engine = engine;
    this.#sessions = engine.families.map((f) => [f, f.createSession()] as const);
    this.#byFamily = new Map(this.#sessions.map(([f, s]) => [f.family, s]));
    this.#sessionList = this.#sessions.map(([, s]) => s);
    this.#tools = {
      validateWithSchema: (schema, value, pointer, draft) => engine.compiler.checkDynamic(schema, value, pointer, draft),
    };
  }

  /** Parses and validates one message's text; a syntax error is the verdict "unparseable". */
  validateText(text: string, override?: Override): Verdict {
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      const issue: Issue = {
        pointer: "",
        message: `Not JSON: ${parsed.message}`,
        severity: "error",
        source: "syntax",
        line: parsed.line,
        column: parsed.column,
      };
      return { ...empty("unparseable"), issues: [issue] };
    }
    return this.validateValue(parsed.value, { text }, override);
  }

  /**
   * Classifies and validates a parsed message; `raw.text`, when given, places issues and sizes the
   * body. A value nested too deeply for the validators gets a verdict saying so, not a crash.
   */
  validateValue(value: unknown, raw: RawMessage = {}, override?: Override): Verdict {
    try {
      return this.#validateValue(value, raw, override);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      const issue: Issue = { pointer: "", message: "The message is nested too deeply to validate.", severity: "error", source: "syntax" };
      return { ...empty("unparseable"), issues: [issue] };
    }
  }

  #validateValue(value: unknown, raw: RawMessage, override: Override | undefined): Verdict {
    const candidates = this.#candidates(value, raw, override);
    if (candidates.length === 0) {
      const why = override ? [`Nothing in ${override.packId} matches this value.`] : this.#reasons(value, raw);
      return { ...empty("unrecognised"), evidence: why, overridden: override !== undefined };
    }
    const top = candidates[0]!;
    let chosen: Candidate | undefined;
    let alternative: Candidate | undefined;
    const decisive = top.score >= DECISIVE_SCORE - 1e-9;
    for (const candidate of candidates) {
      if (decisive && outranked(top, candidate)) {
        if (!alternative && this.#engine.compiler.isValid(candidate.pack, candidate.kind.definition, value)) alternative = candidate;
        continue;
      }
      if (!this.#engine.compiler.isValid(candidate.pack, candidate.kind.definition, value)) continue;
      // The epsilon keeps a candidate exactly SCORE_MARGIN below the top inside, despite rounding.
      if (top.score - candidate.score <= SCORE_MARGIN + 1e-9) chosen = candidate;
      else alternative ??= candidate;
      break;
    }
    const schemaValid = chosen !== undefined;
    const nearest = schemaValid ? undefined : this.#nearest(value, candidates, decisive);
    const pick = chosen ?? nearest!.candidate;
    const sessionFor = this.#byFamily.get(pick.pack.family)!;
    const ruleIssues = sessionFor.check(value, pick, raw, this.#tools);
    let issues = schemaValid ? ruleIssues : [...nearest!.issues, ...ruleIssues];
    if (issues.length > 0) {
      issues = sortIssues([...issues]);
      if (raw.text !== undefined) issues = locateIssues(raw.text, issues);
    }
    const failed = issues.some((i) => i.severity === "error");
    sessionFor.observe(value, pick, !failed);
    this.#lastFamily = pick.pack.family;
    let notes = sessionFor.notes?.(value, pick) ?? NO_NOTES;
    if (alternative && !chosen) notes = [...notes, `It would be valid as ${alternative.kind.label} (${alternative.pack.label}).`];
    const unrecognised = !schemaValid && top.score < RECOGNITION_FLOOR && !override;
    const status = unrecognised ? "unrecognised" : failed ? "invalid" : pick.kind.role === "error" ? "error-response" : "valid";
    // A decisive match needs no excuses; a guess that failed explains what else was tried.
    const outcomes = failed && !decisive ? this.#explain(value, candidates.filter((c) => c !== pick)) : NO_OUTCOMES;
    return {
      status,
      family: pick.pack.family,
      packId: pick.pack.id,
      packLabel: pick.pack.label,
      version: pick.pack.version,
      kindId: pick.kind.id,
      kindLabel: pick.kind.label,
      role: pick.kind.role,
      direction: pick.kind.direction,
      confidence: override ? 1 : pick.score,
      evidence: pick.evidence,
      issues,
      notes,
      candidates: outcomes,
      overridden: override !== undefined,
    };
  }

  /**
   * When nothing validates, the candidate to report against: among those as likely as the top
   * (the versions of one kind, typically), the one with the fewest schema errors, so a legacy
   * message is not blamed for lacking a newer version's members.
   */
  #nearest(value: unknown, candidates: readonly Candidate[], decisive: boolean): { candidate: Candidate; issues: Issue[] } {
    const top = candidates[0]!;
    let best: { candidate: Candidate; issues: Issue[] } | undefined;
    for (const candidate of candidates) {
      if (top.score - candidate.score > SCORE_MARGIN + 1e-9) break;
      if (decisive && outranked(top, candidate)) continue;
      const issues = this.#engine.compiler.check(candidate.pack, candidate.kind.definition, value);
      if (!best || issues.length < best.issues.length) best = { candidate, issues };
    }
    return best ?? { candidate: top, issues: this.#engine.compiler.check(top.pack, top.kind.definition, value) };
  }

  /**
   * Every family's candidates, best first. The common case, one family answering, costs no
   * merge; ties between families lean towards the family of the previous message.
   */
  #candidates(value: unknown, raw: RawMessage, override: Override | undefined): readonly Candidate[] {
    let only: readonly Candidate[] | undefined;
    let merged: Candidate[] | undefined;
    const sessions = this.#sessionList;
    for (let i = 0; i < sessions.length; i++) {
      const found = sessions[i]!.recognise(value, raw).candidates;
      if (found.length === 0) continue;
      if (only === undefined) only = found;
      else (merged ??= [...only]).push(...found);
    }
    let candidates: readonly Candidate[] = only ?? [];
    if (!merged && !bestFirst(candidates)) merged = [...candidates];
    if (merged) {
      const last = this.#lastFamily;
      candidates = merged.sort((a, b) => b.score - a.score || (a.pack.family === last ? -1 : b.pack.family === last ? 1 : 0));
    }
    return override ? this.#overridden(override, candidates) : candidates;
  }

  /** Why no family claimed the value, family by family; asked again only on a miss. */
  #reasons(value: unknown, raw: RawMessage): string[] {
    return this.#sessions.flatMap(([family, session]) => {
      const { reason } = session.recognise(value, raw);
      return reason ? [`${family.label}: ${reason}`] : [];
    });
  }

  #overridden(override: Override, recognised: readonly Candidate[]): Candidate[] {
    const pack = this.#engine.pack(override.packId);
    if (!pack) return [];
    const evidence = ["chosen by you"];
    if (override.kindId) {
      const kind = pack.kinds.find((k) => k.id === override.kindId);
      return kind ? [{ pack, kind, score: 1, evidence }] : [];
    }
    return recognised.filter((c) => c.pack === pack).map((c) => ({ ...c, score: 1, evidence: [...evidence, ...c.evidence] }));
  }

  #explain(value: unknown, others: Candidate[]): CandidateOutcome[] {
    return others.slice(0, EXPLAINED_CANDIDATES).map((c) => {
      const first = this.#engine.compiler.check(c.pack, c.kind.definition, value, "first")[0];
      return { packId: c.pack.id, kindId: c.kind.id, label: `${c.kind.label} (${c.pack.label})`, valid: !first, ...(first ? { firstIssue: first } : {}) };
    });
  }
}

function empty(status: Verdict["status"]): Verdict {
  return { status, confidence: 0, evidence: [], issues: [], notes: [], candidates: [], overridden: false };
}
