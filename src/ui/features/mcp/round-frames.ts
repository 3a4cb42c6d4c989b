import type { InputAnswers, InputRequest } from "../../../core/mcp/index.ts";
import type { WireEntry } from "../../../core/wire/index.ts";

const dec = new TextDecoder();

/** The request and the answer of one exchange of `target`, by JSON-RPC id, as they crossed (pretty when JSON). */
export function exchangeFrames(entries: readonly WireEntry[], target: string, id: number): { readonly request?: string; readonly answer?: string } {
  const key = String(id);
  let request: string | undefined;
  let answer: string | undefined;
  for (let i = entries.length - 1; i >= 0 && (request === undefined || answer === undefined); i--) {
    const e = entries[i]!;
    if (e.target !== target || e.correlationId !== key) continue;
    if (e.direction === "out") request ??= pretty(e.bytes);
    else answer ??= pretty(e.bytes);
  }
  return { ...(request !== undefined ? { request } : {}), ...(answer !== undefined ? { answer } : {}) };
}

function pretty(bytes: Uint8Array): string {
  const text = dec.decode(bytes);
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** What one input request asks, in a line: the elicitation's message, the sampling prompt, or roots. */
export function askedText(request: InputRequest): string {
  const p = request.params;
  if (request.kind === "elicitation") return typeof p.message === "string" ? p.message : "a form";
  if (request.kind === "sampling") {
    const last = Array.isArray(p.messages) ? (p.messages.at(-1) as { content?: { text?: unknown } } | undefined) : undefined;
    return typeof last?.content?.text === "string" ? `a model answer to "${last.content.text}"` : "a model answer";
  }
  if (request.kind === "roots") return "the client's roots";
  return `${request.method || "an unknown request"} (not one the console answers)`;
}

/** How the page answered one key, in a line. */
export function answerText(answers: InputAnswers | null, key: string): string {
  if (answers === null) return "answering…";
  if (!Object.hasOwn(answers.responses, key)) return "left unanswered";
  const a = answers.responses[key] as { action?: unknown; content?: unknown; model?: unknown; roots?: unknown } | undefined;
  if (typeof a?.action === "string") return a.action === "accept" ? `accepted ${JSON.stringify(a.content ?? {})}` : `${a.action}d`;
  if (typeof a?.model === "string") return `answered by ${a.model}`;
  if (Array.isArray(a?.roots)) return `${a.roots.length} root${a.roots.length === 1 ? "" : "s"}`;
  return JSON.stringify(a);
}
