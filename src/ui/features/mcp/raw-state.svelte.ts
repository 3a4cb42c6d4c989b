import type { WireEntry, WireLog } from "../../../core/wire/index.ts";
import type { McpTransportHandle } from "./mcp-state.svelte.ts";

const MAX_FRAMES = 200;

/** Raw JSON-RPC mode: any text sent as one message, and the MCP frames that crossed since. */
export class RawJsonRpcState {
  text = $state('{"jsonrpc":"2.0","id":99,"method":"nope"}');
  sending = $state(false);
  error = $state<string | null>(null);
  /** Frames of this connection logged since the last raw send, oldest first. */
  frames = $state.raw<readonly WireEntry[]>([]);

  readonly #log: WireLog;
  #since: number | undefined;
  #target = "";
  #unsubscribe: (() => void) | undefined;

  constructor(log: WireLog) {
    this.#log = log;
  }

  async send(transport: McpTransportHandle | undefined): Promise<void> {
    if (!transport) {
      this.error = "Connect to a server first";
      return;
    }
    this.error = null;
    this.#since = this.#log.entries().at(-1)?.seq ?? 0;
    this.#target = transport.target;
    this.frames = [];
    this.#unsubscribe ??= this.#log.on("change", () => this.#refresh());
    this.sending = true;
    try {
      await transport.sendRaw(this.text);
    } catch (error) {
      this.error = `Not sent: ${(error as Error).message}`;
    } finally {
      this.sending = false;
      this.#refresh();
    }
  }

  dispose(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #refresh(): void {
    const since = this.#since;
    if (since === undefined) return;
    const entries = this.#log.entries();
    const out: WireEntry[] = [];
    for (let i = entries.length - 1; i >= 0 && out.length < MAX_FRAMES; i--) {
      const e = entries[i]!;
      if (e.seq <= since) break;
      if (e.channel === "mcp" && e.target === this.#target) out.push(e);
    }
    this.frames = out.reverse();
  }
}
