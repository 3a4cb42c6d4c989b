import type { Clock, IdSource } from "../../../core/env/index.ts";
import { type CreateSessionBody, DirectRefusedError, DirectTransport, type RelayConsoleEvent, RelayTransport } from "../../../core/mcp/index.ts";
import type { WireLog } from "../../../core/wire/index.ts";
import type { AppServices } from "../../state/services.ts";
import type { ConnectionMode } from "./connect-form.ts";
import type { McpTransportHandle } from "./mcp-state.svelte.ts";

/** How one connection is made: the form's mode, and where to say that Auto fell back to the relay. */
export interface TransportChoice {
  readonly mode?: ConnectionMode;
  readonly onNote?: (text: string) => void;
}

export type ChoosingTransportFactory = (
  session: CreateSessionBody,
  onConsole: (event: RelayConsoleEvent) => void,
  choice?: TransportChoice,
) => McpTransportHandle;

export interface FactoryDeps {
  readonly fetch: typeof fetch;
  /** The backend's origin for relayed sessions. */
  readonly baseUrl: string;
  readonly token: string;
  readonly wireLog: WireLog;
  readonly clock: Clock;
  readonly ids: IdSource;
}

/** Sessions through the backend relay (the default), or straight from the page when the form says so. */
export function relayFactory(services: AppServices): ChoosingTransportFactory {
  const { baseUrl, token } = services.backend.connection();
  const { fetch, clock, ids } = services.env;
  return transportFactory({ fetch, baseUrl: baseUrl || location.origin, token, wireLog: services.wireLog, clock, ids });
}

export function transportFactory(deps: FactoryDeps): ChoosingTransportFactory {
  const { fetch, wireLog, clock, ids } = deps;
  return (session, onConsole, choice = {}) => {
    const relay = () => new RelayTransport({ fetch, baseUrl: deps.baseUrl, token: deps.token, session, wireLog, clock, ids, onConsole });
    const mode = choice.mode ?? "relay";
    if (session.transport === "stdio" || mode === "relay") return relay();
    const direct = new DirectTransport({ fetch, session, wireLog, clock, ids, onConsole, relayFallback: mode !== "direct" });
    return mode === "direct" ? direct : new FallbackTransport(direct, relay, choice.onNote ?? (() => {}));
  };
}

/**
 * Auto mode: the direct transport until its first exchange shows the page may talk to the server;
 * a CORS or network refusal before that swaps in the relay, says so, and resends what was refused.
 */
export class FallbackTransport implements McpTransportHandle {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: McpTransportHandle["onmessage"];

  #current: McpTransportHandle;
  readonly #relay: () => McpTransportHandle;
  readonly #note: (text: string) => void;
  /** True once the direct transport got an answer, or the relay took over: no more switching. */
  #settled = false;
  #protocolVersion: string | undefined;

  constructor(direct: McpTransportHandle, relay: () => McpTransportHandle, note: (text: string) => void) {
    this.#current = direct;
    this.#relay = relay;
    this.#note = note;
    this.#attach(direct);
  }

  get target(): string {
    return this.#current.target;
  }

  /** Which way the connection went: "direct" until it fell back, then "relay". */
  get via(): "direct" | "relay" {
    return this.#current instanceof DirectTransport ? "direct" : "relay";
  }

  get closedReason(): string | undefined {
    const reason = (this.#current as { closedReason?: unknown }).closedReason;
    return typeof reason === "string" ? reason : undefined;
  }

  async start(): Promise<void> {
    try {
      await this.#current.start();
    } catch (error) {
      if (!this.#refused(error)) throw error;
      await this.#fallBack(error as DirectRefusedError);
    }
  }

  send(...[message, options]: Parameters<McpTransportHandle["send"]>): Promise<void> {
    return this.#attempt(() => this.#current.send(message, options));
  }

  sendRaw(text: string): Promise<void> {
    return this.#attempt(() => this.#current.sendRaw(text));
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#current.setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    return this.#current.close();
  }

  async #attempt(op: () => Promise<void>): Promise<void> {
    if (this.#settled) return op();
    try {
      await op();
      this.#settled = true;
    } catch (error) {
      if (!this.#refused(error)) throw error;
      await this.#fallBack(error as DirectRefusedError);
      await op();
    }
  }

  #refused(error: unknown): boolean {
    return !this.#settled && error instanceof DirectRefusedError;
  }

  async #fallBack(refusal: DirectRefusedError): Promise<void> {
    this.#settled = true;
    const direct = this.#current;
    direct.onmessage = direct.onerror = direct.onclose = undefined;
    await direct.close().catch(() => undefined);
    this.#note(`Direct connection refused (${refusal.message}); connecting through the backend relay instead.`);
    const relay = this.#relay();
    this.#current = relay;
    this.#attach(relay);
    await relay.start();
    if (this.#protocolVersion !== undefined) relay.setProtocolVersion?.(this.#protocolVersion);
  }

  #attach(transport: McpTransportHandle): void {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra);
    // The refusal that makes Auto fall back is not the connection's error: it is handled here.
    transport.onerror = (error) => {
      if (!this.#refused(error)) this.onerror?.(error);
    };
    transport.onclose = () => this.onclose?.();
  }
}
