import type * as MonacoApi from "monaco-editor/editor";
import { levelOf, MARKER_OWNER, sortProblems, toMonacoMarkers, type EditorMarker, type Problem } from "./markers.ts";
import type { Monaco } from "./monaco-loader.ts";
import { schemaRegistry } from "./schema-registry.ts";
import { watchTheme } from "./theme-watch.ts";

export type EditorStatus = "loading" | "ready" | "failed";

/** How the controller obtains Monaco; the component passes a dynamic import of the loader. */
export type MonacoLoad = () => Promise<{ monaco: Monaco }>;

let nextId = 1;

/**
 * Owns one Monaco editor and its model. Props arrive through the setters at any time, before or
 * after Monaco has loaded; the latest of each is applied once the editor exists. The raw text is
 * the source of truth: it is compared, never re-serialised.
 */
export class JsonEditorController {
  status = $state<EditorStatus>("loading");
  failure = $state("");
  /** Monaco's markers for this model (JSON syntax, schema, and ours), once ready. */
  problems = $state.raw<Problem[]>([]);

  readonly modelUri: string;
  readonly #onchange: (text: string) => void;
  #text = "";
  #markers: readonly EditorMarker[] = [];
  #readonly = false;
  #label = "";
  #monaco: Monaco | undefined;
  #editor: MonacoApi.editor.IStandaloneCodeEditor | undefined;
  #model: MonacoApi.editor.ITextModel | undefined;
  #cleanups: (() => void)[] = [];
  #applying = false;
  #disposed = false;
  #placed = 0;

  constructor(onchange: (text: string) => void) {
    this.#onchange = onchange;
    this.modelUri = `inmemory://patchbay/json-editor-${nextId++}.json`;
  }

  /** Loads Monaco and creates the editor in `host`; any failure leaves status "failed" with the reason. */
  async mount(host: HTMLElement, load: MonacoLoad): Promise<void> {
    try {
      const { monaco } = await load();
      if (!this.#disposed) this.#create(monaco, host);
    } catch (err) {
      if (this.#disposed) return;
      this.#teardown();
      this.failure = err instanceof Error ? err.message : String(err);
      this.status = "failed";
    }
  }

  /** Takes the parent's text; a no-op when the model already holds it, else an undoable edit. */
  setValue(text: string): void {
    this.#text = text;
    const model = this.#model;
    if (!model || model.getValue() === text) return;
    this.#applying = true;
    try {
      this.#editor?.pushUndoStop();
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
      this.#editor?.pushUndoStop();
    } finally {
      this.#applying = false;
    }
  }

  setMarkers(markers: readonly EditorMarker[]): void {
    this.#markers = markers;
    this.#applyMarkers();
  }

  setSchema(schema: object | undefined): void {
    schemaRegistry.set(this.modelUri, schema);
  }

  setOptions(options: { readonly: boolean; label: string }): void {
    this.#readonly = options.readonly;
    this.#label = options.label;
    this.#editor?.updateOptions({ readOnly: options.readonly, ariaLabel: options.label });
  }

  /** Moves the caret to a problem and focuses the editor. */
  reveal(problem: Problem): void {
    const editor = this.#editor;
    if (!editor) return;
    const position = { lineNumber: problem.line, column: problem.column };
    editor.setPosition(position);
    editor.revealPositionInCenterIfOutsideViewport(position);
    editor.focus();
  }

  dispose(): void {
    this.#disposed = true;
    schemaRegistry.delete(this.modelUri);
    this.#teardown();
  }

  #teardown(): void {
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.#editor?.dispose();
    this.#model?.dispose();
    this.#editor = undefined;
    this.#model = undefined;
  }

  #create(monaco: Monaco, host: HTMLElement): void {
    this.#monaco = monaco;
    const uri = monaco.Uri.parse(this.modelUri);
    // Only a hot-reloaded module can leave a model at this URI behind; nobody owns it any more.
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(this.#text, "json", uri);
    this.#model = model;
    const editor = monaco.editor.create(host, {
      model,
      ariaLabel: this.#label,
      readOnly: this.#readonly,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fixedOverflowWidgets: true,
      tabSize: 2,
      fontSize: 12.5,
    });
    this.#editor = editor;
    const content = model.onDidChangeContent(() => {
      this.#applyMarkers();
      if (!this.#applying) this.#onchange(model.getValue());
    });
    const markers = monaco.editor.onDidChangeMarkers((uris) => {
      if (uris.some((u) => u.toString() === uri.toString())) this.#readProblems();
    });
    this.#cleanups.push(
      () => content.dispose(),
      () => markers.dispose(),
      watchTheme(document.documentElement, (theme) => monaco.editor.setTheme(theme)),
    );
    this.#applyMarkers();
    this.#readProblems();
    this.status = "ready";
  }

  #applyMarkers(): void {
    const monaco = this.#monaco;
    const model = this.#model;
    if (!monaco || !model || (this.#markers.length === 0 && this.#placed === 0)) return;
    const data = toMonacoMarkers(model.getValue(), this.#markers, monaco.MarkerSeverity);
    monaco.editor.setModelMarkers(model, MARKER_OWNER, data);
    this.#placed = data.length;
  }

  #readProblems(): void {
    const monaco = this.#monaco;
    const model = this.#model;
    if (!monaco || !model) return;
    const found = monaco.editor.getModelMarkers({ resource: model.uri }).map((m) => ({
      line: m.startLineNumber,
      column: m.startColumn,
      message: m.message,
      severity: levelOf(m.severity, monaco.MarkerSeverity),
    }));
    this.problems = sortProblems(found);
  }
}
