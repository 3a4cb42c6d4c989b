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

  pack(id: string): SchemaPack | undefined {
    return this.packs().find((p) => p.id === id);
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

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score;
}

function sortIssues(issues: Issue[]): Issue[] {
  return issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));
}

/** Validates messages one by one, with the family sessions learning as they go. */
export class ValidationSession {
  readonly #engine: ValidationEngine;
  readonly #sessions: ReadonlyMap<FamilyModule, FamilySession>;
  readonly #tools: CheckTools;

  constructor(engine: ValidationEngine) {
    this.#engine = engine;
    this.#sessions = new Map(engine.families.map((f) => [f, f.createSession()]));
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
    const { candidates, reasons, session } = this.#candidates(value, raw, override);
    if (candidates.length === 0) {
      const why = override ? [`Nothing in ${override.packId} matches this value.`] : reasons;
      return { ...empty("unrecognised"), evidence: why, overridden: override !== undefined };
    }
    const top = candidates[0]!;
    let chosen: Candidate | undefined;
    let alternative: Candidate | undefined;
    const tried: Candidate[] = [];
    for (const candidate of candidates) {
      tried.push(candidate);
      if (!this.#engine.compiler.isValid(candidate.pack, candidate.kind.definition, value)) continue;
      // The epsilon keeps a candidate exactly SCORE_MARGIN below the top inside, despite rounding.
      if (top.score - candidate.score <= SCORE_MARGIN + 1e-9) chosen = candidate;
      else alternative = candidate;
      break;
    }
    const schemaValid = chosen !== undefined;
    const pick = chosen ?? top;
    const sessionFor = session(pick);
    const schemaIssues = schemaValid ? [] : this.#engine.compiler.check(pick.pack, pick.kind.definition, value);
    const ruleIssues = sessionFor.check(value, pick, raw, this.#tools);
    let issues = sortIssues([...schemaIssues, ...ruleIssues]);
    if (raw.text !== undefined) issues = locateIssues(raw.text, issues);
    const failed = issues.some((i) => i.severity === "error");
    sessionFor.observe(value, pick, !failed);
    const notes = [...(sessionFor.notes?.(value, pick) ?? [])];
    if (alternative) notes.push(`It would be valid as ${alternative.kind.label} (${alternative.pack.label}).`);
    const unrecognised = !schemaValid && top.score < RECOGNITION_FLOOR && !override;
    const status = unrecognised ? "unrecognised" : failed ? "invalid" : pick.kind.role === "error" ? "error-response" : "valid";
    const outcomes = failed ? this.#explain(value, tried.filter((c) => c !== pick)) : [];
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

  #candidates(value: unknown, raw: RawMessage, override: Override | undefined) {
    const all: Candidate[] = [];
    const reasons: string[] = [];
    const owner = new Map<Candidate, FamilySession>();
    for (const [family, session] of this.#sessions) {
      const recognition = session.recognise(value, raw);
      if (recognition.candidates.length === 0 && recognition.reason) reasons.push(`${family.label}: ${recognition.reason}`);
      for (const c of recognition.candidates) {
        all.push(c);
        owner.set(c, session);
      }
    }
    let candidates = all.sort(byScore);
    if (override) candidates = this.#overridden(override, candidates, owner);
    const session = (c: Candidate): FamilySession => owner.get(c)!;
    return { candidates, reasons, session };
  }

  #overridden(override: Override, recognised: Candidate[], owner: Map<Candidate, FamilySession>): Candidate[] {
    const pack = this.#engine.pack(override.packId);
    if (!pack) return [];
    const family = this.#engine.families.find((f) => f.family === pack.family)!;
    const session = this.#sessions.get(family)!;
    const evidence = ["chosen by you"];
    if (override.kindId) {
      const kind = pack.kinds.find((k) => k.id === override.kindId);
      if (!kind) return [];
      const candidate: Candidate = { pack, kind, score: 1, evidence };
      owner.set(candidate, session);
      return [candidate];
    }
    return recognised
      .filter((c) => c.pack === pack)
      .map((c) => {
        const candidate: Candidate = { ...c, score: 1, evidence: [...evidence, ...c.evidence] };
        owner.set(candidate, session);
        return candidate;
      });
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
