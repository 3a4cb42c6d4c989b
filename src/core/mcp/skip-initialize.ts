import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Passes everything through to `inner`, but shows the SDK Client a session id, so its connect()
 * skips the built-in initialize (which always asks for the SDK's newest version). McpConnection
 * then sends initialize itself, with the version the user chose.
 */
export class SkipInitialize implements Transport {
  readonly sessionId = "initialize-by-connection";
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  get onmessage(): Transport["onmessage"] {
    return this.#inner.onmessage;
  }
  set onmessage(fn: Transport["onmessage"]) {
    this.#inner.onmessage = fn;
  }
  get onerror(): Transport["onerror"] {
    return this.#inner.onerror;
  }
  set onerror(fn: Transport["onerror"]) {
    this.#inner.onerror = fn;
  }
  get onclose(): Transport["onclose"] {
    return this.#inner.onclose;
  }
  set onclose(fn: Transport["onclose"]) {
    this.#inner.onclose = fn;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }
}
