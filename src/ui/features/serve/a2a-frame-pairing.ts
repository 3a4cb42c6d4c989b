import type { ServedFrame } from "../../../core/backend/serve-api.ts";
import { jsonOrUndefined } from "../../../core/json/index.ts";
import { correlationOf } from "../../../core/mcp/frame-recorder.ts";

/** Open exchanges remembered per key; the oldest are forgotten first. */
const MAX_OPEN = 10_000;

/** A Map that forgets its oldest key beyond `MAX_OPEN`. */
class Bounded<V> {
  readonly #map = new Map<string, V>();
  get(key: string): V | undefined {
    return this.#map.get(key);
  }
  set(key: string, value: V): void {
    this.#map.delete(key);
    if (this.#map.size >= MAX_OPEN) this.#map.delete(this.#map.keys().next().value!);
    this.#map.set(key, value);
  }
  delete(key: string): void {
    this.#map.delete(key);
  }
}

/** An HTTP+JSON route that answers with a stream: every event belongs to the one request. */
const STREAMING = /:(stream|subscribe)$/;

/**
 * Which exchange each served A2A frame belongs to, and how long after its request it crossed (by
 * the backend's clock). JSON-RPC frames pair by their id (a stream's events carry the request's);
 * HTTP+JSON frames by arrival within their method and path: an answer goes to the oldest request
 * still unanswered there, and a stream's events all go to the request that opened it. A card
 * read, or anything that names no request, is an exchange of its own.
 */
export class A2aFramePairing {
  readonly #fresh: () => string;
  readonly #askedAt = new Bounded<number>();
  /** HTTP+JSON requests waiting for their one answer, oldest first, per method and path. */
  readonly #waiting = new Bounded<string[]>();
  /** The stream each streaming route is answering now. */
  readonly #streaming = new Bounded<string>();

  constructor(fresh: () => string) {
    this.#fresh = fresh;
  }

  pair(frame: ServedFrame): { readonly correlationId: string; readonly rttMs?: number } {
    const correlationId = this.#correlation(frame);
    if (frame.direction === "in") {
      this.#askedAt.set(correlationId, frame.at);
      return { correlationId };
    }
    const asked = this.#askedAt.get(correlationId);
    return asked === undefined ? { correlationId } : { correlationId, rttMs: Math.max(0, frame.at - asked) };
  }

  #correlation(frame: ServedFrame): string {
    if (frame.binding === "jsonrpc") {
      const id = correlationOf(jsonOrUndefined(frame.text));
      return id === undefined ? this.#fresh() : `served-a2a/${id}`;
    }
    if (frame.binding !== "rest") return this.#fresh();
    const route = `${frame.method ?? ""} ${frame.path ?? ""}`;
    if (STREAMING.test(frame.path ?? "")) {
      const open = frame.direction === "in" ? undefined : this.#streaming.get(route);
      if (open !== undefined) return open;
      const id = `served-a2a/${this.#fresh()}`;
      this.#streaming.set(route, id);
      return id;
    }
    if (frame.direction === "in") {
      const id = `served-a2a/${this.#fresh()}`;
      this.#waiting.set(route, [...(this.#waiting.get(route) ?? []), id]);
      return id;
    }
    const [first, ...rest] = this.#waiting.get(route) ?? [];
    if (rest.length > 0) this.#waiting.set(route, rest);
    else this.#waiting.delete(route);
    return first ?? this.#fresh();
  }
}
