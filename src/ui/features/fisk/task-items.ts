import type { ReplySetEntry } from "../../../core/fisk/client/reply-set.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import { formatCount } from "../../lib/format.ts";
import { displayText } from "./raw-json.ts";
import { shortProtocol } from "./timeline.ts";

type Body =
  | { readonly kind: "ack"; readonly accepted: boolean; readonly reason: string; readonly maxTokens: string; readonly tokenSeen: boolean }
  | { readonly kind: "text"; readonly text: string; readonly final: boolean }
  | { readonly kind: "thinking"; readonly text: string }
  | { readonly kind: "prompt"; readonly text: string }
  | { readonly kind: "tool"; readonly id: string; readonly name: string; readonly input: string; readonly result: { readonly output: string; readonly isError: boolean } | null }
  | { readonly kind: "status"; readonly text: string }
  | { readonly kind: "warning"; readonly warning: string; readonly detail: string }
  | { readonly kind: "question"; readonly questionId: string; readonly question: string }
  | { readonly kind: "result"; readonly stopReason: string; readonly text: string; readonly usage: string }
  | { readonly kind: "error"; readonly error: string; readonly code: string; readonly stopReason: string; readonly usage: string }
  | { readonly kind: "raw"; readonly label: string; readonly json: string }
  | { readonly kind: "dropped"; readonly note: string };

/** One thing the task stream shows, rendered by kind. */
export type TaskItem = Body & { readonly key: number; readonly seq: string };

const USAGE_LABELS: [string, string][] = [
  ["input_tokens", "input"],
  ["output_tokens", "output"],
  ["cache_read_tokens", "cache read"],
  ["cache_create_tokens", "cache create"],
  ["thinking_tokens", "thinking"],
  ["llm_calls", "LLM calls"],
  ["tool_calls", "tool calls"],
];

/** "input 6,120 · output 88 · cache read 4,096", or "" when there is no usage. */
export function usageText(usage: unknown): string {
  if (!isJsonObject(usage)) return "";
  return USAGE_LABELS.filter(([k]) => typeof usage[k] === "number")
    .map(([k, label]) => `${label} ${formatCount(usage[k] as number)}`)
    .join(" · ");
}

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));

function statusText(block: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof block.phase === "string") parts.push(block.phase === "running-tool" ? "running a tool (keepalive)" : `phase ${block.phase}`);
  if (typeof block.iteration === "number") parts.push(`iteration ${block.iteration}`);
  if (typeof block.count === "number") parts.push(`${block.count} turn(s)`);
  if (block.truncated === true) parts.push("truncated");
  const usage = usageText(block.usage);
  if (usage) parts.push(usage);
  return parts.join(" · ") || "status";
}

function questionText(v: Readonly<Record<string, unknown>>): string {
  return str(v.question) || str(v.display) || str(v.command);
}


const EVENTS: Record<string, (block: Record<string, unknown>) => Body> = {
  "event.text": (b) => ({ kind: "text", text: str(b.text), final: b.final === true }),
  "event.thinking": (b) => ({ kind: "thinking", text: str(b.text) }),
  "event.prompt": (b) => ({ kind: "prompt", text: str(b.text) }),
  "event.status": (b) => ({ kind: "status", text: statusText(b) }),
  "event.warning": (b) => ({
    kind: "warning",
    warning: str(b.kind) || "warning",
    detail: [str(b.name), str(b.error), typeof b.count === "number" ? `count ${b.count}` : ""].filter(Boolean).join(" · "),
  }),
};

/**
 * The stream as the Tasks panel shows it. A `tool_call` and the `tool_result` with its id become
 * one item; kinds this build does not name are shown as raw JSON, never dropped.
 */
export function taskItems(entries: readonly ReplySetEntry[]): TaskItem[] {
  const items: TaskItem[] = [];
  const tools = new Map<string, number>();
  entries.forEach((entry, key) => {
    const seq = entry.sequence === undefined ? "—" : String(entry.sequence);
    const v = entry.value ?? {};
    const p = shortProtocol(entry.protocol);
    const block = isJsonObject(v.block) ? v.block : {};
    const push = (body: Body): void => void items.push({ ...body, key, seq });
    if (entry.disposition === "foreign" || entry.disposition === "invalid" || entry.disposition === "refusal" || entry.disposition === "no-responders") {
      return push({ kind: "dropped", note: `${entry.disposition}: ${entry.note ?? p}` });
    }
    if (p === "ack") {
      return push({ kind: "ack", accepted: v.accepted !== false, reason: str(v.reason), maxTokens: typeof v.max_tokens === "number" ? formatCount(v.max_tokens) : "", tokenSeen: typeof v.conversation_token === "string" });
    }
    if (p === "result") return push({ kind: "result", stopReason: str(v.stop_reason), text: str(v.text), usage: usageText(v.usage) });
    if (p === "error") return push({ kind: "error", error: str(v.error), code: str(v.code), stopReason: str(v.stop_reason), usage: usageText(v.usage) });
    if (p.startsWith("elicit.request.")) return push({ kind: "question", questionId: str(v.question_id), question: questionText(v) });
    if (p === "event.tool_call") {
      tools.set(str(block.id), items.length);
      return push({ kind: "tool", id: str(block.id), name: str(block.name), input: JSON.stringify(block.input ?? null), result: null });
    }
    if (p === "event.tool_result") {
      const at = tools.get(str(block.call_id));
      const result = { output: str(block.output), isError: block.is_error === true };
      const call = at === undefined ? undefined : items[at];
      if (call?.kind === "tool") items[at!] = { ...call, result };
      else push({ kind: "tool", id: str(block.call_id), name: "(call not seen)", input: "", result });
      return;
    }
    const build = EVENTS[p];
    if (build) return push(build(block));
    push({ kind: "raw", label: p || "message", json: displayText(JSON.stringify(v)) });
  });
  return items;
}
