import { recordCapture, RecordInputError, type RecordResult } from "../../../core/harness/record.ts";
import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import { importWireJsonl, WireImportError, type WireEntry } from "../../../core/wire/index.ts";
import { openInCollections } from "../collections/collection-handoff.ts";
import { COLLECTIONS_KIND } from "../collections/save-to-collection.svelte.ts";
import { freeRecordName } from "./record-name.ts";

/** Biggest capture file read; a bigger one is refused with its size, not read in part. */
export const RECORD_FILE_MAX_BYTES = 64 * 1024 * 1024;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * "Save as collection" in Traffic: frames (the ones the filters show, or a capture file's) recorded
 * as a collection, with the frames that did not become steps and why, the notes to check, and the
 * lines of a file that could not be read; then saved to the workspace under a name of the user's.
 */
export class RecordState {
  open = $state(false);
  name = $state("");
  /** Where the frames came from, in words. */
  source = $state("");
  result = $state.raw<RecordResult | null>(null);
  /** Lines of a capture file that were not read, with their line numbers. */
  fileProblems = $state.raw<readonly string[]>([]);
  busy = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  /** The name the recording was saved under, once it is. */
  saved = $state<string | null>(null);

  readonly #storage: DocumentStore;
  readonly #wallNow: () => number;
  readonly #openCollection: (name: string) => void;

  constructor(storage: DocumentStore, wallNow: () => number, openCollection: (name: string) => void = (name) => openInCollections(name)) {
    this.#storage = storage;
    this.#wallNow = wallNow;
    this.#openCollection = openCollection;
  }

  /** The number of steps the recording made. */
  get steps(): number {
    return this.result?.collection.steps.length ?? 0;
  }

  /** Records these frames, named by default after the time and unlike any collection there is. */
  async fromEntries(entries: readonly WireEntry[], source: string, fileProblems: readonly string[] = []): Promise<void> {
    this.#reset(source);
    this.fileProblems = fileProblems;
    this.name = freeRecordName(this.#wallNow(), (await this.#names()) ?? []);
    try {
      this.result = recordCapture(entries, { name: this.name });
    } catch (err) {
      if (!(err instanceof RecordInputError)) throw err;
      this.error = `could not record ${source}: ${err.message}`;
    }
  }

  /** Records a JSONL capture exported from Traffic. */
  async fromFile(file: File): Promise<void> {
    const source = `the capture ${file.name}`;
    if (file.size > RECORD_FILE_MAX_BYTES) {
      this.#reset(source);
      this.error = `${file.name} is ${file.size} bytes; a capture of at most ${RECORD_FILE_MAX_BYTES} bytes is read`;
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (err) {
      this.#reset(source);
      this.error = `could not read ${file.name}: ${(err as Error).message}`;
      return;
    }
    try {
      const imported = importWireJsonl(text);
      await this.fromEntries(imported.entries, source, imported.problems.map((p) => `line ${p.line}: ${p.reason}`));
    } catch (err) {
      if (!(err instanceof WireImportError)) throw err;
      this.#reset(source);
      this.error = `could not import ${file.name}: ${err.message}`;
    }
  }

  /** Writes the recording to the workspace as a new collection. */
  async save(): Promise<void> {
    const result = this.result;
    if (result === null || this.busy) return;
    const name = this.name.trim();
    const problem = documentNameProblem(name);
    if (problem) return this.#fail(`cannot name a collection ${JSON.stringify(name)}: ${problem}`);
    if (result.collection.steps.length === 0) return this.#fail(`nothing to save: none of the frames of ${this.source} is a request Patchbay sent`);
    this.busy = true;
    try {
      const names = await this.#names();
      if (names === undefined) return;
      if (names.includes(name)) return this.#fail(`a collection named "${name}" already exists: choose another name`);
      try {
        await this.#storage.write(COLLECTIONS_KIND, name, { ...result.collection, name });
      } catch (err) {
        // The backend's own words: it names every problem it found.
        return this.#fail((err as Error).message);
      }
      this.saved = name;
      this.error = null;
      this.notice = `saved "${name}" (${plural(result.collection.steps.length, "step")})`;
    } finally {
      this.busy = false;
    }
  }

  /** Switches to Collections with the saved recording open. */
  openSaved(): void {
    if (this.saved !== null) this.#openCollection(this.saved);
  }

  hide(): void {
    this.open = false;
  }

  #reset(source: string): void {
    this.open = true;
    this.source = source;
    this.result = null;
    this.fileProblems = [];
    this.error = null;
    this.notice = null;
    this.saved = null;
  }

  async #names(): Promise<string[] | undefined> {
    try {
      return (await this.#storage.list(COLLECTIONS_KIND)).map((d) => d.name);
    } catch (err) {
      return this.#fail(`could not list the collections: ${(err as Error).message}`);
    }
  }

  #fail(message: string): undefined {
    this.error = message;
    this.notice = null;
    return undefined;
  }
}
