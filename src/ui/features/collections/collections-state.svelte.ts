import { type Collection, type CollectionProblem, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import { drafts as pageDrafts, type Drafts, keepFields, warnBeforeLeaving } from "../../state/drafts.svelte.ts";
import { COLLECTIONS_KIND } from "./save-to-collection.svelte.ts";

export const EDITOR_DRAFT = "collections.editor";

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** What the editor's text is: not JSON (the editor shows where), or a value and its problems. */
export type TextCheck =
  | { readonly kind: "syntax" }
  | { readonly kind: "checked"; readonly value: unknown; readonly problems: readonly CollectionProblem[]; readonly collection?: Collection };

export function checkText(text: string): TextCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "syntax" };
  }
  const parsed = parseCollection(value);
  return parsed.ok ? { kind: "checked", value, problems: [], collection: parsed.collection } : { kind: "checked", value, problems: parsed.problems };
}

/** A question waiting for the user's yes: delete the open collection, or drop its unsaved edits to open another. */
export type Confirmation = { readonly kind: "delete"; readonly name: string } | { readonly kind: "discard"; readonly name: string; readonly next: string };

/**
 * The collections of the workspace and the one open in the editor: its JSON text (kept across a
 * reload, with what was last saved, so the unsaved mark survives too), the problems the
 * collection checker finds as it is typed, and saving, making and deleting collections.
 */
export class CollectionsState {
  names = $state<string[]>([]);
  /** The workspace name of the collection in the editor; null when none is open. */
  open = $state<string | null>(null);
  text = $state("");
  /** The text as last read from or written to the workspace; null for a collection not saved yet. */
  savedText = $state<string | null>(null);
  newName = $state("");
  confirming = $state.raw<Confirmation | null>(null);
  saving = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  readonly #storage: DocumentStore;
  readonly #onSwitch: () => void;

  /** `onSwitch` runs when another collection (or none) takes the editor. */
  constructor(storage: DocumentStore, store: Drafts = pageDrafts, onSwitch: () => void = () => {}) {
    this.#storage = storage;
    this.#onSwitch = onSwitch;
    keepFields(this, EDITOR_DRAFT, ["open", "text", "savedText", "newName"], store);
    warnBeforeLeaving(() => this.unsaved);
  }

  readonly check: TextCheck = $derived(checkText(this.text));
  readonly problems: readonly CollectionProblem[] = $derived(this.check.kind === "checked" ? this.check.problems : []);
  /** The collection in the editor, when it is valid. */
  readonly collection: Collection | undefined = $derived(this.check.kind === "checked" ? this.check.collection : undefined);
  readonly markers = $derived(this.problems.map((p) => ({ pointer: p.pointer, message: p.message, severity: "error" as const })));
  readonly unsaved: boolean = $derived(this.open !== null && this.text !== this.savedText);

  async refresh(): Promise<void> {
    try {
      this.names = (await this.#storage.list(COLLECTIONS_KIND)).map((d) => d.name).sort();
    } catch (err) {
      this.#fail(`could not list the collections: ${(err as Error).message}`);
    }
  }

  /** Reads the open collection again when it has no unsaved edits (a step may have been saved to it elsewhere). */
  async reload(): Promise<void> {
    await this.refresh();
    if (this.open !== null && this.savedText !== null && !this.unsaved && this.names.includes(this.open)) await this.#read(this.open, false);
  }

  /** Opens a collection; with unsaved edits in the editor, asks first. */
  async choose(name: string): Promise<void> {
    if (name === this.open) return;
    if (this.unsaved && this.open !== null) {
      this.confirming = { kind: "discard", name: this.open, next: name };
      return;
    }
    await this.#read(name, true);
  }

  /** Opens a collection another workbench just saved (the list is read first, so it is there). */
  async openNamed(name: string): Promise<void> {
    await this.refresh();
    if (!this.names.includes(name)) return this.#fail(`there is no collection named "${name}" in the workspace`);
    if (name === this.open) return this.reload();
    await this.choose(name);
  }

  /** A new collection in the editor, saved when the user saves it. */
  async create(): Promise<void> {
    const name = this.newName.trim();
    const problem = documentNameProblem(name);
    if (problem) return this.#fail(`cannot make a collection named ${JSON.stringify(name)}: ${problem}`);
    await this.refresh();
    if (this.names.includes(name)) return this.#fail(`a collection named "${name}" already exists`);
    if (this.unsaved) return this.#fail(`save or discard the changes to "${this.open ?? ""}" first`);
    this.#switched(name);
    this.text = pretty(emptyCollection(name));
    this.savedText = null;
    this.newName = "";
    this.#say(`"${name}" is new: add steps, then save it`);
  }

  async save(): Promise<void> {
    const name = this.open;
    if (name === null || this.saving) return;
    if (this.check.kind === "syntax") return this.#fail(`cannot save "${name}": the text is not JSON (see Problems)`);
    this.saving = true;
    const text = this.text;
    try {
      await this.#storage.write(COLLECTIONS_KIND, name, this.check.value);
      this.savedText = text;
      this.#say(`saved "${name}"`);
      await this.refresh();
    } catch (err) {
      // The backend's own words: it names every problem it found.
      this.#fail((err as Error).message);
    } finally {
      this.saving = false;
    }
  }

  askDelete(): void {
    if (this.open !== null) this.confirming = { kind: "delete", name: this.open };
  }

  cancel(): void {
    this.confirming = null;
  }

  /** Does what is being confirmed. */
  async confirm(): Promise<void> {
    const asked = this.confirming;
    this.confirming = null;
    if (asked?.kind === "discard") return this.#read(asked.next, true);
    if (asked?.kind !== "delete") return;
    if (this.savedText !== null || this.names.includes(asked.name)) {
      try {
        await this.#storage.remove(COLLECTIONS_KIND, asked.name);
      } catch (err) {
        return this.#fail(`could not delete "${asked.name}": ${(err as Error).message}`);
      }
    }
    if (this.open === asked.name) this.#close();
    this.#say(`deleted "${asked.name}"`);
    await this.refresh();
  }

  async #read(name: string, announce: boolean): Promise<void> {
    let data: unknown;
    try {
      data = await this.#storage.read(COLLECTIONS_KIND, name);
    } catch (err) {
      return this.#fail(`could not open "${name}": ${(err as Error).message}`);
    }
    this.#switched(name);
    this.text = pretty(data);
    this.savedText = this.text;
    if (announce) this.#say(`opened "${name}"`);
  }

  #switched(name: string | null): void {
    if (this.open !== name) this.#onSwitch();
    this.open = name;
  }

  #close(): void {
    this.#switched(null);
    this.text = "";
    this.savedText = null;
  }

  #say(message: string): void {
    this.notice = message;
    this.error = null;
  }

  #fail(message: string): void {
    this.error = message;
    this.notice = null;
  }
}
