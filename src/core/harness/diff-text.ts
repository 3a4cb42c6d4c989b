/**
 * A structured diff as lines of text, for `patchbay diff` and for copying from the page: every
 * change with its pointer and words, tools and skills by name, steps by their change.
 */
import type { DiffChange } from "./diff-json.ts";
import type { DiffOutcome } from "./diff-kind.ts";
import type { ToolListDiff } from "./diff-tools.ts";

const change = (c: DiffChange, indent: string): string => `${indent}${c.text}`;

function toolLines(d: ToolListDiff, indent = ""): string[] {
  const out: string[] = [];
  for (const t of d.added) out.push(`${indent}+ tool ${t.name}`);
  for (const t of d.removed) out.push(`${indent}- tool ${t.name}`);
  for (const t of d.changed) {
    out.push(`${indent}~ tool ${t.name}`);
    for (const c of t.fields) out.push(change(c, `${indent}    `));
    for (const c of t.inputSchema) out.push(change(c, `${indent}    inputSchema: `));
    for (const c of t.outputSchema) out.push(change(c, `${indent}    outputSchema: `));
  }
  for (const p of d.problems) out.push(`${indent}! ${p}`);
  return out;
}

const ratioText = (ratio: number | undefined): string => (ratio === undefined ? "" : ` (${ratio.toFixed(2)}×)`);

/** The diff's lines; an empty list means no differences. */
export function diffLines(outcome: DiffOutcome): string[] {
  switch (outcome.kind) {
    case "tools":
      return toolLines(outcome.diff);
    case "card": {
      const d = outcome.diff;
      const out: string[] = [];
      if (d.dialect && d.dialect.before !== d.dialect.after) out.push(`~ dialect ${d.dialect.before ?? "unknown"} → ${d.dialect.after ?? "unknown"}`);
      for (const i of d.interfaces?.added ?? []) out.push(`+ interface ${i.bindingName} ${i.version} at ${i.url}`);
      for (const i of d.interfaces?.removed ?? []) out.push(`- interface ${i.bindingName} ${i.version} at ${i.url}`);
      for (const c of d.fields) out.push(change(c, "~ "));
      for (const s of d.skills?.added ?? []) out.push(`+ skill ${s.id}`);
      for (const s of d.skills?.removed ?? []) out.push(`- skill ${s.id}`);
      for (const s of d.skills?.changed ?? []) {
        out.push(`~ skill ${s.id}`);
        for (const c of s.changes) out.push(change(c, "    "));
      }
      if (d.tools) out.push(...toolLines(d.tools));
      for (const p of d.problems) out.push(`! ${p}`);
      return out;
    }
    case "run": {
      const out: string[] = [];
      for (const s of outcome.diff.steps) {
        if (s.change === "same" && s.assertions.length === 0 && s.outcome === undefined) continue;
        const status = `${s.before?.status ?? "absent"} → ${s.after?.status ?? "absent"}`;
        out.push(`${s.change === "regression" ? "✘" : s.change === "fix" ? "✔" : "~"} ${s.name}: ${s.change} (${status})${s.latency ? `, ${Math.round(s.latency.beforeMs)} → ${Math.round(s.latency.afterMs)} ms${ratioText(s.latency.ratio)}` : ""}`);
        for (const a of s.assertions) out.push(`    ${a.label}: ${a.change}${a.after && !a.after.passed ? `: ${a.after.message}` : ""}`);
        if (s.outcome) out.push(`    outcome: ${s.outcome.before?.message ?? "none"} → ${s.outcome.after?.message ?? "none"}`);
      }
      return out;
    }
    case "capture": {
      const d = outcome.diff;
      const out: string[] = [];
      for (const e of d.onlyBefore) out.push(`- ${e.channel} ${e.method} (${e.target})`);
      for (const e of d.onlyAfter) out.push(`+ ${e.channel} ${e.method} (${e.target})`);
      for (const e of d.changed) {
        out.push(`~ ${e.channel} ${e.method}`);
        for (const c of e.request) out.push(change(c, "    request: "));
        for (const c of e.response) out.push(change(c, "    answer: "));
        if (e.status) out.push(`    status: ${e.status.before.join(",")} → ${e.status.after.join(",")}`);
      }
      for (const p of d.problems) out.push(`! ${p}`);
      return out;
    }
  }
}
