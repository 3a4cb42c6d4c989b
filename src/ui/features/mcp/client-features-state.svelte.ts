import { systemClock, type Clock } from "../../../core/env/index.ts";
import type { ClientCapabilityChoice, ClientHandlers, McpConnection } from "../../../core/mcp/index.ts";
import { LogState } from "./log-state.svelte.ts";
import { RootsState } from "./roots-state.svelte.ts";
import { SamplingState } from "./sampling-state.svelte.ts";

export type PingResult = { readonly ok: true; readonly ms: number; readonly method: string } | { readonly ok: false; readonly message: string };

/** Which client capabilities to declare at connect; editable while not connected. */
export interface CapabilityChoice {
  elicitation: boolean;
  sampling: boolean;
  roots: boolean;
}

/**
 * What the console does as an MCP client beyond calling tools: the capabilities it declares,
 * sampling answered with a stub, roots, the server's log and ping.
 */
export class ClientFeaturesState {
  readonly choice = $state<CapabilityChoice>({ elicitation: true, sampling: true, roots: true });
  /** What the open (or last) connection declared. */
  declared = $state.raw<ClientCapabilityChoice | null>(null);
  readonly sampling = new SamplingState((text) => this.#note(text));
  readonly roots = new RootsState();
  readonly logs: LogState;
  pinging = $state(false);
  pingResult = $state.raw<PingResult | null>(null);

  readonly #clock: Clock;
  #connection: McpConnection | undefined;
  #note: (text: string) => void = () => {};
  #unsubscribe: (() => void)[] = [];

  constructor(clock: Clock = systemClock(performance, Date)) {
    this.#clock = clock;
    this.logs = new LogState(clock);
  }

  /** The capabilities and handlers to connect with; `elicitation` answers elicitation requests. */
  connectOptions(elicitation: NonNullable<ClientHandlers["elicitation"]>): { capabilities: ClientCapabilityChoice; handlers: ClientHandlers } {
    const capabilities = { ...this.choice };
    this.declared = capabilities;
    return {
      capabilities,
      handlers: {
        ...(capabilities.elicitation ? { elicitation } : {}),
        ...(capabilities.sampling ? { sampling: this.sampling.handle } : {}),
        ...(capabilities.roots ? { roots: this.roots.handle } : {}),
      },
    };
  }

  /** Follows a connection from before it connects, so no early log line is missed; `note` writes to the console. */
  attach(connection: McpConnection, note: (text: string) => void): void {
    this.detach();
    this.#connection = connection;
    this.#note = note;
    this.logs.clear();
    this.pingResult = null;
    this.#unsubscribe = [connection.on("log", this.logs.add)];
    if (this.declared?.roots) this.roots.attach(() => connection.sendRootsListChanged());
  }

  /** Lets go of the connection; sampling requests still waiting are refused. */
  detach(): void {
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    this.#connection = undefined;
    this.roots.detach();
    this.sampling.clear();
  }

  async setLogLevel(): Promise<void> {
    await this.logs.setLevel(this.#connection);
  }

  /** Pings the server and shows the round trip, or why it failed. */
  async ping(timeoutMs: number): Promise<void> {
    const connection = this.#connection;
    if (!connection || this.pinging) return;
    this.pinging = true;
    const start = this.#clock.now();
    try {
      await connection.ping(timeoutMs);
      this.pingResult = { ok: true, ms: this.#clock.now() - start, method: connection.pingMethod };
    } catch (error) {
      this.pingResult = { ok: false, message: `ping failed: ${(error as Error).message}` };
    } finally {
      this.pinging = false;
    }
  }
}
