import type { NatsServeStatus, ServeApi, ServedTool } from "../../../core/backend/serve-api.ts";
import type { ServedEntry } from "../../../core/serving/index.ts";
import { toolkitForStart, wholeField } from "./start-fields.ts";
import { SurfaceActions } from "./surface-actions.svelte.ts";
import type { ToolkitState } from "./toolkit-state.svelte.ts";

export type NatsApi = Pick<ServeApi, "natsStatus" | "natsStart" | "natsStop">;

/** The fisk-ai surface on the backend's NATS server: start options, the backend's status, errors in words. */
export class NatsSurface extends SurfaceActions<NatsServeStatus> {
  /** Empty: the backend's default (the CPU count clamped to 2–8). */
  concurrency = $state("");
  gen1 = $state(false);
  /** Empty: the toolkit's name. Another identity joins its other instances (they share the load). */
  identity = $state("");
  /** Empty: a generated name. */
  instance = $state("");
  status = $state<NatsServeStatus | null>(null);

  readonly #api: NatsApi;
  readonly #onRunning: (running: boolean) => void;

  constructor(api: NatsApi, onRunning: (running: boolean) => void) {
    super();
    this.#api = api;
    this.#onRunning = onRunning;
  }

  readonly running: boolean = $derived(this.status?.serving === true);

  async refresh(): Promise<void> {
    await this.read("Could not read the NATS surface's status", () => this.#api.natsStatus());
  }

  protected startFields(): unknown {
    return [this.concurrency, this.gen1, this.identity, this.instance];
  }

  async start(kit: ToolkitState): Promise<void> {
    this.asking(kit);
    const toolkit = toolkitForStart(kit);
    if ("problem" in toolkit) return void (this.error = toolkit.problem);
    const concurrency = wholeField(this.concurrency, "Concurrency", 1, 64);
    if (concurrency.problem) return void (this.error = `Not started: ${concurrency.problem}`);
    const identity = this.identity.trim();
    const instance = this.instance.trim();
    for (const [value, name] of [[identity, "Identity"], [instance, "Instance"]] as const) {
      if (value !== "" && !/^[A-Za-z0-9_-]+$/.test(value)) return void (this.error = `Not started: ${name} must be letters, digits, '-' and '_' only`);
    }
    await this.act("Could not start the NATS surface", async () => {
      const status = await this.#api.natsStart({
        toolkit: toolkit.body,
        generation: this.gen1 ? "gen1" : "gen2",
        ...(identity !== "" ? { identity } : {}),
        ...(instance !== "" ? { instance } : {}),
        ...(concurrency.value !== undefined ? { concurrency: concurrency.value } : {}),
      });
      this.startedText = kit.text;
      return status;
    });
  }

  async stop(): Promise<void> {
    await this.act("Could not stop the NATS surface", () => this.#api.natsStop());
  }

  /** Exactly what the backend serves while running; otherwise the editor's toolkit, computed here. */
  rows(local: readonly ServedEntry[]): { readonly rows: readonly ServedTool[]; readonly fromBackend: boolean } {
    if (this.status?.serving) return { rows: this.status.served, fromBackend: true };
    return { rows: local.map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason })), fromBackend: false };
  }


  protected apply(status: NatsServeStatus): void {
    this.status = status;
    if (status.serving && this.startedText === null) {
      this.concurrency = String(status.concurrency);
      this.gen1 = status.generation === "gen1";
    }
    if (!status.serving) this.startedText = null;
    this.#onRunning(status.serving);
  }
}
