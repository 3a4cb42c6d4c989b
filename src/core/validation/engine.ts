import { parseJsonText } from "../json/index.ts";
import { SchemaCompiler } from "../schema/compiler.ts";
import { locateInValidJson, locateIssues } from "./locate-issues.ts";
import type {
  Candidate,
  CandidateOutcome,
  CheckTools,
  FamilyModule,
  FamilySession,
  Issue,
  MessageKind,
  Override,
  RawMessage,
  SchemaPack,
  SessionOptions,
  Verdict,
  VersionBasis,
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
const EXPLAINED_CANDIDATES = 4; // how many failed candidates a miss explains

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
  session(options?: SessionOptions): ValidationSession {
    return new ValidationSession(this, options);
  }

  readonly #versionsOf = new WeakMap<MessageKind, readonly Version[]>();

  /** Every version of the family with a kind of this one's id, oldest first, with each definition's class; by kind object, so no key is built per message. */
  versionsOf(family: string, kind: MessageKind): readonly Version[] {
    let found = this.#versionsOf.get(kind);
    if (!found) {
      const packs = this.families.find((f) => f.family === family)?.packs ?? [];
      found = packs.flatMap((pack) => {
        const same = pack.kinds.find((k) => k.id === kind.id);
        return same ? [{ pack, kind: same, cls: this.compiler.definitionClass(pack, same.definition), out: [] }] : [];
      });
      this.#versionsOf.set(kind, found);
    }
    return found;
  }
}

/** One version of a kind, with its definition's class and the validIn lists already made, by bit mask of passing versions. */
interface Version {
  readonly pack: SchemaPack;
  readonly kind: MessageKind;
  readonly cls: number;
  readonly out: (readonly string[] | undefined)[];
}

const NO_NOTES: readonly string[] = [];
const NO_VERSIONS: readonly string[] = [];
const NO_OUTCOMES: readonly CandidateOutcome[] = [];
const NO_CANDIDATES: readonly Candidate[] = [];

/** A catch-all kind is the pick only when it leads; below a specific kind it explains nothing. */
function catchAllBelow(top: Candidate, candidate: Candidate): boolean {
  return candidate.kind.generic === true && candidate !== top && top.kind.generic !== true;
}

/**
 * A rule that names the fault at a pointer (a mistyped method, say) says more than the schema's
 * "must be equal to constant" there, so that schema issue is dropped.
 */
function withoutRestated(schemaIssues: readonly Issue[], ruleIssues: readonly Issue[]): Issue[] {
  if (ruleIssues.length === 0) return schemaIssues.slice();
  const named = new Set(ruleIssues.map((i) => i.pointer));
  return schemaIssues.filter((i) => !(i.keyword === "const" && named.has(i.pointer))).concat(ruleIssues);
}

/** Another family's guess, below decisive, cannot displace a decisive match. */
function outranked(top: Candidate, candidate: Candidate): boolean {
  return candidate.pack.family !== top.pack.family && candidate.score < DECISIVE_SCORE - 1e-9;
}

const ORDERS = new Map<string | undefined, (a: Candidate, b: Candidate) => number>();

/** Best first; equal scores lean towards the family of the previous message. One comparator per family, made once. */
function byScoreLeaningTo(last: string | undefined): (a: Candidate, b: Candidate) => number {
  let order = ORDERS.get(last);
  if (!order) ORDERS.set(last, (order = (a, b) => b.score - a.score || (a.pack.family === last ? -1 : b.pack.family === last ? 1 : 0)));
  return order;
}

/** Two families' lists merged, kept by list identity (families reuse read-only lists; sorting allocates); weak keys let one-off lists go. */
const MERGES = new Map<string | undefined, WeakMap<readonly Candidate[], WeakMap<readonly Candidate[], readonly Candidate[]>>>();
function merged(first: readonly Candidate[], second: readonly Candidate[], last: string | undefined): readonly Candidate[] {
  let byFirst = MERGES.get(last);
  if (!byFirst) MERGES.set(last, (byFirst = new WeakMap()));
  let bySecond = byFirst.get(first);
  if (!bySecond) byFirst.set(first, (bySecond = new WeakMap()));
  let list = bySecond.get(second);
  if (!list) bySecond.set(second, (list = first.concat(second).sort(byScoreLeaningTo(last))));
  return list;
}

function bestFirst(candidates: readonly Candidate[]): boolean {
  for (let i = 1; i < candidates.length; i++) if (candidates[i]!.score > candidates[i - 1]!.score) return false;
  return true;
}

/** The candidate a failure is reported against, its issues, and the issues of every candidate checked on the way. */
type Nearest = { readonly candidate: Candidate; readonly issues: Issue[]; readonly checked: ReadonlyMap<Candidate, Issue[]> };

const sortIssues = (issues: Issue[]): Issue[] => issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));

/** Validates messages one by one, with the family sessions learning as they go. */
export class ValidationSession {
  readonly #engine: ValidationEngine;
  readonly #sessions: readonly (readonly [FamilyModule, FamilySession])[];
  readonly #sessionList: readonly FamilySession[];
  readonly #byFamily: ReadonlyMap<string, FamilySession>;
  readonly #tools: CheckTools;
  /** The family of the last message classified: equal scores lean towards the capture's own protocol. */
  #lastFamily: string | undefined;

  constructor(engine: ValidationEngine, options?: SessionOptions) {
    this.#engine = engine;
    this.#sessions = engine.families.map((f) => [f, f.createSession(options)] as const);
    this.#byFamily = new Map(this.#sessions.map(([f, s]) => [f.family, s]));
    this.#sessionList = this.#sessions.map(([, s]) => s);
    this.#tools = { validateWithSchema: (schema, value, pointer, draft) => engine.compiler.checkDynamic(schema, value, pointer, draft) };
  }

  /** Parses and validates one message's text; a syntax error is the verdict "unparseable". */
  validateText(text: string, override?: Override): Verdict {
    const parsed = parseJsonText(text);
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
    this.#checked.length = 0;
    const top = candidates[0]!;
    let chosen: Candidate | undefined;
    let alternative: Candidate | undefined;
    const decisive = top.score >= DECISIVE_SCORE - 1e-9;
    for (const candidate of candidates) {
      if (decisive && outranked(top, candidate)) {
        if (!alternative && this.#isValid(candidate, value)) alternative = candidate;
        continue;
      }
      if (catchAllBelow(top, candidate)) {
        if (!alternative && this.#isValid(candidate, value)) alternative = candidate;
        continue;
      }
      if (!this.#isValid(candidate, value)) continue;
      // The epsilon keeps a candidate exactly SCORE_MARGIN below the top inside, despite rounding.
      if (top.score - candidate.score <= SCORE_MARGIN + 1e-9) chosen = candidate;
      else alternative ??= candidate;
      break;
    }
    const nearest = chosen ? undefined : this.#nearest(value, candidates, decisive);
    const pick = chosen ?? nearest!.candidate;
    const sessionFor = this.#byFamily.get(pick.pack.family)!;
    const ruleIssues = sessionFor.check(value, pick, raw, this.#tools);
    let issues: readonly Issue[] = ruleIssues;
    if (nearest) issues = nearest.issues.length === 0 ? ruleIssues : ruleIssues.length === 0 ? nearest.issues : withoutRestated(nearest.issues, ruleIssues);
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
    if (alternative && !chosen && alternative.kind.generic !== true) notes = [...notes, `It would be valid as ${alternative.kind.label} (${alternative.pack.label}).`];
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

  /** Definition classes checked for the current message and their answers, in pairs (class, 1 or 0). */
  readonly #checked: number[] = [];

  /** A candidate's first issue; one whose class already failed goes straight to the full check ("first" would check yes/no again). */
  #firstIssue(c: Candidate, value: unknown): Issue | undefined {
    const compiler = this.#engine.compiler;
    const cls = compiler.definitionClass(c.pack, c.kind.definition);
    const checked = this.#checked;
    for (let i = 0; i < checked.length; i += 2) if (checked[i] === cls && checked[i + 1] === 0) return compiler.check(c.pack, c.kind.definition, value)[0];
    return compiler.check(c.pack, c.kind.definition, value, "first")[0];
  }

  /** A candidate's yes/no check, remembered by definition class for #validIn. */
  #isValid(candidate: Candidate, value: unknown): boolean {
    const compiler = this.#engine.compiler;
    const ok = compiler.isValid(candidate.pack, candidate.kind.definition, value);
    this.#checked.push(compiler.definitionClass(candidate.pack, candidate.kind.definition), ok ? 1 : 0);
    return ok;
  }

  /**
   * With nothing to settle the version, every version whose definition of the kind the message
   * passes. A definition class checked already (by the pick's loop, or an older version that kept
   * the definition) is not checked again; the lists are shared by pattern of passing versions.
   */
  #validIn(value: unknown, pick: Candidate, basis: VersionBasis): readonly string[] {
    if (basis !== "evidence") return [pick.pack.version];
    const versions = this.#engine.versionsOf(pick.pack.family, pick.kind);
    if (versions.length === 1) return [pick.pack.version];
    const compiler = this.#engine.compiler;
    const checked = this.#checked;
    let mask = 0;
    for (let v = 0; v < versions.length; v++) {
      const { pack, kind, cls } = versions[v]!;
      let ok: boolean | undefined = pack === pick.pack ? true : undefined;
      for (let i = 0; ok === undefined && i < checked.length; i += 2) if (checked[i] === cls) ok = checked[i + 1] === 1;
      if (ok === undefined) {
        ok = compiler.isValid(pack, kind.definition, value);
        checked.push(cls, ok ? 1 : 0);
      }
      if (ok) mask |= 1 << v;
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
    const compiler = this.#engine.compiler;
    const top = candidates[0]!;
    const checked = new Map<Candidate, Issue[]>();
    let best: Candidate | undefined;
    let bestIssues: Issue[] = [];
    for (const candidate of candidates) {
      if (top.score - candidate.score > SCORE_MARGIN + 1e-9) break;
      if ((decisive && outranked(top, candidate)) || catchAllBelow(top, candidate)) continue;
      const issues = compiler.check(candidate.pack, candidate.kind.definition, value);
      checked.set(candidate, issues);
      if (!best || issues.length < bestIssues.length) {
        best = candidate;
        bestIssues = issues;
      }
      // Every candidate here failed the yes/no check, so each has at least one issue: one cannot be beaten.
      if (bestIssues.length <= 1) break;
    }
    if (best) return { candidate: best, issues: bestIssues, checked };
    return { candidate: top, issues: compiler.check(top.pack, top.kind.definition, value), checked };
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
      const first = known ? known[0] : this.#firstIssue(c, value);
      const label = `${c.kind.label} (${c.pack.label})`;
      outcomes.push(first ? { packId: c.pack.id, kindId: c.kind.id, label, valid: false, firstIssue: first } : { packId: c.pack.id, kindId: c.kind.id, label, valid: true });
    }
    return outcomes;
  }
}

function empty(status: Verdict["status"]): Verdict {
  return { status, confidence: 0, evidence: [], issues: [], notes: [], candidates: [], overridden: false };
}
