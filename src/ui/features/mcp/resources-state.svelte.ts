import type { McpConnection } from "../../../core/mcp/index.ts";
import { expandTemplate, templateVariables, type Expansion, type TemplateVariable } from "../../../core/mcp/uri-template.ts";
import { completionValues, failureView, type InspectSource, type RequestFailureView } from "./inspect-source.ts";
import { resourceParts, type ResourcePart } from "./resource-contents.ts";

export type ResourceSelection = { readonly kind: "resource" | "template"; readonly index: number } | null;

/** What the latest read gave: the result as received and its contents by kind, or why it failed. */
export type ReadOutcome =
  | { readonly uri: string; readonly seq: number; readonly ok: true; readonly result: Record<string, unknown>; readonly parts: readonly ResourcePart[] }
  | { readonly uri: string; readonly seq: number; readonly ok: false; readonly failure: RequestFailureView };

export interface ResourceUpdate {
  readonly seq: number;
  readonly uri: string;
}

const MAX_UPDATES = 200;

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Resources, resource templates, reads and subscriptions of the open connection; the panel binds to it. */
export class ResourcesState {
  resources = $state.raw<readonly Record<string, unknown>[]>([]);
  templates = $state.raw<readonly Record<string, unknown>[]>([]);
  listError = $state<string | null>(null);
  loading = $state(false);
  /** True once the lists were asked for on this connection; list_changed refreshes only then. */
  loaded = $state(false);
  selection = $state.raw<ResourceSelection>(null);
  /** What the user typed for each variable of the selected template. */
  values = $state<Record<string, string>>({});
  /** Completions the server offered for each variable of the selected template. */
  suggestions = $state.raw<Readonly<Record<string, readonly string[]>>>({});
  reading = $state(false);
  read = $state.raw<ReadOutcome | null>(null);
  /** URIs subscribed to on this connection. */
  subscribed = $state.raw<readonly string[]>([]);
  subscribeError = $state<string | null>(null);
  /** notifications/resources/updated as they arrived, newest last. */
  updates = $state.raw<readonly ResourceUpdate[]>([]);

  readonly #source: InspectSource;
  #seq = 0;
  #listRun = 0;
  #readRun = 0;

  constructor(source: InspectSource) {
    this.#source = source;
  }

  /** True when the server declares the resources capability. */
  get supported(): boolean {
    return this.#source.info()?.capabilities.resources !== undefined;
  }

  get canSubscribe(): boolean {
    return this.#source.info()?.capabilities.resources?.subscribe === true;
  }

  get selectedResource(): Record<string, unknown> | undefined {
    return this.selection?.kind === "resource" ? this.resources[this.selection.index] : undefined;
  }

  get selectedTemplate(): Record<string, unknown> | undefined {
    return this.selection?.kind === "template" ? this.templates[this.selection.index] : undefined;
  }

  get variables(): TemplateVariable[] {
    const template = this.selectedTemplate;
    return template ? templateVariables(str(template.uriTemplate)) : [];
  }

  /** The URI the selected template names for the typed values; an empty field is left undefined. */
  get expansion(): Expansion | null {
    const template = this.selectedTemplate;
    if (!template) return null;
    const values = Object.fromEntries(Object.entries(this.values).filter(([, v]) => v !== ""));
    return expandTemplate(str(template.uriTemplate), values);
  }

  /** True when the resource on show was updated after it was read. */
  get stale(): boolean {
    const read = this.read;
    return read !== null && this.updates.some((u) => u.uri === read.uri && u.seq > read.seq);
  }

  #options() {
    const timeoutMs = this.#source.timeoutMs?.();
    return timeoutMs === undefined ? {} : { timeoutMs };
  }

  /** Starts over for a new connection and follows its notifications; returns the unsubscribe. */
  watch(connection: McpConnection): () => void {
    this.resources = [];
    this.templates = [];
    this.listError = null;
    this.selection = null;
    this.values = {};
    this.suggestions = {};
    this.read = null;
    this.subscribed = [];
    this.subscribeError = null;
    this.updates = [];
    // Answers still on their way from the previous connection are dropped.
    this.#listRun++;
    this.#readRun++;
    this.loading = false;
    this.reading = false;
    this.loaded = false;
    const offList = connection.on("list-changed", ({ list }) => {
      if (list === "resources" && this.loaded) void this.refresh();
    });
    const offUpdated = connection.on("resource-updated", ({ uri }) => {
      const next = [...this.updates, { seq: ++this.#seq, uri }];
      this.updates = next.length > MAX_UPDATES ? next.slice(next.length - MAX_UPDATES) : next;
    });
    return () => {
      offList();
      offUpdated();
    };
  }

  /** Lists resources and templates again; the selection follows the same URI or template. */
  async refresh(): Promise<void> {
    const connection = this.#source.connection();
    if (!connection) return;
    if (!this.supported) {
      this.listError = "The server declares no resources capability.";
      return;
    }
    const run = ++this.#listRun;
    this.loaded = true;
    const keep = this.selectedResource?.uri ?? this.selectedTemplate?.uriTemplate;
    const kind = this.selection?.kind;
    this.loading = true;
    const errors: string[] = [];
    const [resources, templates] = await Promise.all([
      connection.listResources(this.#options()).catch((e: unknown) => (errors.push(failureView(e).message), [])),
      connection.listResourceTemplates(this.#options()).catch((e: unknown) => (errors.push(failureView(e).message), [])),
    ]);
    if (run !== this.#listRun) return;
    this.loading = false;
    if (connection !== this.#source.connection()) return;
    this.resources = resources;
    this.templates = templates;
    this.listError = errors.length > 0 ? errors.join(" ") : null;
    const index = kind === "resource" ? resources.findIndex((r) => r.uri === keep) : kind === "template" ? templates.findIndex((t) => t.uriTemplate === keep) : -1;
    this.selection = kind && index >= 0 ? { kind, index } : null;
  }

  select(kind: "resource" | "template", index: number): void {
    const same = this.selection?.kind === kind && this.selection.index === index;
    this.selection = { kind, index };
    if (!same && kind === "template") {
      this.values = {};
      this.suggestions = {};
    }
  }

  setValue(name: string, value: string): void {
    this.values = { ...this.values, [name]: value };
  }

  async readSelected(): Promise<void> {
    const resource = this.selectedResource;
    if (resource) return this.readUri(str(resource.uri));
    const expansion = this.expansion;
    if (expansion?.ok) return this.readUri(expansion.uri);
  }

  async readUri(uri: string): Promise<void> {
    const connection = this.#source.connection();
    if (!connection || uri === "") return;
    const run = ++this.#readRun;
    const seq = this.#seq;
    this.reading = true;
    let outcome: ReadOutcome;
    try {
      const result = await connection.readResource(uri, this.#options());
      outcome = { uri, seq, ok: true, result, parts: resourceParts(result) };
    } catch (error) {
      outcome = { uri, seq, ok: false, failure: failureView(error) };
    }
    if (run !== this.#readRun) return;
    this.read = outcome;
    this.reading = false;
  }

  async toggleSubscription(uri: string): Promise<void> {
    const connection = this.#source.connection();
    if (!connection || uri === "") return;
    const on = this.subscribed.includes(uri);
    try {
      if (on) await connection.unsubscribeResource(uri, this.#options());
      else await connection.subscribeResource(uri, this.#options());
    } catch (error) {
      this.subscribeError = failureView(error).message;
      return;
    }
    this.subscribed = on ? this.subscribed.filter((u) => u !== uri) : [...this.subscribed, uri];
    this.subscribeError = null;
  }

  /** Asks the server to complete a variable of the selected template (when it offers completions). */
  async suggest(name: string): Promise<void> {
    const connection = this.#source.connection();
    const template = this.selectedTemplate;
    if (!connection || !template || this.#source.info()?.capabilities.completions === undefined) return;
    const uriTemplate = str(template.uriTemplate);
    try {
      const result = await connection.complete({ type: "ref/resource", uri: uriTemplate }, { name, value: this.values[name] ?? "" }, undefined, this.#options());
      if (this.selectedTemplate?.uriTemplate === uriTemplate) this.suggestions = { ...this.suggestions, [name]: completionValues(result) };
    } catch {
      // Suggestions are a convenience; a server that refuses them leaves the field as it is.
    }
  }
}
