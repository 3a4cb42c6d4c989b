import { parseJsonText, type ParseJsonResult } from "../json/index.ts";
import { bestFirst, byScoreLeaningTo, catchAllBelow, DECISIVE_SCORE, EPSILON, merged, outranked, RECOGNITION_FLOOR, SCORE_MARGIN } from "./candidate-ranking.ts";
import type { ValidationEngine } from "./engine.ts";
import { ClassMemo } from "./class-memo.ts";
import { withEraIssues } from "./era-members.ts";
import { locateInValidJson, locateIssues } from "./locate-issues.ts";
import type { Candidate, CandidateOutcome, CheckTools, FamilyModule, FamilySession, Issue, Override, RawMessage, SchemaPack, SessionOptions, Verdict, VersionBasis } from "./types.ts";

const EXPLAINED_CANDIDATES = 4; // how many failed candidates a miss explains
const NO_NOTES: readonly string[] = [];
const NO_VERSIONS: readonly string[] = [];
const NO_OUTCOMES: readonly CandidateOutcome[] = [];
const NO_CANDIDATES: readonly Candidate[] = [];

/**
 * A rule that names the fault at a pointer (a mistyped method, say) says more than the schema's
 * "must be equal to constant" there, so that schema issue is dropped.
 */
function withoutRestated(schemaIssues: readonly Issue[], ruleIssues: readonly Issue[]): Issue[] {
  if (ruleIssues.length === 0) return schemaIssues.slice();
  const named = new Set(ruleIssues.map((i) => i.pointer));
  return schemaIssues.filter((i) => !(i.keyword === "const" && named.has(i.pointer))).concat(ruleIssues);
}

/** The candidate a failure is reported against, its issues, and the issues of every candidate checked on the way. */
type Nearest = { readonly candidate: Candidate; readonly issues: Issue[]; readonly checked: ReadonlyMap<Candidate, Issue[]> };

/** The validIn list of a message judged by one version alone, one list per pack. */
const ONLY_VERSION = new WeakMap<SchemaPack, readonly string[]>();
function onlyVersion(pack: SchemaPack): readonly string[] {
  let list = ONLY_VERSION.get(pack);
  if (!list) ONLY_VERSION.set(pack, (list = [pack.version]));
  return list;
}

const sortIssues = (issues: Issue[]): Issue[] => issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));

/** Validates messages one by one, with the family sessions learning as they go. */
export class ValidationSession {
  readonly #engine: ValidationEngine;
  readonly #sessions: readonly (readonly [FamilyModule, FamilySession])[];
  readonly #sessionList: readonly FamilySession[];
  /** Each session's family name, by the same index. */
  readonly #familyNames: readonly string[];
  readonly #tools: CheckTools;
  /** The current message's answers by definition class. */
  readonly #memo: ClassMemo;
  /** The family of the last message classified: equal scores lean towards the capture's own protocol. */
  #lastFamily: string | undefined;

  constructor(engine: ValidationEngine, options?: SessionOptions) {
    this.#engine = engine;
    this.#sessions = engine.families.map((f) => [f, f.createSession(options)] as const);
    this.#sessionList = this.#sessions.map(([, s]) => s);
    this.#familyNames = this.#sessions.map(([f]) => f.family);
    this.#memo = new ClassMemo(engine.compiler);
    this.#tools = { validateWithSchema: (schema, value, pointer, draft) => engine.compiler.checkDynamic(schema, value, pointer, draft) };
  }

  /** Parses and validates one message's text; a syntax error is the verdict "unparseable". */
  validateText(text: string, override?: Override): Verdict {
    return this.validateParsed(text, parseJsonText(text), override);
  }

  /** As validateText, with the text already parsed by parseJsonText (a bulk run parses ahead: see ParsedAhead). */
  validateParsed(text: string, parsed: ParseJsonResult, override?: Override): Verdict {
    if (!parsed.ok) {
      const issue: Issue = { pointer: "", message: `Not JSON: ${parsed.message}`, severity: "error", source: "syntax", line: parsed.line, column: parsed.column };
      return { ...empty("unparseable"), issues: [issue] };
    }
    return this.#guarded(parsed.value, { text }, override, true);
  }

  /** Classifies and validates a parsed message; `raw.text`, when given, places issues and sizes the body. */
  validateValue(value: unknown, raw: RawMessage = {}, override?: Override): Verdict {
    return this.#guarded(value, raw, override, false);
  }

  /** `parsedText`: raw.text is the JSON text the value was parsed from. Too deep a value is a verdict, not a crash. */
  #guarded(value: unknown, raw: RawMessage, override: Override | undefined, parsedText: boolean): Verdict {
    try {
      return this.#validateValue(value, raw, override, parsedText);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      const issue: Issue = { pointer: "", message: "The message is nested too deeply to validate.", severity: "error", source: "syntax" };
      return { ...empty("unparseable"), issues: [issue] };
    }
  }

  #validateValue(value: unknown, raw: RawMessage, override: Override | undefined, parsedText: boolean): Verdict {
    const candidates = this.#candidates(value, raw, override);
    if (candidates.length === 0) {
      const why = override ? [`Nothing in ${override.packId} matches this value.`] : this.#reasons(value, raw);
      return { ...empty("unrecognised"), evidence: why, overridden: override !== undefined };
    }
    const memo = this.#memo;
    memo.next();
    const top = candidates[0]!;
    let chosen: Candidate | undefined;
    /** The valid candidate the search stopped at, when it lies beyond the margin. */
    let beyond: Candidate | undefined;
    /** Where the search stopped: the candidates before it are the ones it passed over or found invalid. */
    let stop = candidates.length;
    const decisive = top.score >= DECISIVE_SCORE - EPSILON;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      if (passedOver(top, candidate, decisive) || !memo.isValid(candidate.pack, candidate.kind, value)) continue;
      // The epsilon keeps a candidate exactly SCORE_MARGIN below the top inside, despite rounding.
      if (top.score - candidate.score <= SCORE_MARGIN + EPSILON) chosen = candidate;
      else beyond = candidate;
      stop = i;
      break;
    }
    const alternative = chosen ? undefined : this.#alternative(value, candidates, stop, beyond, decisive);
    const nearest = chosen ? undefined : this.#nearest(value, candidates, decisive);
    const pick = chosen ?? nearest!.candidate;
    const sessionFor = this.#sessionOf(pick.pack.family);
    const ruleIssues = sessionFor.check(value, pick, raw, this.#tools);
    let issues: readonly Issue[] = ruleIssues;
    if (nearest) issues = nearest.issues.length === 0 ? ruleIssues : ruleIssues.length === 0 ? nearest.issues : withoutRestated(nearest.issues, ruleIssues);
    // A schema that passed may have passed only by ignoring another version's members.
    if (chosen && !override) issues = withEraIssues(this.#engine, value, chosen, issues, memo);
    let failed = false;
    if (issues.length > 0) {
      issues = sortIssues(issues.slice());
      failed = issues[0]!.severity === "error";
      if (raw.text !== undefined) issues = parsedText ? locateInValidJson(raw.text, issues) : locateIssues(raw.text, issues);
    }
    sessionFor.observe(value, pick, !failed);
    this.#lastFamily = pick.pack.family;
    let notes: readonly string[] = sessionFor.notes?.(value, pick) ?? NO_NOTES;
    // A catch-all that would take the message says nothing the issues do not.
    if (alternative) notes = [...notes, `It would be valid as ${alternative.kind.label} (${alternative.pack.label}).`];
    // A catch-all that only a weak sign points at is no recognition, even when its shape passes.
    const weakCatchAll = pick.kind.generic === true && pick.score < RECOGNITION_FLOOR && !failed;
    const unrecognised = !override && ((!chosen && top.score < RECOGNITION_FLOOR) || weakCatchAll);
    const status = unrecognised ? "unrecognised" : failed ? "invalid" : pick.kind.role === "error" ? "error-response" : "valid";
    // A decisive match needs no excuses; a guess that failed explains what else was tried.
    const outcomes = failed && !decisive ? this.#explain(value, candidates, pick, nearest?.checked) : NO_OUTCOMES;
    const versionBasis: VersionBasis = override ? "chosen" : (pick.basis ?? "evidence");
    const passed = status === "valid" || status === "error-response";
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
      versionBasis,
      validIn: passed ? this.#validIn(value, pick, versionBasis) : NO_VERSIONS,
      evidence: pick.evidence,
      issues,
      notes,
      candidates: outcomes,
      overridden: override !== undefined,
    };
  }

  /**
   * A failed message's note names the first candidate the search passed over (another family's
   * guess below a decisive match, or a catch-all) that the value passes, else the valid one beyond
   * the margin, unless that candidate is a catch-all. So the candidates are checked in order only
   * up to the last one that is no catch-all: a valid catch-all before it hides it, one after it
   * says nothing. Undefined when no note is due.
   */
  #alternative(value: unknown, candidates: readonly Candidate[], stop: number, beyond: Candidate | undefined, decisive: boolean): Candidate | undefined {
    const top = candidates[0]!;
    let last = beyond !== undefined && beyond.kind.generic !== true ? stop : -1;
    for (let i = stop - 1; last < 0 && i >= 0; i--) {
      const c = candidates[i]!;
      if (c.kind.generic !== true && passedOver(top, c, decisive)) last = i;
    }
    if (last < 0) return undefined;
    for (let i = 0; i < stop && i <= last; i++) {
      const c = candidates[i]!;
      if (passedOver(top, c, decisive) && this.#memo.isValid(c.pack, c.kind, value)) return c.kind.generic === true ? undefined : c;
    }
    return last === stop ? beyond : undefined;
  }

  /**
   * With nothing to settle the version, every version whose definition of the kind the message
   * passes. A definition class checked already (by the pick's loop, or an older version that kept
   * the definition) is not checked again, nor is one the pick's definition provably lies within;
   * the lists are shared by pattern of passing versions.
   */
  #validIn(value: unknown, pick: Candidate, basis: VersionBasis): readonly string[] {
    if (basis !== "evidence") return onlyVersion(pick.pack);
    const { versions, settled, open, bits } = this.#engine.validInPlan(pick.pack, pick.kind);
    if (versions.length === 1) return onlyVersion(pick.pack);
    const memo = this.#memo;
    const compiler = this.#engine.compiler;
    let mask = settled;
    for (let i = 0; i < open.length; i++) {
      // A class answered already needs no validator: one not yet compiled for this version stays so.
      const version = open[i]!;
      if (memo.known(version.cls) ?? memo.passes((version.check ??= compiler.kindCheck(version.pack, version.kind)), value)) mask |= bits[i]!;
    }
    const lists = versions[0]!.out;
    return (lists[mask] ??= versions.filter((_, v) => (mask & (1 << v)) !== 0).map((v) => v.pack.version));
  }

  /**
   * When nothing validates, the candidate to report against: among those as likely as the top (the
   * versions of one kind, typically), the one with the fewest schema errors, so a legacy message is
   * not blamed for lacking a newer version's members. The issues found are kept for #explain.
   */
  #nearest(value: unknown, candidates: readonly Candidate[], decisive: boolean): Nearest {
    const memo = this.#memo;
    const top = candidates[0]!;
    const checked = new Map<Candidate, Issue[]>();
    let best: Candidate | undefined;
    let bestIssues: Issue[] = [];
    for (const candidate of candidates) {
      if (top.score - candidate.score > SCORE_MARGIN + EPSILON) break;
      if ((decisive && outranked(top, candidate)) || catchAllBelow(top, candidate)) continue;
      const issues = memo.issues(candidate.pack, candidate.kind, value);
      checked.set(candidate, issues);
      if (!best || issues.length < bestIssues.length) {
        best = candidate;
        bestIssues = issues;
      }
      // Every candidate here failed the yes/no check, so each has at least one issue: one cannot be beaten.
      if (bestIssues.length <= 1) break;
    }
    if (best) return { candidate: best, issues: bestIssues, checked };
    return { candidate: top, issues: memo.issues(top.pack, top.kind, value), checked };
  }

  /** A family's session: a scan of a few, by interned family names, costs less than hashing. */
  #sessionOf(family: string): FamilySession {
    const names = this.#familyNames;
    for (let i = 0; i < names.length; i++) if (names[i] === family) return this.#sessionList[i]!;
    throw new Error(`No validation session for the family ${family}`);
  }

  /** Every family's candidates, best first; the common case, one family answering, costs no merge. */
  #candidates(value: unknown, raw: RawMessage, override: Override | undefined): readonly Candidate[] {
    let first: readonly Candidate[] | undefined, second: readonly Candidate[] | undefined;
    let more: (readonly Candidate[])[] | undefined;
    for (const session of this.#sessionList) {
      const found = session.recognise(value, raw).candidates;
      if (found.length === 0) continue;
      if (!first) first = found;
      else if (!second) second = found;
      else (more ??= [first, second]).push(found);
    }
    let candidates = first ?? NO_CANDIDATES;
    if (more) candidates = more.flat().sort(byScoreLeaningTo(this.#lastFamily));
    else if (second) candidates = merged(candidates, second, this.#lastFamily);
    else if (!bestFirst(candidates)) candidates = candidates.slice().sort(byScoreLeaningTo(this.#lastFamily));
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

  /** The first problem of a few candidates besides the pick; one already fully checked reuses its issues. */
  #explain(value: unknown, candidates: readonly Candidate[], pick: Candidate, checked: ReadonlyMap<Candidate, Issue[]> | undefined): CandidateOutcome[] {
    const outcomes: CandidateOutcome[] = [];
    for (const c of candidates) {
      if (c === pick) continue;
      if (outcomes.length === EXPLAINED_CANDIDATES) break;
      const known = checked?.get(c);
      const first = known ? known[0] : this.#memo.firstIssue(c.pack, c.kind, value);
      const label = `${c.kind.label} (${c.pack.label})`;
      outcomes.push(first ? { packId: c.pack.id, kindId: c.kind.id, label, valid: false, firstIssue: first } : { packId: c.pack.id, kindId: c.kind.id, label, valid: true });
    }
    return outcomes;
  }
}

/** A candidate the search for the pick passes over: another family's guess below a decisive match, or a catch-all below a specific kind. */
function passedOver(top: Candidate, candidate: Candidate, decisive: boolean): boolean {
  return (decisive && outranked(top, candidate)) || catchAllBelow(top, candidate);
}

function empty(status: Verdict["status"]): Verdict {
  return { status, confidence: 0, evidence: [], issues: [], notes: [], candidates: [], overridden: false };
}
