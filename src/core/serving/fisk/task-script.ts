import { isJsonObject } from "../../json/index.ts";
import type { ScriptStep } from "./conversations.ts";

/**
 * What a prompt asks of the scripted task runner, which needs no model: `run <tool> {json}` (one
 * per line, run in order) calls tools; a prompt that is a JSON object runs the one tool
 * `tool_hints` names; anything else is echoed back.
 */
export type Script = { readonly kind: "echo"; readonly text: string } | { readonly kind: "steps"; readonly steps: readonly ScriptStep[] } | { readonly kind: "bad"; readonly reason: string };

const RUN = /^run\s+([^\s{]+)\s*(.*)$/s;

function inputOf(text: string, where: string): Readonly<Record<string, unknown>> | string {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `${where}: the input is not JSON (${(err as Error).message})`;
  }
  return isJsonObject(value) ? value : `${where}: the input must be a JSON object`;
}

export function readScript(prompt: string, toolHints: readonly string[] | undefined): Script {
  const lines = prompt.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
  if (lines.length > 0 && lines.every((l) => RUN.test(l))) {
    const steps: ScriptStep[] = [];
    for (const [i, line] of lines.entries()) {
      const [, tool = "", rest = ""] = RUN.exec(line) ?? [];
      const input = inputOf(rest, lines.length > 1 ? `line ${i + 1}` : "run");
      if (typeof input === "string") return { kind: "bad", reason: input };
      steps.push({ tool, input });
    }
    return { kind: "steps", steps };
  }
  const hinted = toolHints?.length === 1 ? toolHints[0] : undefined;
  if (hinted !== undefined && prompt.trim().startsWith("{")) {
    const input = inputOf(prompt, "the prompt");
    if (typeof input === "string") return { kind: "bad", reason: input };
    return { kind: "steps", steps: [{ tool: hinted, input }] };
  }
  return { kind: "echo", text: prompt };
}
