/** What a transport-specific relay (stdio, streamable HTTP, legacy SSE) offers its session, and what it reports back. */
import type { RelayEvent } from "../../src/core/mcp/relay-api.ts";

type Unstamped<E> = E extends unknown ? Omit<E, "at"> : never;

/** An event before the stream stamps its time; `closed` is reported through `PeerSink.closed`. */
export type PeerEvent = Unstamped<Exclude<RelayEvent, { type: "closed" }>>;

export interface PeerSink {
  emit(event: PeerEvent): void;
  /** The peer ended on its own (process exit, stream end); the first call wins. */
  closed(reason: string, code?: number): void;
}

export interface Peer {
  readonly pid?: number;
  /**
   * Forward one raw frame; resolves once it is queued (HTTP) or written (stdio). `headers` are the
   * frame's own `Mcp-*` headers (2026-07-28), sent with it where the transport has headers.
   */
  send(bytes: Buffer, headers?: Readonly<Record<string, string>>): Promise<void>;
  /**
   * Closes the upstream HTTP request that carries request `id`, how a 2026-07-28 client cancels
   * over Streamable HTTP; false when no such request is open (or the transport has none).
   */
  abort?(id: string | number): boolean;
  /** Stop the peer; resolves once it is gone (process exited, DELETE answered or timed out). */
  close(): Promise<void>;
  /** Synchronous last resort at process exit: SIGKILL a child. */
  killNow?(): void;
}

/** A frame sent to a session that has already ended. */
export class SessionClosedError extends Error {
  override readonly name = "SessionClosedError";
}
