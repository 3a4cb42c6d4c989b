import { isJsonObject } from "../../../core/json/index.ts";
import {
  type CallOutcome,
  type ConnectFailure,
  type ConnectResult,
  type CreateSessionBody,
  McpConnectError,
  McpConnection,
  type RelayConsoleEvent,
} from "../../../core/mcp/index.ts";
import { CallOptionsState } from "./call-options-state.svelte.ts";
import { argsKey, callArguments, type CallShown } from "./call-shown.ts";
import { ClientFeaturesState } from "./client-features-state.svelte.ts";
import { ElicitationState } from "./elicitation-state.svelte.ts";
import { InputRoundsState } from "./input-rounds-state.svelte.ts";
import { TasksState } from "./tasks-state.svelte.ts";
import { pageCompiler } from "./page-compiler.ts";
import { checkCall, type ResultCheck, type ResultChecker } from "./result-check.ts";
import { ConnectFormState } from "./connect-form-state.svelte.ts";
import type { TransportChoice } from "./relay-factory.ts";
import { TOOLS_SET_MARK } from "../../lib/paint-mark.ts";
import { inputKey, ResultFor } from "../../lib/result-for.svelte.ts";
import { keepDraft } from "../../state/drafts.svelte.ts";

/** A transport the workbench can also push raw text through; `target` names its frames in the wire log. */
export type McpTransportHandle = Parameters<McpConnection["connect"]>[0] & {
  sendRaw(text: string): Promise<void>;
  readonly target: string;
};

export type TransportFactory = (session: CreateSessionBody, onConsole: (event: RelayConsoleEvent) => void, choice?: TransportChoice) => McpTransportHandle;

export type McpStatus = "idle" | "connecting" | "connected" | "closed" | "failed";

/** One line of the console pane: what the relay said, or what the connection reported. */
export type ConsoleLine = RelayConsoleEvent | { readonly type: "note"; readonly text: string };

const MAX_CONSOLE = 2_000;
/** The stderr lines an ended server's notice repeats. */
const LAST_STDERR = 12;

/** A connection that ended without being asked to: why, the exit code, and what the server last wrote to stderr. */
export interface ServerEnd {
  readonly reason: string;
  readonly code?: number;
  readonly stderr: readonly string[];
}

/** The end the console recorded (the relay's `closed` line) and the stderr lines before it. */
export function serverEnd(lines: readonly ConsoleLine[]): ServerEnd {
  const closed = lines.findLast((l) => l.type === "closed");
  const stderr = lines.flatMap((l) => (l.type === "stderr" ? [l.text] : [])).slice(-LAST_STDERR);
  if (closed?.type !== "closed") return { reason: "the connection closed", stderr };
  return { reason: closed.reason, ...(closed.code !== undefined ? { code: closed.code } : {}), stderr };
}
const CLIENT_INFO = { name: "patchbay", version: "0.1.0" };

/** Connection form, server info, tools and the tool call of the MCP workbench; components only bind to it. */
export class McpWorkbenchState {
  readonly form = new ConnectFormState();
  /** The request time limit of the open connection, from the form when it connected. */
  requestTimeoutMs = $state(60_000);
  /** The session the open connection was made with, to save a call as a collection step. */
  connectedTo = $state.raw<CreateSessionBody | null>(null);

  status = $state<McpStatus>("idle");
  /** How the open connection ended on its own (a stdio server that exited, a stream that closed). */
  ended = $state.raw<ServerEnd | null>(null);
  formError = $state<string | null>(null);
  info = $state.raw<ConnectResult | null>(null);
  consoleLines = $state.raw<readonly ConsoleLine[]>([]);

  tools = $state.raw<readonly Record<string, unknown>[]>([]);
  toolsError = $state<string | null>(null);
  toolFilter = $state("");
  selectedName = $state<string | null>(null);
  argsDraft = $state("{}");
  calling = $state(false);
  /** Counts connections made and ended: a result from an earlier one is stale. */
  #generation = $state(0);
  /** The last connect attempt's failure, for the form as it was then. */
  readonly #failure = new ResultFor<ConnectFailure>(() => inputKey(this.form.values, this.form.connectionMode, this.form.requestedVersion, this.form.era));
  readonly #call = new ResultFor<CallShown>(() => inputKey(this.#generation, this.selectedName, argsKey(this.argsDraft)));
  /** Form-mode elicitation requests from the server, answered in a dialog. */
  readonly elicitation = new ElicitationState(() => this.#connection?.info?.negotiatedVersion);
  /** Declared capabilities, sampling, roots, the server's log and ping. */
  readonly client = new ClientFeaturesState();
  /** `_meta`, progress and time limit of the next tool call. */
  readonly callOptions = new CallOptionsState();
  /** The input_required rounds of the call on show. */
  readonly rounds = new InputRoundsState();
  /** Tasks started here or listed by the server. */
  readonly tasks = new TasksState();

  /** False where the page's CSP keeps ajv from checking results (see page-compiler.ts). */
  readonly checksResults: boolean;
  /** True when results are checked in the validation worker after each call. */
  readonly checksInWorker: boolean;
  readonly #checker: ResultChecker | undefined;
  readonly #open: TransportFactory;
  readonly #compiler: ReturnType<typeof pageCompiler>["compiler"];
  // Argument drafts per tool name, so switching tools loses no typing; not shown, so not reactive.
  readonly #drafts: Record<string, string> = Object.create(null) as Record<string, string>;
  #connection: McpConnection | undefined;
  #transport: McpTransportHandle | undefined;
  #abort: AbortController | undefined;
  // A burst of tools/list_changed gives one refresh at a time, plus one more if any came meanwhile.
  #toolsRefresh: Promise<void> | undefined;
  #refreshAgain = false;

  constructor(open: TransportFactory, compiler = pageCompiler(), checker?: ResultChecker) {
    this.#open = open;
    this.#compiler = compiler.compiler;
    this.checksResults = compiler.checksResults;
    this.#checker = checker;
    this.checksInWorker = checker !== undefined;
    // The arguments typed for a tool come back when it is chosen again after a reload.
    keepDraft("mcp.call", () => (this.selectedName === null ? undefined : { tool: this.selectedName, args: this.argsDraft }), (d) => {
      if (isJsonObject(d) && typeof d.tool === "string" && typeof d.args === "string") this.#drafts[d.tool] = d.args;
    });
  }

  get failure(): ConnectFailure | null {
    return this.#failure.value;
  }

  /** True when the form changed since the attempt that failed. */
  get failureStale(): boolean {
    return this.#failure.stale;
  }

  get outcome(): CallOutcome | null {
    return this.#call.value?.outcome ?? null;
  }

  /** Why the last call was not made or failed, or null. */
  get callError(): string | null {
    return this.#call.value?.error ?? null;
  }

  /** The latest call's arguments and result as the validation worker judged them; null when not checked. */
  get resultCheck(): ResultCheck | null {
    return this.#call.value?.check ?? null;
  }

  /** True when the arguments or the connection changed since the call on show. */
  get callStale(): boolean {
    return this.#call.stale;
  }

  /** The open transport, for raw mode. */
  get transport(): McpTransportHandle | undefined {
    return this.status === "connected" ? this.#transport : undefined;
  }

  /** Tools whose name or title contains the filter text (case-insensitive). */
  readonly filteredTools: readonly Record<string, unknown>[] = $derived.by(() => {
    const q = this.toolFilter.trim().toLowerCase();
    if (q === "") return this.tools;
    return this.tools.filter((t) => [t.name, t.title].some((v) => typeof v === "string" && v.toLowerCase().includes(q)));
  });

  /** The selected tool's position in the filtered list, -1 when it is filtered out or none is selected. */
  get selectedIndex(): number {
    return this.filteredTools.findIndex((t) => t.name === this.selectedName);
  }

  get selectedTool(): Record<string, unknown> | undefined {
    return this.tools.find((t) => t.name === this.selectedName);
  }

  /** The selected tool's inputSchema, for the editor's completion and diagnostics. */
  get inputSchema(): object | undefined {
    const schema = this.selectedTool?.inputSchema;
    return isJsonObject(schema) ? schema : undefined;
  }

  /** The open connection, for panels that list or read more than tools. */
  get connection(): McpConnection | undefined {
    return this.status === "connected" ? this.#connection : undefined;
  }

  async connect(): Promise<void> {
    if (this.status === "connecting" || this.status === "connected") return;
    const form = this.form.build();
    if (!form.ok) {
      this.formError = form.error;
      return;
    }
    const { body, mode, era, protocolVersion, connectTimeoutMs, requestTimeoutMs } = form.request;
    this.requestTimeoutMs = requestTimeoutMs;
    this.formError = null;
    this.ended = null;
    this.#failure.clear();
    this.info = null;
    this.#generation++;
    this.#call.clear();
    this.tools = [];
    this.selectedName = null;
    this.consoleLines = [];
    this.status = "connecting";
    const transport = this.#open(body, (event) => this.#log(event), { mode, onNote: (text) => this.#log({ type: "note", text }) });
    const connection = new McpConnection({ compiler: this.#compiler });
    connection.on("close", () => {
      if (this.#connection !== connection) return;
      this.#log({ type: "note", text: "connection closed" });
      this.ended = serverEnd(this.consoleLines);
      this.status = "closed";
      this.#generation++;
      this.#abort?.abort("the connection closed");
      this.elicitation.clear();
      this.rounds.stop();
      this.tasks.detach();
      this.client.detach();
    });
    connection.on("error", (error) => this.#log({ type: "note", text: error.message }));
    connection.on("era-mismatch", ({ message }) => this.#log({ type: "note", text: message }));
    connection.on("list-changed", ({ list }) => {
      if (list === "tools" && this.#connection === connection && this.status === "connected") this.#toolsChanged();
    });
    const features = this.client.connectOptions(this.elicitation.handle);
    this.client.attach(connection, (text) => this.#log({ type: "note", text }));
    this.#connection = connection;
    this.#transport = transport;
    try {
      this.info = await connection.connect(transport, {
        clientInfo: CLIENT_INFO,
        era,
        protocolVersion,
        timeoutMs: connectTimeoutMs,
        ...features,
      });
    } catch (error) {
      if (this.#connection !== connection) return;
      this.#failure.set(error instanceof McpConnectError ? error.failure : { step: "initialize", message: (error as Error).message });
      this.status = "failed";
      this.#connection = undefined;
      this.#transport = undefined;
      this.client.detach();
      return;
    }
    if (this.#connection !== connection) return;
    this.status = "connected";
    this.connectedTo = body;
    this.tasks.clear();
    this.tasks.attach(connection, requestTimeoutMs);
    await this.refreshTools();
  }

  async disconnect(): Promise<void> {
    const connection = this.#connection;
    this.#abort?.abort("disconnected");
    this.elicitation.clear();
    this.rounds.stop();
    this.tasks.detach();
    this.client.detach();
    this.#connection = undefined;
    this.#transport = undefined;
    if (connection) this.#generation++;
    this.status = "idle";
    await connection?.close().catch((error: unknown) => this.#log({ type: "note", text: `close failed: ${(error as Error).message}` }));
  }

  async refreshTools(): Promise<void> {
    const connection = this.#connection;
    if (!connection || !this.info) return;
    if (!this.info.capabilities.tools) {
      this.toolsError = "The server declares no tools capability.";
      return;
    }
    try {
      const tools = await connection.listTools();
      performance.mark(TOOLS_SET_MARK);
      this.tools = tools;
      this.toolsError = null;
    } catch (error) {
      this.toolsError = `tools/list failed: ${(error as Error).message}`;
    }
  }

  #toolsChanged(): void {
    if (this.#toolsRefresh) {
      this.#refreshAgain = true;
      return;
    }
    this.#log({ type: "note", text: "The server says its tools changed (notifications/tools/list_changed); refreshing the list." });
    this.#toolsRefresh = (async () => {
      do {
        this.#refreshAgain = false;
        await this.refreshTools();
      } while (this.#refreshAgain);
    })().finally(() => (this.#toolsRefresh = undefined));
  }

  /** Selects the tool at `index` of the filtered list. */
  select(index: number): void {
    if (this.selectedName !== null) this.#drafts[this.selectedName] = this.argsDraft;
    const name = this.filteredTools[index]?.name;
    this.selectedName = typeof name === "string" ? name : null;
    this.argsDraft = (typeof name === "string" ? this.#drafts[name] : undefined) ?? "{}";
    this.#call.clear();
  }

  /** Whether the server lets a call run as a task. */
  get canRunAsTask(): boolean {
    return this.status === "connected" && this.tasks.support?.toolCalls === true;
  }

  /** Sends the call and asks for it to run as a task; the task then shows in Tasks. */
  runAsTask(): Promise<void> {
    return this.send(true);
  }

  async send(asTask = false): Promise<void> {
    const connection = this.#connection;
    const name = this.selectedTool?.name;
    if (!connection || this.status !== "connected" || typeof name !== "string" || this.calling) return;
    const refuse = (error: string) => this.#call.set({ outcome: null, error, check: null });
    const parsed = callArguments(this.argsDraft);
    if ("error" in parsed) return refuse(parsed.error);
    const args = parsed.args;
    const call = this.callOptions.prepare(connection, this.requestTimeoutMs);
    if (!call.ok) return refuse(call.error);
    this.#call.clear();
    this.rounds.clear();
    this.calling = true;
    const key = this.#call.key();
    const tool = this.selectedTool;
    const version = this.info?.negotiatedVersion;
    const abort = new AbortController();
    this.#abort = abort;
    try {
      const outcome = await connection.callTool(name, args, { ...call.options, ...this.rounds.options(connection), ...(asTask ? { asTask: {} } : {}), signal: abort.signal });
      if (outcome.kind === "task") this.tasks.add(outcome.task, name);
      // An answer for a tool no longer selected is not shown under another (Traffic keeps it).
      if (this.selectedName !== name) return;
      const shown: CallShown = { outcome, error: null, check: this.#checker && version !== undefined ? { status: "checking" } : null };
      this.#call.set(shown, key);
      if (shown.check) void this.#check(shown, { outcome, args, version: version!, name, tool }, key);
    } catch (error) {
      if (this.selectedName === name) this.#call.set({ outcome: null, error: `tools/call failed: ${(error as Error).message}`, check: null }, key);
    } finally {
      call.end();
      if (this.#abort === abort) this.#abort = undefined;
      this.calling = false;
    }
  }

  /** The check lands on the call it was made for; a newer call (or none) drops it. */
  async #check(shown: CallShown, call: Parameters<typeof checkCall>[1], key: string): Promise<void> {
    const check = await checkCall(this.#checker!, call);
    if (this.#call.value === shown) this.#call.set({ ...shown, check }, key);
  }

  cancel(): void {
    this.#abort?.abort("cancelled by the user");
    this.rounds.stop();
  }

  #log(line: ConsoleLine): void {
    const next = [...this.consoleLines, line];
    this.consoleLines = next.length > MAX_CONSOLE ? next.slice(next.length - MAX_CONSOLE) : next;
  }
}
