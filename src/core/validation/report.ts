import type { BatchItem, InputFormat } from "./batch-input.ts";
import type { ValidationSession } from "./engine.ts";
import type { Family, Issue, Verdict, VerdictStatus, VersionBasis } from "./types.ts";

/** Validates one batch item; an item that could not be read is unparseable, with the reason. */
export function validateItem(session: ValidationSession, item: BatchItem): Verdict {
  return item.error === undefined ? session.validateText(item.text) : unreadable(item);
}

/** The verdict on an item that could not be read (its `error` set): unparseable, for that reason. */
export function unreadable(item: BatchItem): Verdict {
  const issue: Issue = { pointer: "", message: item.error ?? "The message could not be read.", severity: "error", source: "syntax" };
  return { status: "unparseable", confidence: 0, evidence: [], issues: [issue], notes: [], candidates: [], overridden: false };
}

/** The first error, else the first warning. */
export function firstIssue(verdict: Verdict): Issue | undefined {
  return verdict.issues[0];
}

/** Statuses that mean "this message is wrong"; a valid error response is not one of them. */
export function isFailure(status: VerdictStatus): boolean {
  return status === "invalid" || status === "unrecognised" || status === "unparseable";
}

export interface BatchSummary {
  readonly total: number;
  readonly byStatus: Readonly<Record<VerdictStatus, number>>;
  /** Messages per family id (`mcp`, `a2a`, `fisk-ai`), unrecognised ones excluded. */
  readonly byFamily: Readonly<Record<string, number>>;
}

export function emptyStatusCounts(): Record<VerdictStatus, number> {
  return { valid: 0, "error-response": 0, invalid: 0, unrecognised: 0, unparseable: 0 };
}

export function summarise(verdicts: Iterable<Verdict>): BatchSummary {
  const byStatus = emptyStatusCounts();
  const byFamily: Record<string, number> = {};
  let total = 0;
  for (const v of verdicts) {
    total++;
    byStatus[v.status]++;
    if (v.family) byFamily[v.family] = (byFamily[v.family] ?? 0) + 1;
  }
  return { total, byStatus, byFamily };
}

/** Where a message came from, as people read it: `capture.jsonl #3 (line 4)`. */
export function itemPlace(item: BatchItem, several: boolean): string {
  let place = item.source;
  if (several && item.position !== undefined) place += ` #${item.position}`;
  if (item.label) place += ` [${item.label}]`;
  if (item.line !== undefined && several) place += ` (line ${item.line})`;
  return place;
}

/**
 * An issue's position in the file, when the item knows where it starts there (JSON Lines, JSON
 * arrays); otherwise its position within the message's own text.
 */
export function filePosition(item: BatchItem, issue: Issue): { line: number; column: number } | undefined {
  if (issue.line === undefined) return undefined;
  const column = issue.column ?? 1;
  if (item.line === undefined) return { line: issue.line, column };
  const line = item.line + issue.line - 1;
  return { line, column: issue.line === 1 ? (item.column ?? 1) + column - 1 : column };
}

function describeIssue(item: BatchItem, issue: Issue): string {
  const at = issue.pointer === "" ? "" : `${issue.pointer}: `;
  const where = filePosition(item, issue);
  const pos = where ? ` (at ${where.line}:${where.column}${item.line === undefined && item.label ? " in the message" : ""})` : "";
  return `${at}${issue.message}${pos}`;
}

/** What a message was judged as, and by which version for what reason: the part of a verdict CI reads. */
export interface JudgedBy {
  readonly family: Family;
  readonly packId: string;
  readonly kindId: string;
  readonly kindLabel: string;
  /** The version whose definition the message was checked against. */
  readonly version: string;
  readonly basis: VersionBasis;
  /** The versions the message passes in (see Verdict.validIn). */
  readonly validIn: readonly string[];
  /** Why this kind, in plain words, strongest first. */
  readonly evidence: readonly string[];
}

export function judgedBy(verdict: Verdict): JudgedBy | null {
  const { family, packId, kindId, kindLabel, version } = verdict;
  if (!family || !packId || !kindId || !kindLabel || !version) return null;
  const basis = verdict.versionBasis ?? "evidence";
  return { family, packId, kindId, kindLabel, version, basis, validIn: verdict.validIn ?? [], evidence: verdict.evidence };
}

const BASIS_WORDS: Readonly<Record<VersionBasis, string>> = {
  declared: "the version the message declares",
  negotiated: "the version earlier messages agreed",
  chosen: "the version you chose",
  evidence: "no version declared",
};

/** `tools/call request, MCP 2025-06-18 (the version earlier messages agreed)`: what was checked, for people. */
export function judgedText(verdict: Verdict): string {
  const judged = judgedBy(verdict);
  if (!judged) return "";
  let why = BASIS_WORDS[judged.basis];
  if (judged.basis === "evidence") {
    why += judged.validIn.length > 0 ? `; valid in ${versionList(judged.validIn)}` : "; judged by the version nearest to passing";
  }
  return `${judged.kindLabel}, ${verdict.packLabel ?? judged.packId} (${why})`;
}

/** `2025-06-18`, `2025-03-26 and 2025-06-18`, `2024-11-05 to 2026-07-28` for a run of three or more. */
function versionList(versions: readonly string[]): string {
  if (versions.length <= 2) return versions.join(" and ");
  return `${versions.length} versions, ${versions[0]!} to ${versions[versions.length - 1]!}`;
}

/** One line for a message: place, status, what it was judged as and by which version, and the first problem. */
export function verdictLine(item: BatchItem, verdict: Verdict, several: boolean): string {
  const judged = judgedText(verdict);
  const what = judged ? `${judged}: ` : "";
  const issue = firstIssue(verdict);
  const why = issue ? describeIssue(item, issue) : verdict.evidence[0] ?? "";
  return `${itemPlace(item, several)}: ${verdict.status}: ${what}${why}`;
}

export const REPORT_FORMAT = "patchbay.validation-report";
/** 2 added `judgedBy` to every message. */
export const REPORT_VERSION = 2;

export interface ReportInput {
  readonly source: string;
  readonly format: InputFormat;
  readonly messages: number;
  readonly notes: readonly string[];
}

export interface ReportEntry extends Verdict {
  readonly source: string;
  readonly position?: number;
  readonly line?: number;
  readonly label?: string;
  /** Null when nothing was recognised (or the text was not JSON). */
  readonly judgedBy: JudgedBy | null;
}

export interface ValidationReport {
  readonly format: typeof REPORT_FORMAT;
  readonly version: number;
  readonly generatedAt: string;
  readonly inputs: readonly ReportInput[];
  readonly summary: BatchSummary;
  readonly messages: readonly ReportEntry[];
}

/** The whole run as a versioned JSON document, for CI artefacts and the workbench's export. */
export function buildReport(
  inputs: readonly ReportInput[],
  results: readonly { readonly item: BatchItem; readonly verdict: Verdict }[],
  generatedAtMs: number,
): ValidationReport {
  const messages = results.map(({ item, verdict }): ReportEntry => {
    const { source, position, line, label } = item;
    const place = { source, ...(position !== undefined && { position }), ...(line !== undefined && { line }), ...(label && { label }) };
    return { ...place, ...verdict, judgedBy: judgedBy(verdict) };
  });
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    generatedAt: new Date(generatedAtMs).toISOString(),
    inputs,
    summary: summarise(results.map((r) => r.verdict)),
    messages,
  };
}
