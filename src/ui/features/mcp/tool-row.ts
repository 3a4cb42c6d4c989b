import { isJsonObject } from "../../../core/json/index.ts";
import type { LintCounts } from "../../../core/mcp/tool-lint.ts";

/** The title to show beside a tool's name: `title`, else `annotations.title`; none when it repeats the name. */
export function toolTitle(tool: Record<string, unknown>): string | undefined {
  const annotations = isJsonObject(tool.annotations) ? tool.annotations : {};
  const title = typeof tool.title === "string" ? tool.title : typeof annotations.title === "string" ? annotations.title : undefined;
  return title === undefined || title.trim() === "" || title === tool.name ? undefined : title;
}

export interface LintMarker {
  readonly level: "error" | "warning";
  readonly count: number;
  /** Read aloud and shown as the tooltip: "2 lint errors, 1 warning". */
  readonly label: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The row marker: errors and warnings counted (infos are quality notes, shown only in the lint panel); none when clean. */
export function lintMarker(counts: LintCounts): LintMarker | undefined {
  const count = counts.error + counts.warning;
  if (count === 0) return undefined;
  const parts = [counts.error > 0 ? plural(counts.error, "error") : "", counts.warning > 0 ? plural(counts.warning, "warning") : ""].filter((p) => p !== "");
  return { level: counts.error > 0 ? "error" : "warning", count, label: `lint: ${parts.join(", ")}` };
}
