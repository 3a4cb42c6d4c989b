import { isJsonObject } from "../../../core/json/index.ts";
import type { McpConnection } from "../../../core/mcp/index.ts";
import { completionValues, failureView, type InspectSource, type RequestFailureView } from "./inspect-source.ts";
import { contentParts, type ContentPart } from "./result-view.ts";
import { inputKey, ResultFor } from "../../lib/result-for.svelte.ts";

/** One declared argument of a prompt. */
export interface PromptArgument {
  readonly name: string;
  readonly description: string | undefined;
  readonly required: boolean;
}

export interface PromptMessageView {
  readonly role: string;
  readonly parts: readonly ContentPart[];
}

export type PromptOutcome =
  | { readonly name: string; readonly ok: true; readonly result: Record<string, unknown>; readonly messages: readonly PromptMessageView[] }
  | { readonly name: string; readonly ok: false; readonly failure: RequestFailureView };

/** A prompt's declared arguments; entries without a string name are skipped. */
export function promptArguments(prompt: Record<string, unknown> | undefined): PromptArgument[] {
  const args = prompt?.arguments;
  if (!Array.isArray(args)) return [];
  return args.filter(isJsonObject).flatMap((a) =>
    typeof a.name === "string" && a.name !== "" ? [{ name: a.name, description: typeof a.description === "string" ? a.description : undefined, required: a.required === true }] : [],
  );
}

/** The messages of a prompts/get result, each rendered like tool result content. */
export function promptMessages(result: unknown): PromptMessageView[] {
  const messages = isJsonObject(result) && Array.isArray(result.messages) ? result.messages : [];
  return messages.map((m: unknown) => {
    const message = isJsonObject(m) ? m : {};
    // Each message holds one content block; contentParts numbers blocks, which one block does not need.
    const parts = contentParts({ content: [message.content] }).map((p) => ({ ...p, label: p.label.replace(/^#1 /, "") }));
    return { role: typeof message.role === "string" ? message.role : "(no role)", parts };
  });
}

/** Prompts of the open connection, the argument form of the selected one, and what prompts/get gave. */
export class PromptsState {
  prompts = $state.raw<readonly Record<string, unknown>[]>([]);
  listError = $state<string | null>(null);
  loading = $state(false);
  /** True once the list was asked for on this connection; list_changed refreshes only then. */
  loaded = $state(false);
  selectedIndex = $state(-1);
  /** Argument values typed for the selected prompt. */
  values = $state<Record<string, string>>({});
  suggestions = $state.raw<Readonly<Record<string, readonly string[]>>>({});
  formError = $state<string | null>(null);
  getting = $state(false);
  // For the selected prompt and the values as they were asked; empty values are not sent.
  readonly #outcome = new ResultFor<PromptOutcome>(() => inputKey(this.selected?.name, Object.entries(this.values).filter(([, v]) => v !== "").sort()));

  readonly #source: InspectSource;
  // Values per prompt name, so switching prompts loses no typing; not shown, so not reactive.
  #drafts: Record<string, Record<string, string>> = Object.create(null) as Record<string, Record<string, string>>;
  #listRun = 0;
  #getRun = 0;

  constructor(source: InspectSource) {
    this.#source = source;
  }

  get supported(): boolean {
    return this.#source.info()?.capabilities.prompts !== undefined;
  }

  /** What prompts/get gave last, for the selected prompt. */
  get outcome(): PromptOutcome | null {
    return this.#outcome.value;
  }

  /** True when the arguments changed since the prompt on show was got. */
  get outcomeStale(): boolean {
    return this.#outcome.stale;
  }

  get selected(): Record<string, unknown> | undefined {
    return this.prompts[this.selectedIndex];
  }

  get arguments(): PromptArgument[] {
    return promptArguments(this.selected);
  }

  #options() {
    const timeoutMs = this.#source.timeoutMs?.();
    return timeoutMs === undefined ? {} : { timeoutMs };
  }

  watch(connection: McpConnection): () => void {
    this.prompts = [];
    this.listError = null;
    this.selectedIndex = -1;
    this.values = {};
    this.suggestions = {};
    this.formError = null;
    this.#outcome.clear();
    this.#drafts = Object.create(null) as Record<string, Record<string, string>>;
    // Answers still on their way from the previous connection are dropped.
    this.#listRun++;
    this.#getRun++;
    this.loading = false;
    this.getting = false;
    this.loaded = false;
    return connection.on("list-changed", ({ list }) => {
      if (list === "prompts" && this.loaded) void this.refresh();
    });
  }

  /** Lists the prompts again; the selection follows the same name. */
  async refresh(): Promise<void> {
    const connection = this.#source.connection();
    if (!connection) return;
    if (!this.supported) {
      this.listError = "The server declares no prompts capability.";
      return;
    }
    const run = ++this.#listRun;
    this.loaded = true;
    const keep = this.selected?.name;
    this.loading = true;
    let prompts: Record<string, unknown>[] | undefined;
    let error: string | null = null;
    try {
      prompts = await connection.listPrompts(this.#options());
    } catch (e) {
      error = failureView(e).message;
    }
    if (run !== this.#listRun) return;
    this.loading = false;
    if (connection !== this.#source.connection()) return;
    this.listError = error;
    if (!prompts) return;
    this.prompts = prompts;
    this.selectedIndex = keep === undefined ? -1 : prompts.findIndex((p) => p.name === keep);
  }

  select(index: number): void {
    const current = this.selected?.name;
    if (typeof current === "string") this.#drafts[current] = this.values;
    this.selectedIndex = index;
    const name = this.selected?.name;
    this.values = (typeof name === "string" ? this.#drafts[name] : undefined) ?? {};
    this.suggestions = {};
    this.formError = null;
    this.#outcome.clear();
  }

  setValue(name: string, value: string): void {
    this.values = { ...this.values, [name]: value };
  }

  /** The arguments to send: every non-empty value, or a sentence naming the first required one left empty. */
  #collect(): Record<string, string> | string {
    const args: Record<string, string> = {};
    for (const a of this.arguments) {
      const value = this.values[a.name] ?? "";
      if (value !== "") args[a.name] = value;
      else if (a.required) return `Fill in the required argument "${a.name}".`;
    }
    return args;
  }

  async get(): Promise<void> {
    const connection = this.#source.connection();
    const prompt = this.selected;
    if (!connection || !prompt || typeof prompt.name !== "string" || this.getting) return;
    const args = this.#collect();
    if (typeof args === "string") {
      this.formError = args;
      return;
    }
    this.formError = null;
    const name = prompt.name;
    const key = this.#outcome.key();
    const run = ++this.#getRun;
    this.getting = true;
    let outcome: PromptOutcome;
    try {
      const result = await connection.getPrompt(name, this.arguments.length > 0 ? args : undefined, this.#options());
      outcome = { name, ok: true, result, messages: promptMessages(result) };
    } catch (error) {
      outcome = { name, ok: false, failure: failureView(error) };
    }
    if (run !== this.#getRun) return;
    if (this.selected?.name === name) this.#outcome.set(outcome, key);
    this.getting = false;
  }

  /** Asks the server to complete an argument of the selected prompt, with the other values as context. */
  async suggest(argument: string): Promise<void> {
    const connection = this.#source.connection();
    const name = this.selected?.name;
    if (!connection || typeof name !== "string" || this.#source.info()?.capabilities.completions === undefined) return;
    const context = Object.fromEntries(Object.entries(this.values).filter(([k, v]) => k !== argument && v !== ""));
    try {
      const result = await connection.complete({ type: "ref/prompt", name }, { name: argument, value: this.values[argument] ?? "" }, context, this.#options());
      if (this.selected?.name === name) this.suggestions = { ...this.suggestions, [argument]: completionValues(result) };
    } catch {
      // Suggestions are a convenience; a server that refuses them leaves the field as it is.
    }
  }
}
