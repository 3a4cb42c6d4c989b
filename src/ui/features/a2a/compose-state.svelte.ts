import {
  buildRequest,
  chooseInterface,
  operationsOf,
  type Binding,
  type CardInterface,
  type Dialect,
  type HeaderOptions,
  type HttpRequestSpec,
  type Operation,
  type OperationInput,
  type RequestTarget,
} from "../../../core/a2a/index.ts";
import type { CardState } from "./card-state.svelte.ts";
import type { ConversationsState } from "./conversations.svelte.ts";
import { editorSchemaFor, rawSpec, type RawDraft } from "./compose-raw.ts";
import type { LiveExchange } from "./live-exchange.svelte.ts";
import { isPartRow, newPart, partForDraft, partsOf, type PartKind, type PartRow } from "./parts-draft.ts";
import { requestFormHeaders, requestHeaders, type HeaderRow } from "./request-headers.ts";
import { fieldsOf, keepDraft, restoreFields } from "../../state/drafts.svelte.ts";

/** The form fields a reload brings back; the push token is a credential and never kept. */
const DRAFT_FIELDS = ["operation", "taskId", "contextId", "configId", "pushUrl", "historyLength", "versionHeader", "mode", "manual"] as const;
/** Raw headers whose values are kept with the draft; any other header's value may be a credential and is asked again. */
const PLAIN_HEADERS = new Set(["content-type", "accept", "a2a-version", "a2a-extensions"]);

export type VersionMode = NonNullable<HeaderOptions["versionHeader"]>;
export type ComposeMode = "template" | "raw";

/** The interface chosen for one card; another card starts from its own preferred one. */
interface Choice {
  readonly card: unknown;
  readonly index: number;
}

/**
 * Compose: a template for every operation of the chosen dialect and binding, built by the core
 * and edited freely in the editor, or a raw request sent exactly as typed.
 */
export class ComposeState {
  operation = $state<Operation>("send");
  parts = $state<PartRow[]>([{ kind: "text", text: "echo hello" }]);
  taskId = $state("");
  contextId = $state("");
  configId = $state("");
  pushUrl = $state("");
  pushToken = $state("");
  historyLength = $state("");
  versionHeader = $state<VersionMode>("auto");
  messageId = $state("");
  mode = $state<ComposeMode>("template");
  manual = $state<{ url: string; dialect: Dialect; binding: Binding }>({ url: "", dialect: "1.0", binding: "jsonrpc" });
  raw = $state<RawDraft>({ method: "POST", url: "", headers: [{ name: "Content-Type", value: "application/json" }], body: "" });
  sendError = $state<string | null>(null);
  live = $state.raw<LiveExchange | null>(null);

  #choice = $state.raw<Choice | null>(null);
  #edited = $state<string | null>(null);
  /** v0.1: the client names the task; a fresh id for each new task. */
  #v01TaskId = $state("");
  readonly #card: CardState;
  readonly #conversations: ConversationsState;
  readonly #newId: () => string;

  constructor(card: CardState, conversations: ConversationsState, newId: () => string) {
    this.#card = card;
    this.#conversations = conversations;
    this.#newId = newId;
    this.messageId = newId();
    this.#v01TaskId = newId();
    keepDraft("a2a.compose", () => this.draft(), (d) => this.restoreDraft(d));
  }

  /** What a reload brings back: the form, the parts (an upload's bytes left out), raw headers' plain values, an edited body. */
  draft(): Record<string, unknown> {
    return {
      ...fieldsOf(this, DRAFT_FIELDS),
      parts: $state.snapshot(this.parts).map(partForDraft),
      raw: { ...$state.snapshot(this.raw), headers: this.raw.headers.map((h) => ({ name: h.name, value: PLAIN_HEADERS.has(h.name.trim().toLowerCase()) ? h.value : "" })) },
      edited: this.#edited,
    };
  }

  /** Takes back what `draft` kept, each part only when it still fits the form. */
  restoreDraft(data: unknown): void {
    restoreFields(this, DRAFT_FIELDS, data);
    if (typeof data !== "object" || data === null) return;
    const d = data as { parts?: unknown; raw?: unknown; edited?: unknown };
    if (Array.isArray(d.parts) && d.parts.length > 0 && d.parts.every(isPartRow)) this.parts = d.parts;
    restoreFields(this, ["raw"], { raw: d.raw });
    if (typeof d.edited === "string") this.#edited = d.edited;
  }

  get interfaces(): readonly CardInterface[] {
    return this.#card.found?.interfaces ?? [];
  }

  /** The chosen interface's index; -1 is an interface typed by hand. */
  get interfaceIndex(): number {
    const card = this.#card.found?.card;
    if (this.#choice && this.#choice.card === card) return this.#choice.index;
    const preferred = chooseInterface(this.interfaces, undefined, undefined);
    return typeof preferred === "string" ? -1 : this.interfaces.indexOf(preferred);
  }

  set interfaceIndex(index: number) {
    this.#choice = { card: this.#card.found?.card, index };
  }

  get target(): RequestTarget | string {
    const index = this.interfaceIndex;
    if (index < 0) {
      const url = this.manual.url.trim();
      if (!/^https?:\/\/\S+$/.test(url)) return "fetch a card, or give the interface URL (http:// or https://)";
      return { url, dialect: this.manual.dialect, binding: this.manual.binding };
    }
    const i = this.interfaces[index];
    if (!i) return "choose an interface";
    if (i.binding === undefined) return `${i.bindingName} is not spoken here: choose a JSON-RPC or HTTP+JSON interface`;
    return { url: i.url, dialect: i.dialect, binding: i.binding, ...(i.tenant ? { tenant: i.tenant } : {}) };
  }

  get operations(): Operation[] {
    const t = this.target;
    return typeof t === "string" ? [] : operationsOf(t.dialect, t.binding);
  }

  /** The operation in use: the one chosen, when the interface offers it. */
  get op(): Operation {
    const ops = this.operations;
    return ops.includes(this.operation) ? this.operation : (ops[0] ?? this.operation);
  }

  #input(dialect: Dialect): OperationInput | string {
    const parts = partsOf(this.parts);
    if (!parts.ok) return parts.error;
    const history = this.historyLength.trim();
    if (history !== "" && !/^\d+$/.test(history)) return "historyLength must be a whole number";
    const v01 = dialect === "0.1";
    const taskId = this.taskId.trim();
    const contextId = this.contextId.trim();
    const sending = this.op === "send" || this.op === "stream";
    return {
      message: { messageId: this.messageId, parts: parts.parts, ...(!v01 && taskId ? { taskId } : {}), ...(!v01 && contextId ? { contextId } : {}) },
      ...(v01 && sending ? { taskId: taskId || this.#v01TaskId, ...(contextId ? { sessionId: contextId } : {}) } : taskId ? { taskId } : {}),
      ...(!sending && contextId ? { contextId } : {}),
      ...(this.configId.trim() ? { configId: this.configId.trim() } : {}),
      ...(this.pushUrl.trim() ? { pushUrl: this.pushUrl.trim() } : {}),
      ...(this.pushToken ? { pushToken: this.pushToken } : {}),
      ...(history !== "" ? { historyLength: Number(history) } : {}),
    };
  }

  /** The request the template makes, without the form's credentials (they are added on sending). */
  get built(): { ok: true; spec: HttpRequestSpec; target: RequestTarget } | { ok: false; error: string } {
    const target = this.target;
    if (typeof target === "string") return { ok: false, error: target };
    const input = this.#input(target.dialect);
    if (typeof input === "string") return { ok: false, error: input };
    try {
      return { ok: true, spec: buildRequest(target, this.op, input, { versionHeader: this.versionHeader }), target };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }

  /** The editor's text: the template, or the user's edit of it. */
  get text(): string {
    const built = this.built;
    return this.#edited ?? (built.ok ? (built.spec.body ?? "") : "");
  }

  set text(value: string) {
    const built = this.built;
    this.#edited = built.ok && value === (built.spec.body ?? "") ? null : value;
  }

  get edited(): boolean {
    return this.#edited !== null;
  }

  resetTemplate(): void {
    this.#edited = null;
  }

  get schema(): object | undefined {
    const t = this.target;
    return typeof t === "string" ? undefined : editorSchemaFor(t, this.op);
  }

  /** What the shown result was sent from; once the form changes it is marked stale. */
  get key(): string {
    // Not the message id: a fresh one after each send is not a change of input.
    const form = [this.target, this.op, this.parts, this.taskId, this.contextId, this.configId, this.pushUrl, this.pushToken, this.historyLength, this.versionHeader];
    return JSON.stringify(this.mode === "raw" ? ["raw", this.raw] : ["template", ...form, this.#edited]);
  }

  get stale(): boolean {
    return this.live !== null && !this.live.running && this.live.key !== this.key;
  }

  addPart(kind: PartKind): void {
    this.parts.push(newPart(kind));
  }

  removePart(i: number): void {
    this.parts.splice(i, 1);
  }

  /** The template as a raw request to edit freely. */
  copyToRaw(): void {
    const built = this.built;
    if (built.ok) this.raw = { method: built.spec.method, url: built.spec.url, headers: Object.entries(built.spec.headers).map(([name, value]) => ({ name, value })), body: this.text };
    this.mode = "raw";
  }

  /** Continue a conversation (and optionally a task) from the Conversations view. */
  continueIn(contextId: string | undefined, taskId?: string): void {
    this.contextId = contextId ?? "";
    this.taskId = taskId ?? "";
    this.operation = "send";
  }

  send(): Promise<void> | undefined {
    this.sendError = null;
    return this.mode === "raw" ? this.#sendRaw() : this.#sendTemplate();
  }

  #sendTemplate(): Promise<void> | undefined {
    const built = this.built;
    if (!built.ok) {
      this.sendError = built.error;
      return;
    }
    const { target } = built;
    const outbound = this.#card.outbound({ dialect: target.dialect, binding: target.binding, target });
    if (typeof outbound === "string") {
      this.sendError = outbound;
      return;
    }
    const spec: HttpRequestSpec = { ...built.spec, headers: { ...built.spec.headers, ...requestFormHeaders(outbound.headers) }, ...(built.spec.body !== undefined ? { body: this.text } : {}) };
    const hint = { ...(this.taskId.trim() ? { taskId: this.taskId.trim() } : {}), ...(this.contextId.trim() ? { contextId: this.contextId.trim() } : {}) };
    const run = this.#conversations.run(spec, this.op, outbound.out, hint, this.key);
    this.live = run.live;
    if (this.op === "send" || this.op === "stream") {
      this.messageId = this.#newId();
      if (!this.taskId.trim()) this.#v01TaskId = this.#newId();
    }
    return run.done;
  }

  #sendRaw(): Promise<void> | undefined {
    const headers = requestHeaders(this.raw.headers);
    if (!headers.ok) {
      this.sendError = headers.error;
      return;
    }
    const t = this.target;
    const made = rawSpec(this.raw, headers.headers, typeof t === "string" ? undefined : t);
    if (typeof made === "string") {
      this.sendError = made;
      return;
    }
    const out = { ports: this.#card.rawPorts(headers.secret), via: this.#card.via, dialect: made.dialect, binding: made.binding, ...(made.target ? { target: made.target } : {}) };
    const run = this.#conversations.run(made.spec, "raw", out, {}, this.key);
    this.live = run.live;
    return run.done;
  }

  get rawRows(): HeaderRow[] {
    return this.raw.headers;
  }
}
