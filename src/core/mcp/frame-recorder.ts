import type { Clock, IdSource } from "../env/environment.ts";
import { isJsonObject } from "../json/index.ts";
import type { WireLog } from "../wire/wire-log.ts";

const MAX_PENDING = 10_000;
const encoder = new TextEncoder();

/** The JSON-RPC id of a parsed message (the first id in a batch), as a correlation id. */
export function correlationOf(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value.find((m) => isJsonObject(m) && "id" in m) : value;
  if (!isJsonObject(first)) return undefined;
  const id = first.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isResponse(value: unknown): boolean {
  return isJsonObject(value) && !("method" in value) && ("result" in value || "error" in value);
}

/**
 * Records MCP frames in the wire log exactly as they crossed, correlated by JSON-RPC id; a
 * response carries the time since its request went out.
 */
export class FrameRecorder {
  readonly #log: WireLog;
  readonly #clock: Clock;
  readonly #ids: IdSource;
  readonly #target: () => string;
  readonly #sentAt = new Map<string, number>();

  constructor(log: WireLog, clock: Clock, ids: IdSource, target: () => string) {
    this.#log = log;
    this.#clock = clock;
    this.#ids = ids;
    this.#target = target;
  }

  /** Records an outgoing frame; returns its parsed value (undefined when it is not JSON). */
  out(text: string, note?: string): unknown {
    const value = tryParse(text);
    const id = correlationOf(value);
    const correlationId = id ?? this.#ids.next();
    if (id !== undefined && !isResponse(value)) {
      if (this.#sentAt.size >= MAX_PENDING) this.#sentAt.delete(this.#sentAt.keys().next().value!);
      this.#sentAt.set(correlationId, this.#clock.now());
    }
    this.#log.record({
      channel: "mcp",
      direction: "out",
      target: this.#target(),
      bytes: encoder.encode(text),
      correlationId,
      ...(note !== undefined ? { note } : {}),
    });
    return value;
  }

  /** Records an incoming frame; returns its parsed value (undefined when it is not JSON). */
  in(text: string, extra: { readonly status?: number; readonly note?: string } = {}): unknown {
    const value = tryParse(text);
    const id = correlationOf(value);
    const correlationId = id ?? this.#ids.next();
    let rttMs: number | undefined;
    if (id !== undefined && (isResponse(value) || Array.isArray(value))) {
      const sent = this.#sentAt.get(correlationId);
      if (sent !== undefined) {
        rttMs = this.#clock.now() - sent;
        this.#sentAt.delete(correlationId);
      }
    }
    this.#log.record({
      channel: "mcp",
      direction: "in",
      target: this.#target(),
      bytes: encoder.encode(text),
      correlationId,
      ...(rttMs !== undefined ? { rttMs } : {}),
      ...(extra.status !== undefined ? { status: extra.status } : {}),
      ...(extra.note !== undefined ? { note: extra.note } : {}),
    });
    return value;
  }
}
