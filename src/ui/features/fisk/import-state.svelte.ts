import type { ImportPlan } from "../../../core/fisk/codec/index.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { previewImport, type HostRow } from "./import-form.ts";

/** The Import preview panel: hosts, local names, and the plan fisk-ai would make of them. */
export class ImportState {
  hosts = $state<HostRow[]>([{ identity: "", alias: "", include: "", exclude: "" }]);
  localNames = $state("");
  running = $state(false);
  plan = $state.raw<ImportPlan | null>(null);
  error = $state<string | null>(null);

  readonly #source: FiskSource;

  constructor(source: FiskSource) {
    this.#source = source;
  }

  addHost(): void {
    this.hosts.push({ identity: "", alias: "", include: "", exclude: "" });
  }

  removeHost(index: number): void {
    this.hosts.splice(index, 1);
    if (this.hosts.length === 0) this.addHost();
  }

  async preview(): Promise<void> {
    const rows = this.hosts.filter((h) => h.identity.trim() !== "").map((h) => ({ ...h }));
    const client = this.#source.client();
    this.error = rows.length === 0 ? "add at least one host identity" : client ? null : NOT_CONNECTED;
    if (rows.length === 0 || !client) return;
    this.running = true;
    try {
      this.plan = await previewImport(client, rows, this.localNames);
    } catch (err) {
      this.error = `The preview failed: ${(err as Error).message}`;
    } finally {
      this.running = false;
    }
  }
}
