import {
  CONFIG_FLAVOURS,
  type ConfigFlavour,
  formatServersConfig,
  MAX_CONFIG_CHARS,
  LEGACY_VERSIONS,
  parseServersConfig,
  type ServerEntry,
} from "../../../core/mcp/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import type { ConnectFormState } from "./connect-form-state.svelte.ts";
import { blankSecrets, documentNames, parseSavedServer, type Secrets, secretsOf, toSavedServer, withSecrets } from "./saved-server.ts";

const KIND = "servers";
/** An imported server says nothing of eras: it probes, as a new server does. */
const IMPORTED = { era: "auto", version: LEGACY_VERSIONS[0] } as const;

/**
 * Saved MCP servers in the workspace ("servers" documents): save the form, load one into it,
 * import an mcpServers file, export the list. Secret values (environment and header values, so
 * the bearer token too) stay in this tab unless the user asks to save them.
 */
export class SavedServersState {
  names = $state<string[]>([]);
  selected = $state("");
  saveName = $state("");
  /** Opt-in: write environment and header values to the workspace in plain text. */
  saveSecrets = $state(false);
  importText = $state("");
  /** What the last import said about single servers and the file. */
  notes = $state.raw<readonly string[]>([]);
  exportFlavour = $state<ConfigFlavour>("claude");
  exportSecrets = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  readonly #storage: DocumentStore;
  readonly #form: () => ConnectFormState;
  /** Secret values known in this tab, by document name; never written unless asked. */
  readonly #secrets: Record<string, Secrets> = Object.create(null) as Record<string, Secrets>;
  /** The document the form was loaded from, so saving it again keeps the server's own name. */
  #loadedDoc: string | undefined;

  constructor(storage: DocumentStore, form: () => ConnectFormState) {
    this.#storage = storage;
    this.#form = form;
  }

  async refresh(): Promise<void> {
    try {
      this.names = (await this.#storage.list(KIND)).map((d) => d.name).sort();
    } catch (err) {
      this.#fail(`could not list saved servers: ${(err as Error).message}`);
    }
  }

  async save(): Promise<void> {
    const name = this.saveName.trim();
    const problem = documentNameProblem(name);
    if (problem) return this.#fail(`cannot save as ${JSON.stringify(name)}: ${problem}`);
    const form = this.#form();
    const loaded = form.loadedFrom;
    const built = form.entry(this.#loadedDoc === name && loaded ? loaded.name : name);
    if (!built.ok) return this.#fail(`cannot save "${name}": ${built.error}`);
    try {
      await this.#storage.write(KIND, name, toSavedServer(built.entry, form.connectionMode, this.saveSecrets, { era: form.era, version: form.requestedVersion }));
    } catch (err) {
      return this.#fail(`could not save "${name}": ${(err as Error).message}`);
    }
    this.#secrets[name] = secretsOf(built.entry);
    this.#loadedDoc = name;
    this.selected = name;
    this.#ok(this.saveSecrets ? `saved "${name}", secret values included` : `saved "${name}" (environment and header values and the bearer token are not saved)`);
    await this.refresh();
  }

  async load(name: string): Promise<void> {
    if (name === "") return;
    let data: unknown;
    try {
      data = await this.#storage.read(KIND, name);
    } catch (err) {
      return this.#fail(`could not load "${name}": ${(err as Error).message}`);
    }
    const parsed = parseSavedServer(name, data);
    if (!parsed.ok) return this.#fail(`"${name}" is not a usable MCP server: ${parsed.error}`);
    const entry = withSecrets(parsed.entry, this.#secrets[name]);
    this.#form().load(entry, parsed.mode, parsed.protocol);
    this.#loadedDoc = name;
    this.saveName = name;
    this.selected = name;
    const missing = missingSecrets(entry);
    const notes = parsed.notes.length > 0 ? `; ${parsed.notes.join("; ")}` : "";
    this.#ok(`${missing.length > 0 ? `loaded "${name}"; give ${missing.join(", ")} again (secret values are not saved)` : `loaded "${name}"`}${notes}`);
  }

  async remove(): Promise<void> {
    const name = this.selected;
    if (name === "") return;
    try {
      await this.#storage.remove(KIND, name);
    } catch (err) {
      return this.#fail(`could not delete "${name}": ${(err as Error).message}`);
    }
    delete this.#secrets[name];
    this.selected = "";
    this.#ok(`deleted "${name}"`);
    await this.refresh();
  }

  /** Imports a dropped or chosen file; its size is checked before it is read. */
  async importFile(file: File): Promise<void> {
    if (file.size > MAX_CONFIG_CHARS * 4) return this.#fail(`${file.name}: the file is ${file.size} bytes; an MCP client config is a few kilobytes`);
    await this.importConfig(await file.text(), file.name);
  }

  /** Every server a config file lists goes into the saved list; what cannot is reported, and nothing is overwritten. */
  async importConfig(text: string = this.importText, source = "the pasted text"): Promise<void> {
    const parsed = parseServersConfig(text);
    if (!parsed.ok) {
      this.notes = [];
      return this.#fail(`${source}: ${parsed.error}`);
    }
    const { servers, rejected, warnings } = parsed.config;
    const notes: string[] = rejected.map((r) => `Not imported: "${r.server ?? ""}": ${r.message}`);
    let docs: string[];
    try {
      docs = documentNames(servers.map((s) => s.name), (await this.#storage.list(KIND)).map((d) => d.name));
    } catch (err) {
      return this.#fail(`could not list saved servers: ${(err as Error).message}`);
    }
    let imported = 0;
    for (const [i, server] of servers.entries()) {
      const doc = docs[i]!;
      try {
        await this.#storage.write(KIND, doc, toSavedServer(server, "relay", this.saveSecrets, IMPORTED));
      } catch (err) {
        notes.push(`Not imported: "${server.name}": it could not be saved (${(err as Error).message})`);
        continue;
      }
      imported++;
      this.#secrets[doc] = secretsOf(server);
      if (doc !== server.name) notes.push(`"${server.name}" is saved as "${doc}" (a workspace name is free, and uses letters, digits, ".", "_" and "-")`);
    }
    for (const w of warnings) notes.push(w.server !== undefined ? `"${w.server}": ${w.message}` : w.message);
    this.notes = notes;
    if (imported === servers.length && rejected.length === 0) this.importText = "";
    const secretNote = !this.saveSecrets && servers.some((s) => missingSecrets(blankSecrets(s)).length > 0) ? "; their secret values stay in this tab only" : "";
    this.#ok(`imported ${imported} of ${servers.length + rejected.length} servers from ${source}${secretNote}`);
    await this.refresh();
  }

  /** The saved list as a config file of the chosen client, for download; undefined when nothing could be read. */
  async exportServers(): Promise<{ fileName: string; text: string } | undefined> {
    const entries: ServerEntry[] = [];
    const skipped: string[] = [];
    try {
      for (const { name } of await this.#storage.list(KIND)) {
        const parsed = parseSavedServer(name, await this.#storage.read(KIND, name).catch((err: unknown) => err));
        if (!parsed.ok) {
          skipped.push(`"${name}" (${parsed.error})`);
          continue;
        }
        entries.push(this.exportSecrets ? withSecrets(parsed.entry, this.#secrets[name]) : blankSecrets(parsed.entry));
      }
    } catch (err) {
      this.#fail(`could not list saved servers: ${(err as Error).message}`);
      return undefined;
    }
    const flavour = CONFIG_FLAVOURS.find((f) => f.id === this.exportFlavour) ?? CONFIG_FLAVOURS[0]!;
    this.notes = skipped.length > 0 ? [`Left out of the export: ${skipped.join("; ")}`] : [];
    this.#ok(`exported ${entries.length} servers for ${flavour.label}${this.exportSecrets ? ", secret values included" : " with secret values left empty"}`);
    return { fileName: flavour.fileName, text: formatServersConfig(entries, flavour.id) };
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

/** The secrets an entry lacks: env variables and headers whose value is empty. */
function missingSecrets(entry: ServerEntry): string[] {
  const { env, headers } = secretsOf(entry);
  const empty = (record: Record<string, string>) => Object.keys(record).filter((k) => record[k] === "");
  return [
    ...empty(env).map((k) => `environment variable ${k}`),
    ...empty(headers).map((k) => (k.toLowerCase() === "authorization" ? "the bearer token" : `header ${k}`)),
  ];
}

