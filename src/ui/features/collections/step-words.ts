import type { StepReport, StepStatus } from "../../../core/harness/index.ts";

/** The colour class of each status; the word is always shown beside it. */
export const STATUS_CLASS: Readonly<Record<StepStatus, string>> = { passed: "ok", failed: "bad", error: "bad", skipped: "muted" };

export function latencyText(ms: number | undefined): string {
  if (ms === undefined) return "—";
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** The assertions to show first: the failing ones when any failed, else all of them. */
export function shownAssertions(step: StepReport): { readonly failingOnly: boolean; readonly list: StepReport["assertions"] } {
  const failing = step.assertions.filter((a) => !a.passed);
  return failing.length > 0 ? { failingOnly: true, list: failing } : { failingOnly: false, list: step.assertions };
}

/** An assertion in a few words, e.g. `equals /result/content/0/text`. */
export function assertionTitle(a: StepReport["assertions"][number]["assertion"]): string {
  switch (a.kind) {
    case "equals":
    case "matches":
    case "exists":
    case "absent":
      return `${a.kind} ${a.pointer === "" ? "/" : a.pointer}`;
    case "outcome":
      return `outcome ${a.is}${a.code !== undefined ? ` ${a.code}` : ""}${a.state !== undefined ? ` ${a.state}` : ""}`;
    case "latency":
      return `latency below ${a.belowMs} ms`;
    case "valid":
      return a.version !== undefined ? `valid (${a.version})` : "valid";
    case "stream":
      return "stream";
  }
}
