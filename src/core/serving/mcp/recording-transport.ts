import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";

export type FrameDirection = "in" | "out";

/**
 * One message on the wire, as text; `session` is the MCP session id when there is one, and
 * `subject`, `reply` and `headers` are set for NATS messages.
 */
export interface FrameEvent {
  readonly direction: FrameDirection;
  readonly text: string;
  readonly session?: string;
  readonly subject?: string;
  /** The NATS reply subject (inbox) the message carried, if any. */
  readonly reply?: string;
  readonly headers?: Readonly<Record<string, readonly string[]>>;
}

export type FrameSink = (frame: FrameEvent) => void;

/**
 * Wraps a transport so every message it sends (and, unless the caller records raw bodies
 * itself, every message it receives) reaches a sink first. Outgoing text is the serialisation
 * the transports write, so it matches the wire.
 */
export class RecordingTransport implements Transport {
  readonly #inner: Transport;
  readonly #sink: FrameSink;
  readonly #inbound: boolean;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  readonly #onClosed: (() => void) | undefined;

  /** `onClosed` hears the inner transport close, whoever listens to this one. */
  constructor(inner: Transport, sink: FrameSink, options: { readonly recordInbound?: boolean; readonly onClosed?: () => void } = {}) {
    this.#inner = inner;
    this.#sink = sink;
    this.#inbound = options.recordInbound ?? true;
    this.#onClosed = options.onClosed;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.#inner.hasPerRequestStream;
  }

  #frame(direction: FrameDirection, text: string): void {
    const session = this.#inner.sessionId;
    this.#sink(session === undefined ? { direction, text } : { direction, text, session });
  }

  start(): Promise<void> {
    this.#inner.onclose = () => {
      this.#onClosed?.();
      this.onclose?.();
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message, extra) => {
      if (this.#inbound) this.#frame("in", JSON.stringify(message));
      this.onmessage?.(message, extra);
    };
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#frame("out", JSON.stringify(message));
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#inner.setSupportedProtocolVersions?.(versions);
  }
}
