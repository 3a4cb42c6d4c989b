import type { Override, Verdict } from "../../../core/validation/types.ts";
import type { EditorMarker } from "../../editor/index.ts";
import { inputKey, ResultFor } from "../../lib/result-for.svelte.ts";
import { formatJsonText } from "./format-json.ts";
import type { ValidationClient } from "./validation-client.ts";
import type { PackInfo } from "./validation-protocol.ts";
import { issueMarkers } from "./verdict-rows.ts";

/** Quiet time after the last edit before the message is checked again. */
export const EDIT_DEBOUNCE_MS = 300;

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The selected message: its text in the editor, its verdict, and the user's override. Edits and
 * overrides are checked again in the worker; answers that arrive after a newer question are
 * dropped.
 */
export class MessageInspector {
  readonly #client: ValidationClient;
  /** Index of the message in the run, -1 when none is open. */
  index = $state(-1);
  place = $state("");
  /** The editor's text, edited or not. */
  text = $state("");
  override: Override | null = $state.raw(null);
  /** The verdict on the text and override as they were checked. */
  readonly #verdict = new ResultFor<Verdict>(() => inputKey(this.text, this.override));
  loading = $state(false);
  checking = $state(false);
  error = $state("");
  packs: readonly PackInfo[] = $state.raw([]);
  #original = $state("");
  #asked = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #catalog: Promise<void> | undefined;

  readonly edited = $derived(this.text !== this.#original);
  // A verdict on other text would put its marks in the wrong places.
  readonly markers: EditorMarker[] = $derived(this.verdict && !this.verdictStale ? issueMarkers(this.verdict.issues) : []);
  /** The verdict's pack from the catalog, once the catalog has loaded. */
  readonly verdictPack: PackInfo | undefined = $derived.by(() => {
    const id = this.verdict?.packId;
    return id === undefined ? undefined : this.packs.find((p) => p.id === id);
  });

  constructor(client: ValidationClient) {
    this.#client = client;
  }

  get verdict(): Verdict | null {
    return this.#verdict.value;
  }

  /** True when the text or the override changed since the verdict on show was given. */
  get verdictStale(): boolean {
    return this.#verdict.stale;
  }

  async open(index: number): Promise<void> {
    clearTimeout(this.#timer);
    const asked = ++this.#asked;
    this.index = index;
    this.override = null;
    this.loading = true;
    this.error = "";
    try {
      const detail = await this.#client.detail(index);
      if (asked !== this.#asked) return;
      this.place = detail.place;
      this.#original = detail.text;
      this.text = detail.text;
      this.#verdict.set(detail.verdict);
    } catch (err) {
      if (asked === this.#asked) this.error = messageOf(err);
    } finally {
      if (asked === this.#asked) this.loading = false;
    }
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#asked++;
    this.index = -1;
    this.place = "";
    this.text = "";
    this.#original = "";
    this.#verdict.clear();
    this.override = null;
    this.loading = false;
    this.error = "";
  }

  /** The editor's text changed: check it again after a pause in typing. */
  edit(text: string): void {
    if (text === this.text) return;
    this.text = text;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.recheck(), EDIT_DEBOUNCE_MS);
  }

  /** Re-indents the text (whitespace only) and checks it again. */
  format(): void {
    this.edit(formatJsonText(this.text));
  }

  revert(): void {
    this.text = this.#original;
    void this.recheck();
  }

  setOverride(override: Override | null): void {
    this.override = override;
    void this.recheck();
  }

  /** Checks the current text with the current override; the unedited message keeps its run's context. */
  async recheck(): Promise<void> {
    if (this.index < 0) return;
    clearTimeout(this.#timer);
    const asked = ++this.#asked;
    const override = this.override ?? undefined;
    const key = this.#verdict.key();
    this.checking = true;
    try {
      const verdict = this.edited
        ? await this.#client.validateOne(this.text, override)
        : (await this.#client.detail(this.index, override)).verdict;
      if (asked !== this.#asked) return;
      this.#verdict.set(verdict, key);
      this.error = "";
    } catch (err) {
      if (asked === this.#asked) this.error = messageOf(err);
    } finally {
      if (asked === this.#asked) this.checking = false;
    }
  }

  /** Loads the packs for the override control, once. */
  loadPacks(): Promise<void> {
    this.#catalog ??= this.#client.catalog().then(
      (packs) => void (this.packs = packs),
      (err: unknown) => {
        this.#catalog = undefined;
        this.error = `Could not list the schema packs: ${messageOf(err)}`;
      },
    );
    return this.#catalog;
  }
}
