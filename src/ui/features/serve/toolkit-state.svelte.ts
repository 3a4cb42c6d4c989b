import type { DocumentStore } from "../../../core/persist/document-store.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import {
  DEMO_TOOLKIT,
  guessSyntax,
  parseToolkitText,
  type ReadToolkitResult,
  type ServedEntry,
  servedSet,
  type Toolkit,
  toolkitToFile,
} from "../../../core/serving/index.ts";
import { keepFields, warnBeforeLeaving } from "../../state/drafts.svelte.ts";

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const counted = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;

/**
 * The editor's headline: the toolkit's name and usable tools, and the problems counted as the
 * editor's Problems list shows them (a syntax error is the editor's own, and shown alone there).
 */
export function toolkitHeadline(result: ReadToolkitResult, toolsInText: number): string {
  if (result.issues.some((i) => i.syntax)) return "not JSON: see Problems";
  const errors = result.issues.filter((i) => i.severity === "error").length;
  const warnings = result.issues.length - errors;
  const left = toolsInText - (result.toolkit?.tools.length ?? 0);
  const head = result.toolkit ? `${result.toolkit.name}: ${counted(result.toolkit.tools.length, "tool")}${left > 0 ? ` (${left} left out)` : ""}` : "not usable yet";
  return [head, ...(errors > 0 ? [counted(errors, "error")] : []), ...(warnings > 0 ? [counted(warnings, "warning")] : [])].join(" · ");
}

/** How many tools the text lists, usable or not. */
function toolsIn(text: string): number {
  try {
    const tools = (JSON.parse(text) as { tools?: unknown } | null)?.tools;
    return Array.isArray(tools) ? tools.length : 0;
  } catch {
    return 0;
  }
}

/**
 * The toolkit being edited in the Serve workbench: its text (JSON in the editor; YAML files are
 * converted on import), what reading it found, the served set of each surface, and saved copies
 * in the workspace.
 */
export class ToolkitState {
  text = $state(pretty(toolkitToFile(DEMO_TOOLKIT)));
  saveName = $state("");
  savedNames = $state<string[]>([]);
  selectedSaved = $state("");
  notice = $state<string | null>(null);
  error = $state<string | null>(null);
  /** The workspace name of the toolkit in the editor, when it came from or went to the workspace. */
  savedAs = $state<string | null>(null);
  savedText = $state<string | null>(null);

  readonly #storage: DocumentStore;

  constructor(storage: DocumentStore) {
    this.#storage = storage;
    keepFields(this, "serve.toolkit", ["text", "saveName", "savedAs", "savedText"]);
    // Edits not saved to the workspace live only in this tab: leaving asks first.
    warnBeforeLeaving(() => (this.savedAs !== null ? this.unsaved : this.text !== pretty(toolkitToFile(DEMO_TOOLKIT))));
  }

  readonly result: ReadToolkitResult = $derived(parseToolkitText(this.text, "json"));
  readonly toolkit: Toolkit | undefined = $derived(this.result.toolkit);
  readonly errorCount: number = $derived(this.result.issues.filter((i) => i.severity === "error").length);
  readonly headline: string = $derived(toolkitHeadline(this.result, toolsIn(this.text)));
  /** The problems placed in the editor; a syntax error the editor finds itself. */
  readonly markers = $derived(this.result.issues.filter((i) => !i.syntax).map((i) => ({ pointer: i.pointer, message: i.message, severity: i.severity })));
  readonly mcpSet: readonly ServedEntry[] = $derived(this.toolkit ? servedSet(this.toolkit, "mcp") : []);
  readonly natsSet: readonly ServedEntry[] = $derived(this.toolkit ? servedSet(this.toolkit, "nats") : []);
  readonly #a2aSets: { readonly omit: readonly ServedEntry[]; readonly ask: readonly ServedEntry[] } = $derived(
    this.toolkit ? { omit: servedSet(this.toolkit, "a2a"), ask: servedSet(this.toolkit, "a2a", { askConfirm: true }) } : { omit: [], ask: [] },
  );
  /** The A2A served set; confirm-tagged tools stay in only when each call asks in its task. */
  a2aSet(askConfirm: boolean): readonly ServedEntry[] {
    return askConfirm ? this.#a2aSets.ask : this.#a2aSets.omit;
  }
  /** The editor differs from the saved copy (what `patchbay serve --stdio` would serve). */
  readonly unsaved: boolean = $derived(this.savedAs !== null && this.text !== this.savedText);

  /** Replaces the text with a file's content; YAML is converted to JSON for the editor. */
  importText(content: string, fileName = "the file"): void {
    const syntax = /\.ya?ml$/i.test(fileName) ? "yaml" : /\.json$/i.test(fileName) ? "json" : guessSyntax(content);
    const read = parseToolkitText(content, syntax);
    if (!read.toolkit) {
      const first = read.issues[0];
      this.#fail(`${fileName} is not a usable toolkit: ${first ? `${first.pointer ? `${first.pointer} ` : ""}${first.message}` : "it could not be read"}`);
      return;
    }
    this.text = syntax === "json" ? content : pretty(toolkitToFile(read.toolkit));
    this.#forgetSaved();
    this.#say(syntax === "yaml" ? `imported ${fileName} (YAML, shown as JSON; saving writes JSON)` : `imported ${fileName}`);
  }

  resetToDemo(): void {
    this.text = pretty(toolkitToFile(DEMO_TOOLKIT));
    this.#forgetSaved();
    this.#say("loaded the demo toolkit");
  }

  async refreshSaved(): Promise<void> {
    try {
      this.savedNames = (await this.#storage.list("toolkits")).map((d) => d.name).sort();
    } catch (err) {
      this.#fail(`could not list saved toolkits: ${(err as Error).message}`);
    }
  }

  async save(): Promise<void> {
    const name = this.saveName.trim() || this.toolkit?.name || "";
    const problem = documentNameProblem(name);
    if (problem) return this.#fail(`cannot save as ${JSON.stringify(name)}: ${problem}`);
    let data: unknown;
    try {
      data = JSON.parse(this.text);
    } catch (err) {
      return this.#fail(`cannot save: the text is not JSON (${(err as Error).message})`);
    }
    try {
      await this.#storage.write("toolkits", name, data);
      this.#say(`saved "${name}"${this.errorCount > 0 ? ` with ${this.errorCount} problem${this.errorCount === 1 ? "" : "s"} still to fix` : ""}`);
      this.savedAs = name;
      this.savedText = this.text;
      await this.refreshSaved();
      this.selectedSaved = name;
    } catch (err) {
      this.#fail(`could not save "${name}": ${(err as Error).message}`);
    }
  }

  async load(name = this.selectedSaved): Promise<void> {
    if (name === "") return;
    try {
      this.text = pretty(await this.#storage.read("toolkits", name));
      this.saveName = name;
      this.savedAs = name;
      this.savedText = this.text;
      this.#say(`loaded "${name}"`);
    } catch (err) {
      this.#fail(`could not load "${name}": ${(err as Error).message}`);
    }
  }

  #forgetSaved(): void {
    this.savedAs = null;
    this.savedText = null;
    this.selectedSaved = "";
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
