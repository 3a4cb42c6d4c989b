import { parseSavedConnection, toSavedConnection } from "../../../core/nats/saved-connection.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import type { NatsWorkbenchState } from "./nats-workbench.svelte.ts";

/** Saved NATS connections in the workspace: list, save the current form, load one into it. */
export class SavedConnectionsState {
  names = $state<string[]>([]);
  saveName = $state("");
  selected = $state("");
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  readonly #storage: DocumentStore;
  readonly #bench: NatsWorkbenchState;

  constructor(storage: DocumentStore, bench: NatsWorkbenchState) {
    this.#storage = storage;
    this.#bench = bench;
  }

  async refresh(): Promise<void> {
    try {
      const docs = await this.#storage.list("connections");
      this.names = docs.map((d) => d.name).sort();
    } catch (err) {
      this.error = `could not list saved connections: ${(err as Error).message}`;
    }
  }

  async save(): Promise<void> {
    const name = this.saveName.trim();
    const problem = documentNameProblem(name);
    if (problem) {
      this.#fail(`cannot save as ${JSON.stringify(name)}: ${problem}`);
      return;
    }
    const b = this.#bench;
    try {
      await this.#storage.write("connections", name, toSavedConnection(b.servers, b.authMode, b.user));
      this.#ok(`saved "${name}" (passwords and tokens are not saved)`);
      this.selected = name;
      await this.refresh();
    } catch (err) {
      this.#fail(`could not save "${name}": ${(err as Error).message}`);
    }
  }

  async load(name: string): Promise<void> {
    if (name === "") return;
    try {
      const parsed = parseSavedConnection(await this.#storage.read("connections", name));
      if (!parsed.ok) {
        this.#fail(`"${name}" is not a usable NATS connection: ${parsed.error}`);
        return;
      }
      const b = this.#bench;
      b.servers = parsed.connection.servers;
      b.authMode = parsed.connection.auth.mode;
      b.user = parsed.connection.auth.user ?? "";
      b.pass = "";
      b.token = "";
      this.saveName = name;
      this.#ok(`loaded "${name}"`);
    } catch (err) {
      this.#fail(`could not load "${name}": ${(err as Error).message}`);
    }
  }

  #ok(message: string): void {
    this.error = null;
    this.notice = message;
  }

  #fail(message: string): void {
    this.notice = null;
    this.error = message;
  }
}
