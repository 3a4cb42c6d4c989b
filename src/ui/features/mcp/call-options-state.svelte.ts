import { isJsonObject, parseJsonText } from "../../../core/json/index.ts";
import type { CallOptions, McpConnectionEvents } from "../../../core/mcp/connection-types.ts";
import { secondsToMs } from "./connect-form.ts";

/** The latest progress of the call, and how many notifications brought it. */
export interface CallProgress {
  readonly progress: number;
  readonly total: number | undefined;
  readonly message: string | undefined;
  readonly count: number;
}

/** Where progress under a typed token arrives: the connection's `progress` events. */
export interface ProgressSource {
  on(type: "progress", listener: (p: McpConnectionEvents["progress"]) => void): () => void;
}

/** A call ready to go: the options to pass, and `end` to stop listening once it is over. */
export type PreparedCall = { readonly ok: true; readonly options: CallOptions; readonly end: () => void } | { readonly ok: false; readonly error: string };

/** `_meta` text to an object (empty text: none), or why not. */
export function parseMeta(text: string): { ok: true; meta: Record<string, unknown> | undefined } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, meta: undefined };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `The _meta is not JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column}).` };
  if (!isJsonObject(parsed.value)) return { ok: false, error: "The _meta must be a JSON object, such as {\"progressToken\": \"my-token\"}." };
  const token = parsed.value.progressToken;
  if (token !== undefined && typeof token !== "string" && !Number.isSafeInteger(token)) {
    return { ok: false, error: "The _meta progressToken must be a string or an integer." };
  }
  return { ok: true, meta: parsed.value };
}

/**
 * Per-call options of tools/call: `_meta`, progress and a time limit that overrides the
 * connection's. A progressToken typed into `_meta` is sent as typed and its progress followed;
 * otherwise, when progress is wanted, the connection adds a token of its own (and each
 * notification extends the time limit).
 */
export class CallOptionsState {
  metaText = $state("");
  wantProgress = $state(true);
  /** Seconds; empty means the connection's request time limit. */
  timeoutText = $state("");
  progress = $state.raw<CallProgress | null>(null);

  /** The options for the next call, or why the fields cannot be used; resets the progress shown. */
  prepare(source: ProgressSource, defaultTimeoutMs: number): PreparedCall {
    const meta = parseMeta(this.metaText);
    if (!meta.ok) return meta;
    let timeoutMs = defaultTimeoutMs;
    if (this.timeoutText.trim() !== "") {
      const limit = secondsToMs(this.timeoutText, "The call's time limit");
      if ("error" in limit) return { ok: false, error: limit.error };
      timeoutMs = limit.ms;
    }
    this.progress = null;
    const token = meta.meta?.progressToken;
    const base = { timeoutMs, ...(meta.meta ? { meta: meta.meta } : {}) };
    if (token !== undefined) {
      const end = source.on("progress", (p) => {
        if (p.progressToken === token) this.#show(p);
      });
      return { ok: true, options: base, end };
    }
    if (!this.wantProgress) return { ok: true, options: base, end: () => {} };
    // Progress that arrives after the call's answer is no longer the call's; the connection passes
    // it on as an event, and only this call (one at a time) uses a token the connection made.
    const end = source.on("progress", (p) => {
      if (typeof p.progressToken === "number") this.#show(p);
    });
    return { ok: true, options: { ...base, onProgress: (p) => this.#show(p) }, end };
  }

  #show(p: { readonly progress: number; readonly total?: number; readonly message?: string }): void {
    this.progress = { progress: p.progress, total: p.total, message: p.message, count: (this.progress?.count ?? 0) + 1 };
  }
}
