import type { RawExchange, RawInput, ReplySetEntry } from "../../../core/fisk/client/index.ts";
import type { BackendClient } from "../../../core/backend/backend-client.ts";
import { parseJsonText } from "../../../core/json/index.ts";
import { rowsToHeaders, type HeaderRow } from "../../../core/nats/headers.ts";
import type { AuthMode } from "../../../core/nats/connection-form.ts";
import { parseNatsContext, subjectProblem, type NatsAuth, type NatsRequestOutcome, type NatsSession } from "../../../core/nats/index.ts";
import { keepFields } from "../../state/drafts.svelte.ts";

export type PayloadMode = "json" | "text";

/** What a request was: the reply shown answers this, and no longer applies once any of it changes. */
interface RequestKey {
  readonly subject: string;
  readonly headers: string;
  readonly payload: string;
}

/** What changed since the shown reply's request was sent, in words; null while it still applies. */
function requestChange(sent: RequestKey, now: RequestKey): string | null {
  const changed = [sent.subject !== now.subject ? "the subject" : "", sent.headers !== now.headers ? "the headers" : "", sent.payload !== now.payload ? "the payload" : ""].filter((w) => w !== "");
  if (changed.length === 0) return null;
  const words = changed.length === 1 ? changed[0]! : `${changed.slice(0, -1).join(", ")} and ${changed.at(-1)!}`;
  return `${words} changed`;
}

/** Sends and reads every reply until silence or a final header (the fisk-ai client's raw mode). */
export type RawSender = (input: RawInput) => Promise<RawExchange>;

const encoder = new TextEncoder();

/** Form state and actions of the NATS workbench; components only bind to it. */
export class NatsWorkbenchState {
  servers = $state("");
  authMode = $state<AuthMode>("none");
  user = $state("");
  pass = $state("");
  token = $state("");
  nkeySeed = $state("");
  creds = $state("");

  subject = $state("");
  headerRows = $state<HeaderRow[]>([{ name: "", value: "" }]);
  payloadMode = $state<PayloadMode>("json");
  payload = $state("{}");
  timeoutMs = $state(5000);

  sending = $state(false);
  connectError = $state<string | null>(null);
  formError = $state<string | null>(null);
  outcome = $state.raw<NatsRequestOutcome | null>(null);
  /** Read every reply, not just the first: the timeout becomes the silence that ends the read. */
  readAll = $state(false);
  exchange = $state.raw<RawExchange | null>(null);
  /** Replies of the running raw exchange, as they arrive. */
  liveEntries = $state.raw<readonly ReplySetEntry[]>([]);

  /** The form as it was when `formError` was found: once any of it changes, the problem is hidden. */
  #formErrorFor = $state("");
  readonly #formKey = $derived(JSON.stringify([this.subject, this.headerRows, this.payloadMode, this.payload, this.timeoutMs, this.readAll]));
  /** The form problem, while the form is still the one it was about. */
  readonly shownFormError: string | null = $derived(this.formError && this.#formErrorFor === this.#formKey ? this.formError : null);
  /** The request the shown reply (or replies) answer. */
  #sent = $state.raw<RequestKey | null>(null);
  readonly #request: RequestKey = $derived({ subject: this.subject.trim(), headers: JSON.stringify(this.headerRows), payload: this.payload });
  /** Why the reply on show no longer answers the form, or null. */
  readonly replyStale: string | null = $derived(this.#sent && !this.sending && (this.outcome || this.exchange) ? requestChange(this.#sent, this.#request) : null);

  readonly #session: NatsSession;
  readonly #raw: RawSender | undefined;

  constructor(session: NatsSession, raw?: RawSender) {
    this.#session = session;
    this.#raw = raw;
    // Kept across a reload; the password, token, seed and creds never are.
    keepFields(this, "nats.form", ["servers", "authMode", "user", "subject", "headerRows", "payloadMode", "payload", "timeoutMs", "readAll"]);
  }

  /** Prefill the server URL from the backend's managed NATS, unless the user typed one. */
  async prefill(backend: BackendClient): Promise<void> {
    if (this.servers !== "") return;
    try {
      const status = await backend.status();
      if (this.servers === "" && status.nats.wsUrl) this.servers = status.nats.wsUrl;
    } catch {
      // The status bar already reports an unreachable backend.
    }
  }

  async connect(): Promise<void> {
    const servers = this.servers.trim();
    if (!/^wss?:\/\/\S+$/.test(servers)) {
      this.connectError = "The browser reaches NATS over WebSocket: the URL must start with ws:// or wss://";
      return;
    }
    this.connectError = null;
    const auth = this.#auth();
    await this.#session.connect({ servers, name: "patchbay-console", ...(auth ? { auth } : {}) });
  }

  #auth(): NatsAuth | undefined {
    switch (this.authMode) {
      case "userpass":
        return { user: this.user, pass: this.pass };
      case "token":
        return { token: this.token };
      case "nkey":
        return { nkeySeed: this.nkeySeed };
      case "creds":
        return { creds: this.creds };
      default:
        return undefined;
    }
  }

  /** Reads a dropped or picked `.creds` file; its text stays in memory only. */
  async loadCreds(file: File): Promise<void> {
    this.creds = await file.text();
  }

  /** Reads an NKey seed file (the `nats` CLI's `nkey` setting points at one); kept in memory only. */
  async loadSeed(file: File): Promise<void> {
    this.nkeySeed = (await file.text()).trim();
  }

  /** What the last imported `nats` CLI context could not carry over. */
  contextNotes = $state<string[]>([]);

  /** Fills the form from a `nats` CLI context file (`~/.config/nats/context/<name>.json`). */
  async importContext(file: File): Promise<void> {
    const result = parseNatsContext(file.name.replace(/\.json$/i, ""), await file.text());
    if (!result.ok) {
      this.connectError = `${file.name}: ${result.error}`;
      this.contextNotes = [];
      return;
    }
    const { context } = result;
    this.connectError = null;
    if (context.webSocketUrl) this.servers = context.webSocketUrl;
    this.authMode = context.auth.mode;
    this.user = context.auth.user ?? "";
    this.pass = context.auth.password ?? "";
    this.token = context.auth.token ?? "";
    this.nkeySeed = "";
    this.creds = "";
    this.contextNotes = [`Imported context "${context.name}"${context.description ? ` (${context.description})` : ""}.`, ...context.notes];
  }

  disconnect(): Promise<void> {
    return this.#session.disconnect();
  }

  addHeader(): void {
    this.headerRows = [...this.headerRows, { name: "", value: "" }];
  }

  removeHeader(index: number): void {
    this.headerRows = this.headerRows.filter((_, i) => i !== index);
    if (this.headerRows.length === 0) this.headerRows = [{ name: "", value: "" }];
  }

  /** Why the payload cannot be sent as typed, or null. The text itself is sent unchanged. */
  payloadProblem(): string | null {
    if (this.payloadMode !== "json") return null;
    const parsed = parseJsonText(this.payload);
    if (parsed.ok) return null;
    const where = `line ${parsed.line}, column ${parsed.column}`;
    return `payload is not valid JSON: ${parsed.message} at ${where} (switch to Text to send it anyway)`;
  }

  #problem(message: string | null): void {
    this.formError = message;
    this.#formErrorFor = this.#formKey;
  }

  async send(): Promise<void> {
    const headers = rowsToHeaders(this.headerRows);
    const timeoutOk = Number.isFinite(this.timeoutMs) && this.timeoutMs >= 1 && this.timeoutMs <= 600_000;
    // A bad subject is the form's problem, shown beside it, not a reply.
    const problem = !headers.ok ? headers.error : (this.payloadProblem() ?? (timeoutOk ? null : "timeout must be between 1 and 600000 ms") ?? subjectProblem(this.subject.trim()));
    this.#problem(problem);
    if (problem || !headers.ok) return;
    this.#sent = this.#request;
    if (this.readAll) return this.#sendRaw(headers.headers);
    this.sending = true;
    try {
      this.outcome = await this.#session.request({
        subject: this.subject.trim(),
        payload: encoder.encode(this.payload),
        timeoutMs: this.timeoutMs,
        ...(headers.headers ? { headers: headers.headers } : {}),
      });
    } finally {
      this.sending = false;
    }
  }

  async #sendRaw(headers: Record<string, string[]> | undefined): Promise<void> {
    const subject = this.subject.trim();
    const problem = this.#raw ? subjectProblem(subject) : "reading every reply is not available here";
    if (problem) return this.#problem(problem);
    this.sending = true;
    this.exchange = null;
    this.liveEntries = [];
    try {
      this.exchange = await this.#raw!({
        subject,
        body: encoder.encode(this.payload),
        idleMs: this.timeoutMs,
        onEntry: (e) => (this.liveEntries = [...this.liveEntries, e]),
        ...(headers ? { headers } : {}),
      });
    } catch (err) {
      this.#problem(`sending failed: ${(err as Error).message}`);
    } finally {
      this.sending = false;
    }
  }
}
