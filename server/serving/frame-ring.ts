/**
 * Served traffic (MCP or NATS), kept for the console to read: the newest frames in a ring bounded
 * by count and by characters, each frame's text verbatim up to a per-frame cap.
 */
import type { FrameDirection, FrameEvent } from "../../src/core/serving/mcp/recording-transport.ts";

export interface RecordedFrame {
  /** 1, 2, 3, … for the life of the ring; gaps mean frames were dropped. */
  readonly seq: number;
  /** Epoch ms. */
  readonly at: number;
  readonly direction: FrameDirection;
  readonly session?: string;
  /** The NATS subject, for NATS frames. */
  readonly subject?: string;
  /** The NATS reply subject (inbox) the message carried, if any. */
  readonly reply?: string;
  /** NATS headers, name to values, when the message had any. */
  readonly headers?: Readonly<Record<string, readonly string[]>>;
  readonly text: string;
  /** Set when the text was cut at the per-frame cap. */
  readonly truncated?: true;
  /** Total characters of the original text, when truncated. */
  readonly length?: number;
  /** A2A over HTTP: the binding ("card", "jsonrpc", "rest"), HTTP method and path, and an answer's status. */
  readonly binding?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
}

/** What a surface hands the ring: an MCP or NATS frame event, or an A2A HTTP frame. */
export type RingFrame = FrameEvent & { readonly binding?: string; readonly method?: string; readonly path?: string; readonly status?: number };

export interface FramePage {
  readonly frames: RecordedFrame[];
  /** Pass as `after` to read on. */
  readonly next: number;
  /** Frames after `after` that are no longer kept. */
  readonly dropped: number;
}

export interface FrameRingOptions {
  readonly capacity?: number;
  readonly maxChars?: number;
  readonly maxFrameChars?: number;
  readonly now?: () => number;
}

export const MAX_PAGE = 500;

/** The characters a frame holds: its text, subjects, A2A binding, method and path, and header names and values. */
function weight(frame: RecordedFrame): number {
  let chars = frame.text.length + (frame.subject?.length ?? 0) + (frame.reply?.length ?? 0);
  chars += (frame.binding?.length ?? 0) + (frame.method?.length ?? 0) + (frame.path?.length ?? 0);
  if (frame.headers) for (const [name, values] of Object.entries(frame.headers)) for (const value of values) chars += name.length + value.length;
  return chars;
}

export class FrameRing {
  readonly #capacity: number;
  readonly #maxChars: number;
  readonly #maxFrameChars: number;
  readonly #now: () => number;
  #frames: RecordedFrame[] = [];
  #chars = 0;
  #seq = 0;

  constructor(options: FrameRingOptions = {}) {
    this.#capacity = options.capacity ?? 2_000;
    this.#maxChars = options.maxChars ?? 16 * 1024 * 1024;
    this.#maxFrameChars = options.maxFrameChars ?? 1024 * 1024;
    this.#now = options.now ?? Date.now;
  }

  /** The newest sequence number handed out (0 before any frame). */
  get latest(): number {
    return this.#seq;
  }

  get size(): number {
    return this.#frames.length;
  }

  push(frame: RingFrame): void {
    const long = frame.text.length > this.#maxFrameChars;
    const recorded: RecordedFrame = {
      seq: ++this.#seq,
      at: this.#now(),
      direction: frame.direction,
      ...(frame.session !== undefined ? { session: frame.session } : {}),
      ...(frame.subject !== undefined ? { subject: frame.subject } : {}),
      ...(frame.reply !== undefined ? { reply: frame.reply } : {}),
      ...(frame.headers !== undefined ? { headers: frame.headers } : {}),
      ...(frame.binding !== undefined ? { binding: frame.binding } : {}),
      ...(frame.method !== undefined ? { method: frame.method } : {}),
      ...(frame.path !== undefined ? { path: frame.path } : {}),
      ...(frame.status !== undefined ? { status: frame.status } : {}),
      text: long ? frame.text.slice(0, this.#maxFrameChars) : frame.text,
      ...(long ? { truncated: true as const, length: frame.text.length } : {}),
    };
    this.#frames.push(recorded);
    this.#chars += weight(recorded);
    let drop = 0;
    while (this.#frames.length - drop > this.#capacity || (this.#chars > this.#maxChars && this.#frames.length - drop > 1)) {
      this.#chars -= weight(this.#frames[drop]!);
      drop++;
    }
    if (drop > 0) this.#frames = this.#frames.slice(drop);
  }

  /** Up to `limit` frames with a sequence number above `after`, oldest first. */
  after(after: number, limit = MAX_PAGE): FramePage {
    const oldest = this.#frames[0]?.seq ?? this.#seq + 1;
    const dropped = Math.max(0, oldest - 1 - after);
    const start = this.#frames.findIndex((f) => f.seq > after);
    const frames = start < 0 ? [] : this.#frames.slice(start, start + Math.max(1, Math.min(limit, MAX_PAGE)));
    // A reader ahead of the ring (it outlived an earlier one) is brought back to the present.
    return { frames, next: frames.at(-1)?.seq ?? Math.min(after, this.#seq), dropped };
  }

  clear(): void {
    this.#frames = [];
    this.#chars = 0;
  }
}
