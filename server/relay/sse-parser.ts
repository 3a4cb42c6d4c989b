/**
 * Reads a text/event-stream body into events, working on bytes so that each event's size is
 * bounded before any text is built, and invalid UTF-8 is noticed per event instead of silently
 * replaced somewhere in the stream.
 */

export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
  /** True when the event's bytes were not valid UTF-8; the bad bytes became U+FFFD. */
  readonly invalidUtf8?: boolean;
}

export interface SseOptions {
  /** The most data bytes one event may carry; a bigger one is dropped and reported. */
  readonly maxEventBytes?: number;
  /** A complete line arrived (field, comment or blank): the stream is making progress. */
  readonly onLine?: () => void;
  /** The server asked for this reconnection delay (ms). */
  readonly onRetry?: (ms: number) => void;
  /** An event (or a line) of at least `bytes` bytes was dropped for being over the limit. */
  readonly onOversize?: (bytes: number) => void;
}

const LF = 0x0a;
const FIELD_SLACK = 64;
const CR = 0x0d;
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lossy = new TextDecoder("utf-8", { ignoreBOM: true });

/** Incremental parser state; `push` bytes as they come, `end` once the body is done. */
export class SseReader {
  readonly #onEvent: (event: SseEvent) => void;
  readonly #options: SseOptions;
  readonly #max: number;
  #partial: Buffer[] = [];
  #partialBytes = 0;
  #afterCr = false;
  #started = false;
  #event = "";
  #data: string[] = [];
  #dataBytes = 0;
  #id: string | undefined;
  #invalid = false;
  /** Dropping the rest of an oversize event, up to its blank line. */
  #skipping = false;
  /** Dropping the rest of an oversize line, up to its end. */
  #lineDropped = false;

  constructor(onEvent: (event: SseEvent) => void, options: SseOptions = {}) {
    this.#onEvent = onEvent;
    this.#options = options;
    this.#max = options.maxEventBytes ?? Number.POSITIVE_INFINITY;
  }

  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    if (this.#afterCr && bytes.length > 0) {
      this.#afterCr = false;
      if (bytes[0] === LF) start = 1;
    }
    // Positions of the next CR and LF, searched again only once passed (a long line is scanned once).
    let cr = bytes.indexOf(CR, start);
    let lf = bytes.indexOf(LF, start);
    while (cr >= 0 || lf >= 0) {
      const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
      this.#endLine(bytes.subarray(start, end));
      start = end + 1;
      if (end === cr) {
        if (start === bytes.length) this.#afterCr = true;
        else if (bytes[start] === LF) start++;
      }
      if (cr >= 0 && cr < start) cr = bytes.indexOf(CR, start);
      if (lf >= 0 && lf < start) lf = bytes.indexOf(LF, start);
    }
    if (start < bytes.length) this.#keep(bytes.subarray(start));
  }

  /** The stream ended cleanly: a last unterminated line and event are still delivered. */
  end(): void {
    if (this.#partial.length > 0) this.#endLine(Buffer.alloc(0));
    this.#lineDropped = false;
    this.#dispatch();
  }

  #keep(rest: Buffer): void {
    if (this.#lineDropped) return;
    this.#partial.push(rest);
    this.#partialBytes += rest.length;
    // The field name and colon come on top of the data.
    if (this.#partialBytes <= this.#max + FIELD_SLACK) return;
    // A line this long cannot belong to an acceptable event: drop it, and the rest of its event.
    if (!this.#skipping) this.#options.onOversize?.(this.#partialBytes + this.#dataBytes);
    this.#startSkipping();
    this.#lineDropped = true;
    this.#partial = [];
    this.#partialBytes = 0;
  }

  #endLine(tail: Buffer): void {
    this.#options.onLine?.();
    if (this.#lineDropped) {
      this.#lineDropped = false;
      return;
    }
    let line = tail;
    if (this.#partial.length > 0) {
      this.#partial.push(tail);
      line = Buffer.concat(this.#partial);
      this.#partial = [];
      this.#partialBytes = 0;
    }
    if (!this.#started) {
      this.#started = true;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (line.length === 0) return this.#dispatch();
    if (line[0] === 0x3a) return; // ":" starts a comment, e.g. a keepalive
    const colon = line.indexOf(0x3a);
    const name = (colon < 0 ? line : line.subarray(0, colon)).toString("latin1");
    let value = colon < 0 ? line.subarray(line.length) : line.subarray(colon + 1);
    if (value[0] === 0x20) value = value.subarray(1);
    if (name === "data") {
      if (this.#skipping) return;
      this.#dataBytes += value.length + (this.#data.length > 0 ? 1 : 0);
      if (this.#dataBytes > this.#max) {
        this.#options.onOversize?.(this.#dataBytes);
        this.#startSkipping();
        return;
      }
      this.#data.push(this.#text(value));
    } else if (name === "event") this.#event = this.#text(value);
    else if (name === "id") {
      const id = this.#text(value);
      if (!id.includes("\0")) this.#id = id;
    } else if (name === "retry" && /^\d+$/.test(value.toString("latin1"))) this.#options.onRetry?.(Number(value.toString("latin1")));
  }

  #text(bytes: Buffer): string {
    try {
      return fatal.decode(bytes);
    } catch {
      this.#invalid = true;
      return lossy.decode(bytes);
    }
  }

  #startSkipping(): void {
    this.#skipping = true;
    this.#data = [];
    this.#dataBytes = 0;
  }

  #dispatch(): void {
    if (!this.#skipping && this.#data.length > 0) {
      this.#onEvent({
        event: this.#event || "message",
        data: this.#data.join("\n"),
        ...(this.#id !== undefined ? { id: this.#id } : {}),
        ...(this.#invalid ? { invalidUtf8: true } : {}),
      });
    }
    this.#skipping = false;
    this.#event = "";
    this.#data = [];
    this.#dataBytes = 0;
    this.#invalid = false;
  }
}

/** Read the whole stream, calling `onEvent` per dispatched event; resolves when it ends, rejects when it breaks. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void, options: SseOptions = {}): Promise<void> {
  const parser = new SseReader(onEvent, options);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
