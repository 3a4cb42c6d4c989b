import type { McpServeStatus, ServeApi, ServeConfirmMode, ServedTool } from "../../../core/backend/serve-api.ts";
import type { ServedEntry } from "../../../core/serving/index.ts";
import { bridgeFields, toolkitForStart, wholeField } from "./start-fields.ts";
import { SurfaceActions } from "./surface-actions.svelte.ts";
import type { ToolkitState } from "./toolkit-state.svelte.ts";

export type McpApi = Pick<ServeApi, "mcpStatus" | "mcpStart" | "mcpStop">;

/** The MCP Streamable HTTP surface: its start options, what the backend says about it, and errors in words. */
export class McpSurface extends SurfaceActions<McpServeStatus> {
  port = $state("7421");
  confirmMode = $state<ServeConfirmMode>("auto");
  concurrency = $state("2");
  timeoutMs = $state("");
  fixtures = $state(false);
  /** Serve fisk-ai agents' tools too, found over the console's NATS server. */
  bridging = $state(false);
  bridgeIdentities = $state("");
  bridgeInclude = $state("");
  bridgeExclude = $state("");
  status = $state<McpServeStatus>({ running: false });
  issues = $state<readonly string[]>([]);

  readonly #api: McpApi;
  readonly #onRunning: (running: boolean) => void;

  constructor(api: McpApi, onRunning: (running: boolean) => void) {
    super();
    this.#api = api;
    this.#onRunning = onRunning;
  }

  readonly operator: boolean = $derived(this.status.running && this.status.confirmMode === "operator");

  async refresh(): Promise<void> {
    await this.read("Could not read the MCP surface's status", () => this.#api.mcpStatus());
  }

  protected startFields(): unknown {
    return [this.port, this.confirmMode, this.concurrency, this.timeoutMs, this.fixtures, this.bridging, this.bridgeIdentities, this.bridgeInclude, this.bridgeExclude];
  }

  async start(kit: ToolkitState): Promise<void> {
    this.asking(kit);
    const toolkit = toolkitForStart(kit);
    if ("problem" in toolkit) return void (this.error = toolkit.problem);
    const port = wholeField(this.port, "The port", 0, 65_535);
    const concurrency = wholeField(this.concurrency, "Concurrency", 1, 64);
    const timeout = wholeField(this.timeoutMs, "The timeout", 1, 3_600_000);
    const bridge = this.bridging ? bridgeFields(this.bridgeIdentities, this.bridgeInclude, this.bridgeExclude) : {};
    const problem = port.problem ?? concurrency.problem ?? timeout.problem ?? bridge.problem;
    if (problem) return void (this.error = `Not started: ${problem}`);
    await this.act("Could not start the MCP surface", async () => {
      const started = await this.#api.mcpStart({
        toolkit: toolkit.body,
        confirmMode: this.confirmMode,
        fixtures: this.fixtures,
        ...(port.value !== undefined ? { port: port.value } : {}),
        ...(concurrency.value !== undefined ? { concurrency: concurrency.value } : {}),
        ...(timeout.value !== undefined ? { timeoutMs: timeout.value } : {}),
        ...(bridge.value ? { bridge: bridge.value } : {}),
      });
      const { issues, ...status } = started;
      this.startedText = kit.text;
      this.issues = issues;
      return status;
    });
  }

  async stop(): Promise<void> {
    await this.act("Could not stop the MCP surface", () => this.#api.mcpStop());
  }

  /** The served set: exactly what the backend reports while running, else computed here from the editor. */
  rows(local: readonly ServedEntry[]): { readonly rows: readonly ServedTool[]; readonly fromBackend: boolean } {
    if (!this.status.running) return { rows: local.map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason })), fromBackend: false };
    const fixtures = this.status.fixtureTools.map((name) => ({ name, served: true, reason: "conformance fixture" }));
    const bridged = (this.status.bridge?.tools ?? []).map((t) => ({ name: t.name, served: true, reason: `bridged from fisk-ai agent ${t.agent}${t.remoteName === t.name ? "" : ` (its ${t.remoteName})`}` }));
    return { rows: [...this.status.tools, ...bridged, ...fixtures], fromBackend: true };
  }


  protected apply(status: McpServeStatus): void {
    this.status = status;
    if (status.running && this.startedText === null) {
      // Started elsewhere or before a reload: the form shows what actually runs.
      this.port = String(status.port);
      this.confirmMode = status.confirmMode as ServeConfirmMode;
      this.concurrency = String(status.concurrency);
      this.timeoutMs = status.timeoutMs === undefined ? "" : String(status.timeoutMs);
      this.fixtures = status.fixtures;
      this.bridging = status.bridge !== undefined;
      this.bridgeIdentities = status.bridge?.identities.join(", ") ?? "";
    }
    if (!status.running) {
      this.issues = [];
      this.startedText = null;
    }
    this.#onRunning(status.running);
  }
}
