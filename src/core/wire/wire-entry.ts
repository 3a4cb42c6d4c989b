/** Every transport the log records, in display order. */
export const WIRE_CHANNELS = ["mcp", "a2a-http", "nats"] as const;
/** The transport a frame crossed. */
export type WireChannel = (typeof WIRE_CHANNELS)[number];
export type WireDirection = "out" | "in";

/** One frame as it crossed a transport, recorded before anything parsed it. */
export interface WireFrameInput {
  readonly channel: WireChannel;
  readonly direction: WireDirection;
  /** NATS subject, or the URL for HTTP transports. */
  readonly target: string;
  readonly headers?: Record<string, string[]>;
  /** Ties a request to its replies (JSON-RPC id, NATS inbox, request id). */
  readonly correlationId?: string;
  /** The exact bytes on the wire. */
  readonly bytes: Uint8Array;
  /** Transport status where there is one: HTTP status, NATS status code (503). */
  readonly status?: number;
  /** Round-trip time in ms for a reply, measured by the caller with the injected clock. */
  readonly rttMs?: number;
  /** Short free-text note from the transport ("no responders", "timeout"). */
  readonly note?: string;
}

/** What the log derives from the bytes for display and filtering; never replaces them. */
export interface WireDecoded {
  /** Parsed JSON when the payload is JSON, else undefined. */
  readonly json?: unknown;
  /** Why the payload is not shown as JSON (not JSON, not UTF-8, too large to parse). */
  readonly jsonError?: string;
  /** JSON-RPC method, or similar verb for the protocol. */
  readonly method?: string;
  /** Self-described protocol id (fisk-ai `protocol`, micro `type`). */
  readonly protocolId?: string;
  /**
   * For a frame with neither of the above (a JSON-RPC response, a plain NATS reply): the method or
   * protocol id of the earlier frame with the same channel and correlation id, its request.
   */
  readonly requestMethod?: string;
  /**
   * Who sent a fisk-ai message, as its header claims: `sender.name`, and the instance of that
   * identity when it names one (several processes can serve one identity).
   */
  readonly sender?: { readonly name: string; readonly instance?: string };
}

export interface WireEntry extends WireFrameInput {
  /** Position in the log since it was created; gaps show what the ring dropped. */
  readonly seq: number;
  /** Monotonic milliseconds from the injected clock. */
  readonly ts: number;
  /** Wall time, ms since epoch, for display and export. */
  readonly wall: number;
  readonly size: number;
  readonly decoded: WireDecoded;
}
