/**
 * Stands between the SDK client and the real transport: answers and progress that belong to the
 * console's own request channel are taken off before the SDK sees them, and the lifecycle
 * exchanges the SDK makes (`initialize`, the `server/discover` probe) are watched, so the console
 * can show their answers as received and say why an era was chosen.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { isJsonObject } from "../json/index.ts";
import type { ProbeAnswer } from "./era.ts";
import type { McpTransport } from "./mcp-transport.ts";
import { relayFailureOf } from "./relay-error.ts";

type Lifecycle = "initialize" | "server/discover";

export interface BridgeHooks {
  /** Offered every message from the server first; true when it was taken. */
  take(message: unknown): boolean;
  /** Every transport error, also those during the probe, before the SDK has handlers of its own. */
  transportError?(error: Error): void;
}

export class SdkBridge implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];

  readonly #inner: McpTransport;
  readonly #hooks: BridgeHooks;
  readonly #asked = new Map<string, Lifecycle>();
  /** The last lifecycle request the SDK sent, for naming a timeout. */
  lastLifecycle: Lifecycle | undefined;
  /** The initialize result as received, when one came. */
  initializeAnswer: unknown;
  /** What server/discover got back, when the SDK probed. */
  probeAnswer: ProbeAnswer | undefined;
  /** The DiscoverResult as received. */
  discoverResult: unknown;

  /** True while a server/discover probe waits for its answer. */
  get probing(): boolean {
    return [...this.#asked.values()].includes("server/discover");
  }

  constructor(inner: McpTransport, hooks: BridgeHooks) {
    this.#inner = inner;
    this.#hooks = hooks;
    // The SDK recognizes a process pipe by these members; over one, a silent probe means a legacy server.
    if (inner.channelKind === "stdio") Object.defineProperties(this, { stderr: { value: null, enumerable: true }, pid: { value: null, enumerable: true } });
    inner.onmessage = (message) => this.#received(message);
    inner.onerror = (error) => {
      hooks.transportError?.(error);
      this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get hasPerRequestStream(): boolean {
    return this.#inner.hasPerRequestStream === true;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: unknown; method?: unknown };
    if ((m.method === "initialize" || m.method === "server/discover") && (typeof m.id === "string" || typeof m.id === "number")) {
      this.#asked.set(String(m.id), m.method);
      this.lastLifecycle = m.method;
    }
    return this.#inner.send(message, options);
  }

  /** Sends a message the console's request channel made, past the SDK. */
  sendOwn(message: Record<string, unknown>, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message as JSONRPCMessage, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #received(message: JSONRPCMessage): void {
    this.#watch(message);
    if (this.#hooks.take(message)) return;
    this.onmessage?.(message);
  }

  #watch(message: unknown): void {
    if (!isJsonObject(message) || "method" in message || (typeof message.id !== "string" && typeof message.id !== "number")) return;
    const asked = this.#asked.get(String(message.id));
    if (asked === undefined) return;
    this.#asked.delete(String(message.id));
    if (asked === "initialize") {
      this.initializeAnswer = "result" in message ? message.result : { error: message.error };
      return;
    }
    if ("result" in message) {
      this.probeAnswer = { kind: "result", result: message.result };
      this.discoverResult = message.result;
    } else if (isJsonObject(message.error)) {
      const e = message.error;
      const relay = relayFailureOf(e.data);
      // A refusal the relay reported for the server: the server's own error from the body, when it sent one.
      const own = relay ? jsonRpcErrorIn(relay.body) : undefined;
      const error = own ?? { code: typeof e.code === "number" ? e.code : NaN, message: String(e.message ?? "") };
      this.probeAnswer = { kind: "error", ...error, ...(relay?.status !== undefined ? { status: relay.status } : {}) };
    }
  }
}

function jsonRpcErrorIn(body: string | undefined): { code: number; message: string } | undefined {
  if (body === undefined) return undefined;
  try {
    const value = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    const e = value.error;
    return e && typeof e.code === "number" && typeof e.message === "string" ? { code: e.code, message: e.message } : undefined;
  } catch {
    return undefined;
  }
}
