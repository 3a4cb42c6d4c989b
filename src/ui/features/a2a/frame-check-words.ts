import { DIALECT_LABELS, type Dialect } from "../../../core/a2a/index.ts";
import type { Issue, Verdict } from "../../../core/validation/types.ts";
import { formatCount } from "../../lib/format.ts";
import type { CheckCounts, FrameCheck } from "./frame-checks.svelte.ts";
import type { Line } from "./frame-words.ts";

/** A frame's check in one line: its status, what it was judged as, and the first problem. */

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;
const place = (issue: Issue): string => `${issue.pointer || "(whole frame)"}: ${issue.message}`;

function judgedAs(v: Verdict): string {
  return [v.packLabel, v.kindLabel].filter(Boolean).join(" ");
}

function verdictWords(v: Verdict): Line {
  const as = judgedAs(v);
  const errors = v.issues.filter((i) => i.severity === "error");
  switch (v.status) {
    case "valid":
    case "error-response": {
      const warning = v.issues.find((i) => i.severity === "warning");
      return { text: `valid · ${as}${warning ? ` · warning ${place(warning)}` : ""}`, tone: warning ? "warn" : "ok" };
    }
    case "invalid": {
      const first = errors[0];
      const more = errors.length > 1 ? `; ${plural(errors.length - 1, "more problem", "more problems")}` : "";
      return { text: `invalid · ${as}${first ? ` · ${place(first)}${more}` : ""}`, tone: "bad" };
    }
    case "unparseable":
      return { text: `unparseable · ${v.issues[0]?.message ?? "not JSON"}`, tone: "bad" };
    case "unrecognised":
      return { text: `unrecognised · ${v.evidence[0] ?? "no kind the dialect defines matches it"}`, tone: "bad" };
  }
}

export function checkWords(check: FrameCheck | undefined): Line | null {
  if (check === undefined) return null;
  if (check.state === "checking") return { text: "checking…", tone: "muted" };
  if (check.state === "not-checked") return { text: `not checked: ${check.reason}`, tone: "muted" };
  return verdictWords(check.verdict);
}

/** One line on how the exchange's frames fared, against the dialect spoken (or the engine's own classification). */
export function summaryWords(counts: CheckCounts, dialect: Dialect | undefined): Line | null {
  const checked = counts.valid + counts.invalid + counts.errorResponses;
  if (checked + counts.notChecked + counts.checking === 0) return null;
  const against = dialect ? `against A2A ${DIALECT_LABELS[dialect]}` : "as the engine classified each (the dialect is not known)";
  // A well-formed error response is a valid frame; the count says how many were errors.
  const errors = counts.errorResponses > 0 ? ` (${formatCount(counts.errorResponses)} of them ${counts.errorResponses === 1 ? "an error response" : "error responses"})` : "";
  const invalid = counts.invalid > 0 ? `, ${formatCount(counts.invalid)} invalid` : "";
  const parts = [`${plural(checked, "frame")} checked ${against}: ${formatCount(counts.valid + counts.errorResponses)} valid${errors}${invalid}`];
  if (counts.checking > 0) parts.push(`${formatCount(counts.checking)} being checked`);
  if (counts.notChecked > 0) parts.push(`${plural(counts.notChecked, "frame")} not checked`);
  const tone = counts.invalid > 0 ? "bad" : counts.checking > 0 || counts.notChecked > 0 ? "muted" : "ok";
  return { text: `${parts.join("; ")}.`, tone };
}
