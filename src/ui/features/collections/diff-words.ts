import type { CaptureDiff, CardDiff, DiffOutcome, ExchangeRef, ToolListDiff } from "../../../core/harness/diff.ts";
import { diffHeadline } from "./run-compare.ts";

/** The counts that are not zero, joined; `fallback` when all are. */
function joined(parts: readonly [number, string][], fallback: string): string {
  const shown = parts.filter(([n]) => n > 0).map(([n, words]) => `${n} ${words}`);
  return shown.length > 0 ? shown.join(" · ") : fallback;
}

export function toolHeadline(d: ToolListDiff): string {
  const tools = (n: number, what: string): [number, string] => [n, `${n === 1 ? "tool" : "tools"} ${what}`];
  return joined([tools(d.added.length, "added"), tools(d.removed.length, "removed"), tools(d.changed.length, "changed"), tools(d.unchanged.length, "unchanged")], "no tools on either side");
}

export function cardHeadline(d: CardDiff): string {
  const parts: [number, string][] = [[d.fields.length, d.fields.length === 1 ? "field change" : "field changes"]];
  if (d.skills) parts.push([d.skills.added.length, "skills added"], [d.skills.removed.length, "skills removed"], [d.skills.changed.length, "skills changed"]);
  if (d.tools) parts.push([d.tools.added.length, "tools added"], [d.tools.removed.length, "tools removed"], [d.tools.changed.length, "tools changed"]);
  if (d.interfaces) parts.push([d.interfaces.added.length + d.interfaces.removed.length, "interface changes"]);
  const dialect = d.dialect && d.dialect.before !== d.dialect.after ? ` · dialect ${d.dialect.before ?? "unknown"} → ${d.dialect.after ?? "unknown"}` : "";
  return `${d.kind === "a2a" ? "A2A Agent Cards" : "fisk-ai cards"}: ${joined(parts, "no field changes")}${dialect}`;
}

export function captureHeadline(d: CaptureDiff): string {
  return joined(
    [
      [d.changed.length, d.changed.length === 1 ? "exchange changed" : "exchanges changed"],
      [d.onlyBefore.length, "only before"],
      [d.onlyAfter.length, "only after"],
      [d.same, "the same"],
    ],
    "no exchanges on either side",
  );
}

/** One line that says what the comparison found. */
export function outcomeHeadline(outcome: DiffOutcome): string {
  switch (outcome.kind) {
    case "run":
      return `Run reports of ${outcome.diff.collection.before === outcome.diff.collection.after ? `"${outcome.diff.collection.after}"` : `"${outcome.diff.collection.before}" and "${outcome.diff.collection.after}"`}: ${diffHeadline(outcome.diff)}`;
    case "tools":
      return `Tool lists: ${toolHeadline(outcome.diff)}`;
    case "card":
      return cardHeadline(outcome.diff);
    case "capture":
      return `Captures: ${captureHeadline(outcome.diff)}`;
  }
}

/** `mcp tools/call → http://…/mcp (#4, answered by #5)`: an exchange, findable in Traffic by seq. */
export function exchangeLabel(ref: ExchangeRef): string {
  const seqs = [...(ref.requestSeq !== undefined ? [`#${ref.requestSeq}`] : []), ...(ref.responseSeqs.length > 0 ? [`answered by ${ref.responseSeqs.map((s) => `#${s}`).join(", ")}`] : ["no answer"])];
  return `${ref.channel} ${ref.method} → ${ref.target} (${seqs.join(", ")})`;
}

/** The place a change is at; the whole value has the empty pointer. */
export const pointerLabel = (pointer: string): string => (pointer === "" ? "(root)" : pointer);
