import { exchangeKey, isResponse } from "../../../core/mcp/frame-recorder.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import type { WireEntry, WireLog } from "../../../core/wire/index.ts";

const MAX_METHODS = 10_000;

/** A frame of the followed connection and, for a response, the method of the request it answers. */
export interface FollowedFrame {
  readonly entry: WireEntry;
  readonly answering: string | undefined;
}

function methodOf(json: unknown): string | undefined {
  const first = Array.isArray(json) ? json.find((m) => isJsonObject(m) && "id" in m) : json;
  return isJsonObject(first) && typeof first.method === "string" ? first.method : undefined;
}

/**
 * One MCP connection's frames as they enter the wire log. The connection starts at the last
 * initialize its client sent to this target, so frames of an earlier session to the same
 * server are left out; requests are remembered by correlation id (which carries the request's
 * direction) so each response can name what it answers.
 */
export class ConnectionFrames {
  readonly #log: WireLog;
  readonly target: string;
  /** Sequence number just before the connection's first frame. */
  readonly start: number;
  #seen: number;
  readonly #methods = new Map<string, string>();

  constructor(log: WireLog, target: string) {
    this.#log = log;
    this.target = target;
    this.start = connectionStart(log, target);
    this.#seen = this.start;
  }

  /** Frames of this connection recorded since the last call, oldest first. */
  take(): FollowedFrame[] {
    const fresh = this.#log.entriesAfter(this.#seen);
    if (fresh.length === 0) return [];
    this.#seen = fresh[fresh.length - 1]!.seq;
    const out: FollowedFrame[] = [];
    for (const entry of fresh) {
      if (entry.channel === "mcp" && entry.target === this.target) out.push({ entry, answering: this.#learn(entry) });
    }
    return out;
  }

  #learn(entry: WireEntry): string | undefined {
    const key = entry.correlationId;
    const json = entry.decoded.json;
    if (key === undefined || json === undefined) return undefined;
    if (isResponse(json)) {
      const method = this.#methods.get(key);
      this.#methods.delete(key);
      return method;
    }
    const method = methodOf(json);
    if (method !== undefined) {
      if (this.#methods.size >= MAX_METHODS) this.#methods.delete(this.#methods.keys().next().value!);
      this.#methods.set(key, method);
    }
    return undefined;
  }
}

function connectionStart(log: WireLog, target: string): number {
  const entries = log.entries();
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.channel === "mcp" && e.target === target && e.direction === "out" && e.decoded.method === "initialize") return e.seq - 1;
  }
  return log.lastSeq;
}

/** The correlation id an answer to this raw text would carry, or undefined when none is expected. */
export function expectedAnswer(text: string): { readonly id: string; readonly key: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const first = Array.isArray(value) ? value.find((m) => isJsonObject(m) && "id" in m) : value;
  if (!isJsonObject(first) || isResponse(first)) return undefined;
  const id = first.id;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  return { id: JSON.stringify(id), key: exchangeKey("client", String(id)) };
}

/** True when an incoming frame answers the raw message: by its correlation id, or an error about no id at all. */
export function answers(entry: WireEntry, key: string): boolean {
  if (entry.direction !== "in") return false;
  const json = entry.decoded.json;
  if (entry.correlationId === key && isResponse(json)) return true;
  return isJsonObject(json) && json.id === null && "error" in json;
}
