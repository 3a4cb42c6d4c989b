/**
 * A session's event stream: events are stamped, serialized to NDJSON lines and queued until the one
 * reader takes them. The queue is bounded (oldest dropped, then one notice says how many), so a slow
 * or absent reader never grows memory without limit; writes wait for 'drain' instead of piling up.
 */
import type { PeerEvent } from "./relay-peer.ts";

export const STREAM_MAX_LINES = 1000;
export const STREAM_MAX_BYTES = 4 * 1024 * 1024;

/** The part of a ServerResponse the stream writes to. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  once(event: "drain", listener: () => void): unknown;
}

/** One reader's hold on the stream; `start` once the response is ready, `release` when it goes away. */
export interface StreamClaim {
  start(sink: StreamSink): void;
  release(): void;
}

export type StreamEvent = PeerEvent | { readonly type: "closed"; readonly reason: string; readonly code?: number };

export interface EventStream {
  push(event: StreamEvent): void;
  /** The single reader's claim, or null while another reader holds it. */
  claim(): StreamClaim | null;
  /** True once `closed` was pushed. */
  readonly finished: boolean;
  /** Resolves when a reader received the `closed` line and its body ended. */
  readonly delivered: Promise<void>;
}

export interface EventStreamOptions {
  /** ms since the session started. */
  readonly elapsed: () => number;
  readonly maxLines?: number;
  readonly maxBytes?: number;
  /** Told when a reader takes the stream (true) and when it lets go (false). */
  readonly onReader?: (present: boolean) => void;
}

export function createEventStream(options: EventStreamOptions): EventStream {
  const maxLines = options.maxLines ?? STREAM_MAX_LINES;
  const maxBytes = options.maxBytes ?? STREAM_MAX_BYTES;
  const queue: string[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let finished = false;
  let claimed = false;
  let sink: StreamSink | null = null;
  let blocked = false;
  let markDelivered = () => {};
  const delivered = new Promise<void>((resolve) => (markDelivered = resolve));

  const line = (event: object) => `${JSON.stringify({ ...event, at: options.elapsed() })}\n`;

  function trim(): void {
    // The newest line (possibly `closed`) always stays.
    while (queue.length > 1 && (queue.length > maxLines || queuedBytes > maxBytes)) {
      queuedBytes -= Buffer.byteLength(queue.shift()!);
      dropped++;
    }
  }

  function flush(): void {
    const target = sink;
    if (target === null || blocked) return;
    if (queue.length > 0 || dropped > 0) {
      let chunk = "";
      if (dropped > 0) {
        const message = `${dropped} events were dropped: the stream reader fell behind (buffer limit ${maxLines} lines / ${maxBytes} bytes)`;
        chunk = line({ type: "error", step: "protocol", message });
        dropped = 0;
      }
      chunk += queue.join("");
      queue.length = 0;
      queuedBytes = 0;
      if (!target.write(chunk)) {
        blocked = true;
        target.once("drain", () => {
          if (sink !== target) return;
          blocked = false;
          flush();
        });
        return;
      }
    }
    if (finished) {
      target.end();
      sink = null;
      markDelivered();
    }
  }

  return {
    get finished() {
      return finished;
    },
    delivered,
    push(event) {
      if (finished) return;
      if (event.type === "closed") finished = true;
      const text = line(event);
      queue.push(text);
      queuedBytes += Buffer.byteLength(text);
      trim();
      flush();
    },
    claim() {
      if (claimed) return null;
      claimed = true;
      options.onReader?.(true);
      let mine: StreamSink | null = null;
      let released = false;
      return {
        start(next) {
          if (released) return;
          mine = next;
          sink = next;
          blocked = false;
          flush();
        },
        release() {
          if (released) return;
          released = true;
          if (sink === mine) {
            sink = null;
            blocked = false;
          }
          claimed = false;
          options.onReader?.(false);
        },
      };
    },
  };
}
