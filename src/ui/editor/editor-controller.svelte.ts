import type * as MonacoApi from "monaco-editor/editor";
import { JSON_OWNER, levelOf, MARKER_OWNER, shownMarkers, sortProblems, toMonacoMarkers, type EditorMarker, type Problem } from "./markers.ts";
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
  /** Focus is in the editor's text: the way out is shown then. */
  focused = $state(false);
  /** Tab moves focus instead of indenting (Ctrl+M toggles it for every editor; Escape for one Tab). */
  tabMovesFocus = $state(false);

  readonly modelUri: string;
  readonly #onchange: (text: string) => void;
  #text = "";
  #markers: readonly EditorMarker[] = [];
  #readonly = false;
  #label = "";
  #schemaDiagnostics = true;
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

  /** `diagnostics: false` keeps the schema for completion and hover, its problems unshown. */
  setSchema(schema: object | undefined, diagnostics = true): void {
    schemaRegistry.set(this.modelUri, schema);
    if (diagnostics === this.#schemaDiagnostics) return;
    this.#schemaDiagnostics = diagnostics;
    this.#readProblems();
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
    this.#cleanups.push(this.#keyboard(monaco, editor));
    this.status = "ready";
  }

  /**
   * Tab indents inside the editor, so the editor must say how to leave it: Ctrl+M (Monaco's tab
   * focus mode, for every editor) or Escape, after which the next Tab or Shift+Tab moves focus.
   */
  #keyboard(monaco: Monaco, editor: MonacoApi.editor.IStandaloneCodeEditor): () => void {
    const option = monaco.editor.EditorOption.tabFocusMode;
    let escaped = false;
    const release = () => {
      if (!escaped) return;
      escaped = false;
      editor.updateOptions({ tabFocusMode: false });
    };
    const read = () => (this.tabMovesFocus = editor.getOption(option));
    const subscriptions = [
      editor.onKeyDown((e) => {
        if (e.keyCode === monaco.KeyCode.Escape) {
          escaped = true;
          editor.updateOptions({ tabFocusMode: true });
        } else if (e.keyCode !== monaco.KeyCode.Tab && e.keyCode !== monaco.KeyCode.Shift) release();
      }),
      editor.onDidFocusEditorText(() => (this.focused = true)),
      editor.onDidBlurEditorText(() => {
        this.focused = false;
        release();
      }),
      editor.onDidChangeConfiguration((e) => {
        if (e.hasChanged(option)) read();
      }),
    ];
    read();
    return () => {
      for (const s of subscriptions) s.dispose();
    };
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
    const all = monaco.editor.getModelMarkers({ resource: model.uri });
    const shown = shownMarkers(all, this.#schemaDiagnostics);
    if (shown.length < all.length) {
      // Take the unshown ones off the text too; if that calls back here, nothing is left to drop.
      monaco.editor.setModelMarkers(model, JSON_OWNER, shown.filter((m) => m.owner === JSON_OWNER));
      if (this.#placed > 0 && !shown.some((m) => m.owner === MARKER_OWNER)) {
        monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
        this.#placed = 0;
      }
    }
    const found = shown.map((m) => ({
      line: m.startLineNumber,
      column: m.startColumn,
      message: m.message,
      severity: levelOf(m.severity, monaco.MarkerSeverity),
    }));
    this.problems = sortProblems(found);
  }
}
