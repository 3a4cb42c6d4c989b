import type { ServedFrame } from "../../../core/backend/serve-api.ts";
import type { IdSource } from "../../../core/env/index.ts";
import { jsonOrUndefined } from "../../../core/json/index.ts";
import { correlationOf, exchangeKey, isResponse } from "../../../core/mcp/frame-recorder.ts";
import type { WireChannel, WireLog } from "../../../core/wire/index.ts";
import { A2aFramePairing } from "./a2a-frame-pairing.ts";

export type ServedSurface = "mcp" | "nats" | "a2a";
export const SERVED_SURFACES: readonly ServedSurface[] = ["mcp", "nats", "a2a"];
/** Served A2A frames share the channel of the A2A workbench's own exchanges, so Traffic treats them alike. */
const CHANNEL: Record<ServedSurface, WireChannel> = { mcp: "mcp", nats: "nats", a2a: "a2a-http" };
const NAME: Record<ServedSurface, string> = { mcp: "MCP", nats: "NATS", a2a: "A2A" };

const MAX_ASKED = 10_000;
const encoder = new TextEncoder();

/** A bounded map of when each request crossed, oldest forgotten first. */
class AskedAt {
  readonly #at = new Map<string, number>();
  set(key: string, at: number): void {
    this.#at.delete(key);
    if (this.#at.size >= MAX_ASKED) this.#at.delete(this.#at.keys().next().value!);
    this.#at.set(key, at);
  }
  since(key: string, at: number): number | undefined {
    const asked = this.#at.get(key);
    return asked === undefined ? undefined : Math.max(0, at - asked);
  }
  delete(key: string): void {
    this.#at.delete(key);
  }
}

/**
 * Puts the frames a served surface saw into the console's wire log, verbatim. Directions are the
 * served agent's: `in` reached it, `out` left it. Frames of one exchange share a correlation id,
 * and an answer carries the time since its request crossed, by the backend's clock.
 */
export class ServedFrameRecorder {
  readonly #log: WireLog;
  readonly #ids: IdSource;
  readonly #mcpAsked = new AskedAt();
  readonly #natsAsked = new AskedAt();
  readonly #a2a: A2aFramePairing;

  constructor(log: WireLog, ids: IdSource) {
    this.#log = log;
    this.#ids = ids;
    this.#a2a = new A2aFramePairing(() => ids.next());
  }

  mcp(frame: ServedFrame): void {
    const value = jsonOrUndefined(frame.text);
    const id = correlationOf(value);
    let correlationId: string;
    let rttMs: number | undefined;
    if (id === undefined) correlationId = this.#ids.next();
    else {
      const response = isResponse(value);
      // A request reaching the agent came from its client; one leaving it is the agent's own.
      const key = exchangeKey((frame.direction === "in") !== response ? "client" : "server", id);
      correlationId = frame.session === undefined ? key : `${frame.session}/${key}`;
      if (response) {
        rttMs = this.#mcpAsked.since(correlationId, frame.at);
        this.#mcpAsked.delete(correlationId);
      } else this.#mcpAsked.set(correlationId, frame.at);
    }
    this.#record("mcp", frame, "served mcp", correlationId, rttMs);
  }

  nats(frame: ServedFrame): void {
    const subject = frame.subject ?? "";
    // A request names its reply subject; what the agent sends there belongs to that request.
    const correlationId = frame.reply ?? (frame.direction === "out" && subject !== "" ? subject : this.#ids.next());
    let rttMs: number | undefined;
    if (frame.direction === "in" && frame.reply !== undefined) this.#natsAsked.set(frame.reply, frame.at);
    else if (frame.direction === "out") rttMs = this.#natsAsked.since(subject, frame.at);
    this.#record("nats", frame, `served nats ${subject}`.trimEnd(), correlationId, rttMs);
  }

  /**
   * One HTTP message body (or one SSE event) of the served A2A agent. A request carries its HTTP
   * method as the A2A workbench's own requests do (`:method`); an answer its HTTP status.
   */
  a2a(frame: ServedFrame): void {
    const { correlationId, rttMs } = this.#a2a.pair(frame);
    const method = frame.method;
    const headers = frame.direction === "in" && method !== undefined ? { ...frame.headers, ":method": [method] } : frame.headers;
    const target = ["served a2a", method, frame.path].filter((w) => w !== undefined && w !== "").join(" ");
    this.#record("a2a", { ...frame, ...(headers ? { headers } : {}) }, target, correlationId, rttMs);
  }

  /** Marks where the backend dropped frames before the console read them. */
  gap(surface: ServedSurface, count: number): void {
    this.#log.record({
      channel: CHANNEL[surface],
      direction: "in",
      target: `served ${surface}`,
      bytes: new Uint8Array(0),
      correlationId: this.#ids.next(),
      note: `${count} served ${NAME[surface]} frame${count === 1 ? " was" : "s were"} not kept by the backend before the console read ${count === 1 ? "it" : "them"}`,
    });
  }

  #record(surface: ServedSurface, frame: ServedFrame, target: string, correlationId: string, rttMs: number | undefined): void {
    const note = frame.truncated ? `cut by the backend: the first ${frame.text.length} of ${frame.length ?? "more"} characters` : undefined;
    this.#log.record({
      channel: CHANNEL[surface],
      direction: frame.direction,
      target,
      bytes: encoder.encode(frame.text),
      correlationId,
      ...(frame.headers ? { headers: { ...frame.headers } } : {}),
      ...(frame.status !== undefined ? { status: frame.status } : {}),
      ...(rttMs !== undefined ? { rttMs } : {}),
      ...(note !== undefined ? { note } : {}),
    });
  }
}
