import type { NatsServeStatus, ServeApi, ServedTool } from "../../../core/backend/serve-api.ts";
import type { ServedEntry } from "../../../core/serving/index.ts";
import { failure, toolkitForStart, wholeField } from "./start-fields.ts";
import type { ToolkitState } from "./toolkit-state.svelte.ts";

export type NatsApi = Pick<ServeApi, "natsStatus" | "natsStart" | "natsStop">;

/** The fisk-ai surface on the backend's NATS server: start options, the backend's status, errors in words. */
export class NatsSurface {
  /** Empty: the backend's default (the CPU count clamped to 2–8). */
  concurrency = $state("");
  gen1 = $state(false);
  status = $state<NatsServeStatus | null>(null);
  busy = $state(false);
  error = $state<string | null>(null);
  startedText = $state<string | null>(null);

  readonly #api: NatsApi;
  readonly #onRunning: (running: boolean) => void;
  #version = 0;

  constructor(api: NatsApi, onRunning: (running: boolean) => void) {
    this.#api = api;
    this.#onRunning = onRunning;
  }

  readonly running: boolean = $derived(this.status?.serving === true);

  async refresh(): Promise<void> {
    const version = this.#version;
    try {
      const status = await this.#api.natsStatus();
      if (version === this.#version) this.#apply(status);
    } catch (err) {
      if (version === this.#version) this.error = failure("Could not read the NATS surface's status", err);
    }
  }

  async start(kit: ToolkitState): Promise<void> {
    const toolkit = toolkitForStart(kit);
    if ("problem" in toolkit) return void (this.error = toolkit.problem);
    const concurrency = wholeField(this.concurrency, "Concurrency", 1, 64);
    if (concurrency.problem) return void (this.error = `Not started: ${concurrency.problem}`);
    await this.#act("Could not start the NATS surface", async () => {
      const status = await this.#api.natsStart({
        toolkit: toolkit.body,
        generation: this.gen1 ? "gen1" : "gen2",
        ...(concurrency.value !== undefined ? { concurrency: concurrency.value } : {}),
      });
      this.startedText = kit.text;
      return status;
    });
  }

  async stop(): Promise<void> {
    await this.#act("Could not stop the NATS surface", () => this.#api.natsStop());
  }

  /** Exactly what the backend serves while running; otherwise the editor's toolkit, computed here. */
  rows(local: readonly ServedEntry[]): { readonly rows: readonly ServedTool[]; readonly fromBackend: boolean } {
    if (this.status?.serving) return { rows: this.status.served, fromBackend: true };
    return { rows: local.map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason })), fromBackend: false };
  }

  async #act(action: string, op: () => Promise<NatsServeStatus>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    const version = ++this.#version;
    try {
      const status = await op();
      if (version === this.#version) this.#apply(status);
    } catch (err) {
      this.error = failure(action, err);
    } finally {
      this.busy = false;
    }
  }

  #apply(status: NatsServeStatus): void {
    this.status = status;
    if (status.serving && this.startedText === null) {
      this.concurrency = String(status.concurrency);
      this.gen1 = status.generation === "gen1";
    }
    if (!status.serving) this.startedText = null;
    this.#onRunning(status.serving);
  }
}
