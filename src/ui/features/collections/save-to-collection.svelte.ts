import { appendStep, describeProblems, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import { type SavedRequestResult, withSecrets } from "./step-drafts.ts";

export const COLLECTIONS_KIND = "collections";

/** The choice that means "a new collection" in the list of existing ones. */
export const NEW_COLLECTION = "";

/**
 * "Save to collection" beside a workbench's Send: which collection (an existing one, or a new
 * name), the step's name; saving reads the collection, appends the request as its last step and
 * writes it back. The request is read when saving, so it is what the workbench holds then.
 */
export class SaveToCollectionState {
  open = $state(false);
  names = $state<string[]>([]);
  /** An existing collection's name, or NEW_COLLECTION. */
  choice = $state(NEW_COLLECTION);
  newName = $state("");
  stepName = $state("");
  saving = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  readonly #storage: DocumentStore;
  readonly #request: () => SavedRequestResult | Promise<SavedRequestResult>;

  /** `request` may have to ask (the backend's NATS address), so it may answer later. */
  constructor(storage: DocumentStore, request: () => SavedRequestResult | Promise<SavedRequestResult>) {
    this.#storage = storage;
    this.#request = request;
  }

  /** Shows the choices, the step named after the request unless a name was typed. */
  async show(): Promise<void> {
    this.open = true;
    this.error = null;
    this.notice = null;
    const request = await this.#describe();
    if (this.stepName.trim() === "" && request.ok) this.stepName = request.request.draft.name;
    try {
      this.names = (await this.#storage.list(COLLECTIONS_KIND)).map((d) => d.name).sort();
    } catch (err) {
      this.error = `could not list the collections: ${(err as Error).message}`;
    }
    if (this.choice !== NEW_COLLECTION && !this.names.includes(this.choice)) this.choice = NEW_COLLECTION;
  }

  hide(): void {
    this.open = false;
  }

  async save(): Promise<void> {
    if (this.saving) return;
    this.error = null;
    this.notice = null;
    const isNew = this.choice === NEW_COLLECTION;
    const name = isNew ? this.newName.trim() : this.choice;
    if (isNew) {
      const problem = documentNameProblem(name);
      if (problem) return this.#fail(`cannot make a collection named ${JSON.stringify(name)}: ${problem}`);
    }
    this.saving = true;
    try {
      const request = await this.#describe();
      if (!request.ok) return this.#fail(`cannot save this request: ${request.error}`);
      const base = isNew ? await this.#fresh(name) : await this.#existing(name);
      if (base === undefined) return;
      const draft = { ...request.request.draft, name: this.stepName.trim() || request.request.draft.name };
      const next = withSecrets(appendStep(base, draft), request.request.secrets);
      try {
        await this.#storage.write(COLLECTIONS_KIND, name, next);
      } catch (err) {
        return this.#fail(`could not save to "${name}": ${(err as Error).message}`);
      }
      const step = next.steps.at(-1)!;
      const notes = request.request.notes.length > 0 ? `; ${request.request.notes.join("; ")}` : "";
      this.notice = `saved step "${step.name}" to "${name}" (${next.steps.length} step${next.steps.length === 1 ? "" : "s"})${notes}`;
      if (isNew) {
        this.names = [...this.names, name].sort();
        this.choice = name;
        this.newName = "";
      }
      this.stepName = "";
    } finally {
      this.saving = false;
    }
  }

  async #describe(): Promise<SavedRequestResult> {
    try {
      return await this.#request();
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }

  async #fresh(name: string) {
    let taken: boolean;
    try {
      taken = (await this.#storage.list(COLLECTIONS_KIND)).some((d) => d.name === name);
    } catch (err) {
      return this.#fail(`could not list the collections: ${(err as Error).message}`);
    }
    if (taken) return this.#fail(`a collection named "${name}" already exists: choose it from the list to add to it`);
    return emptyCollection(name);
  }

  async #existing(name: string) {
    let data: unknown;
    try {
      data = await this.#storage.read(COLLECTIONS_KIND, name);
    } catch (err) {
      return this.#fail(`could not read "${name}": ${(err as Error).message}`);
    }
    const parsed = parseCollection(data);
    if (!parsed.ok) return this.#fail(`"${name}" is not a valid collection, so nothing was added (fix it in Collections first): ${describeProblems(parsed.problems)}`);
    return parsed.collection;
  }

  #fail(message: string): undefined {
    this.error = message;
    this.notice = null;
    return undefined;
  }
}
