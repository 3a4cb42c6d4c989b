import type { Clock, IdSource } from "../env/environment.ts";
import { isJsonObject, jsonOrUndefined } from "../json/index.ts";
import type { WireDirection } from "../wire/wire-entry.ts";
import type { WireLog } from "../wire/wire-log.ts";

const MAX_PENDING = 10_000;
const encoder = new TextEncoder();

/** The JSON-RPC id of a parsed message (the first id in a batch), as a string. */
export function correlationOf(value: unknown): string | undefined {
  const first = firstWithId(value);
  if (!isJsonObject(first)) return undefined;
  const id = first.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

function firstWithId(value: unknown): unknown {
  return Array.isArray(value) ? value.find((m) => isJsonObject(m) && "id" in m) : value;
}

/** Who sent the request an exchange belongs to. */
export type RequestOrigin = "client" | "server";

const PREFIXED = /^(client|server):/;

/**
 * The wire log's correlation id for the exchange of request `id` sent by `origin`. Both peers
 * number their requests from 0, so the server's request 0 gets a `server:` prefix; the client's
 * ids stay as they are, escaped with `client:` only when they would look prefixed themselves.
 */
export function exchangeKey(origin: RequestOrigin, id: string): string {
  if (origin === "server") return `server:${id}`;
  return PREFIXED.test(id) ? `client:${id}` : id;
}

/** A response has no method and carries result or error; any other frame with an id asks for an answer. */
export function isResponse(value: unknown): boolean {
  const first = firstWithId(value);
  return isJsonObject(first) && !("method" in first) && ("result" in first || "error" in first);
}

/** Which peer sent the request a frame belongs to: a response travels the opposite way of its request. */
export function originOf(direction: WireDirection, response: boolean): RequestOrigin {
  const fromClient = direction === "out";
  return fromClient !== response ? "client" : "server";
}

/** What a transport knows of a frame beyond its text: HTTP status and headers, a note. */
export interface FrameExtra {
  readonly status?: number;
  readonly note?: string;
  readonly headers?: Record<string, string[]>;
}

/**
 * Records MCP frames in the wire log exactly as they crossed, correlated by JSON-RPC id and the
 * direction of the request; a response carries the time since its request crossed, whichever
 * peer asked.
 */
export class FrameRecorder {
  readonly #log: WireLog;
  readonly #clock: Clock;
  readonly #ids: IdSource;
  readonly #target: () => string;
  readonly #askedAt = new Map<string, number>();

  constructor(log: WireLog, clock: Clock, ids: IdSource, target: () => string) {
    this.#log = log;
    this.#clock = clock;
    this.#ids = ids;
    this.#target = target;
  }

  /** Records an outgoing frame (with its HTTP headers, where it has some); returns its parsed value (undefined when it is not JSON). */
  out(text: string, note?: string, headers?: Record<string, string[]>): unknown {
    return this.#record("out", text, { ...(note === undefined ? {} : { note }), ...(headers ? { headers } : {}) });
  }

  /** Records an incoming frame; returns its parsed value (undefined when it is not JSON). */
  in(text: string, extra: FrameExtra = {}): unknown {
    return this.#record("in", text, extra);
  }

  #record(direction: WireDirection, text: string, extra: FrameExtra): unknown {
    const value = jsonOrUndefined(text);
    const id = correlationOf(value);
    let correlationId: string;
    let rttMs: number | undefined;
    if (id === undefined) correlationId = this.#ids.next();
    else {
      const response = isResponse(value);
      correlationId = exchangeKey(originOf(direction, response), id);
      if (response) rttMs = this.#answered(correlationId);
      else this.#asked(correlationId);
    }
    this.#log.record({
      channel: "mcp",
      direction,
      target: this.#target(),
      bytes: encoder.encode(text),
      correlationId,
      ...(rttMs !== undefined ? { rttMs } : {}),
      ...(extra.status !== undefined ? { status: extra.status } : {}),
      ...(extra.note !== undefined ? { note: extra.note } : {}),
      ...(extra.headers ? { headers: extra.headers } : {}),
    });
    return value;
  }

  #asked(key: string): void {
    // Re-inserting moves the key to the end, so the oldest unanswered request is evicted first.
    this.#askedAt.delete(key);
    if (this.#askedAt.size >= MAX_PENDING) this.#askedAt.delete(this.#askedAt.keys().next().value!);
    this.#askedAt.set(key, this.#clock.now());
  }

  #answered(key: string): number | undefined {
    const at = this.#askedAt.get(key);
    if (at === undefined) return undefined;
    this.#askedAt.delete(key);
    return this.#clock.now() - at;
  }
}
