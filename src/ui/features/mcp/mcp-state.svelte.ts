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
import { ClientFeaturesState } from "./client-features-state.svelte.ts";
import { ElicitationState } from "./elicitation-state.svelte.ts";
import { pageCompiler } from "./page-compiler.ts";
import { checkable, checkCallArguments, checkResult, type ResultCheck, type ResultCheckPart, type ResultChecker } from "./result-check.ts";
import { ConnectFormState } from "./connect-form-state.svelte.ts";
import type { TransportChoice } from "./relay-factory.ts";
import { TOOLS_SET_MARK } from "../../lib/paint-mark.ts";

/** A transport the workbench can also push raw text through; `target` names its frames in the wire log. */
export type McpTransportHandle = Parameters<McpConnection["connect"]>[0] & {
  sendRaw(text: string): Promise<void>;
  readonly target: string;
};

export type TransportFactory = (session: CreateSessionBody, onConsole: (event: RelayConsoleEvent) => void, choice?: TransportChoice) => McpTransportHandle;

export type McpStatus = "idle" | "connecting" | "connected" | "closed";

/** One line of the console pane: what the relay said, or what the connection reported. */
export type ConsoleLine = RelayConsoleEvent | { readonly type: "note"; readonly text: string };

const MAX_CONSOLE = 2_000;
const CLIENT_INFO = { name: "patchbay", version: "0.1.0" };

/** Connection form, server info, tools and the tool call of the MCP workbench; components only bind to it. */
export class McpWorkbenchState {
  readonly form = new ConnectFormState();
  /** The request time limit of the open connection, from the form when it connected. */
  requestTimeoutMs = $state(60_000);

  status = $state<McpStatus>("idle");
  formError = $state<string | null>(null);
  failure = $state.raw<ConnectFailure | null>(null);
  info = $state.raw<ConnectResult | null>(null);
  consoleLines = $state.raw<readonly ConsoleLine[]>([]);

  tools = $state.raw<readonly Record<string, unknown>[]>([]);
  toolsError = $state<string | null>(null);
  toolFilter = $state("");
  selectedName = $state<string | null>(null);
  argsDraft = $state("{}");
  calling = $state(false);
  callError = $state<string | null>(null);
  outcome = $state.raw<CallOutcome | null>(null);
  /** The latest call's arguments and result as the validation worker judged them; null when not checked. */
  resultCheck = $state.raw<ResultCheck | null>(null);
  /** Form-mode elicitation requests from the server, answered in a dialog. */
  readonly elicitation = new ElicitationState(() => this.#connection?.info?.negotiatedVersion);
  /** Declared capabilities, sampling, roots, the server's log and ping. */
  readonly client = new ClientFeaturesState();
  /** `_meta`, progress and time limit of the next tool call. */
  readonly callOptions = new CallOptionsState();

  /** False where the page's CSP keeps ajv from checking results (see page-compiler.ts). */
  readonly checksResults: boolean;
  /** True when results are checked in the validation worker after each call. */
  readonly checksInWorker: boolean;
  readonly #checker: ResultChecker | undefined;
  #checkRun = 0;
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
    const { body, mode, protocolVersion, connectTimeoutMs, requestTimeoutMs } = form.request;
    this.requestTimeoutMs = requestTimeoutMs;
    this.formError = null;
    this.failure = null;
    this.info = null;
    this.#setOutcome(null);
    this.tools = [];
    this.selectedName = null;
    this.consoleLines = [];
    this.status = "connecting";
    const transport = this.#open(body, (event) => this.#log(event), { mode, onNote: (text) => this.#log({ type: "note", text }) });
    const connection = new McpConnection({ compiler: this.#compiler });
    connection.on("close", () => {
      if (this.#connection !== connection) return;
      this.#log({ type: "note", text: "connection closed" });
      this.status = "closed";
      this.#abort?.abort("the connection closed");
      this.elicitation.clear();
      this.client.detach();
    });
    connection.on("error", (error) => this.#log({ type: "note", text: error.message }));
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
        protocolVersion,
        timeoutMs: connectTimeoutMs,
        ...features,
      });
    } catch (error) {
      if (this.#connection !== connection) return;
      this.failure = error instanceof McpConnectError ? error.failure : { step: "initialize", message: (error as Error).message };
      this.status = "idle";
      this.#connection = undefined;
      this.#transport = undefined;
      this.client.detach();
      return;
    }
    if (this.#connection !== connection) return;
    this.status = "connected";
    await this.refreshTools();
  }

  async disconnect(): Promise<void> {
    const connection = this.#connection;
    this.#abort?.abort("disconnected");
    this.elicitation.clear();
    this.client.detach();
    this.#connection = undefined;
    this.#transport = undefined;
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
    this.#setOutcome(null);
    this.callError = null;
  }

  async send(): Promise<void> {
    const connection = this.#connection;
    const name = this.selectedTool?.name;
    if (!connection || this.status !== "connected" || typeof name !== "string" || this.calling) return;
    let args: unknown;
    try {
      args = this.argsDraft.trim() === "" ? {} : JSON.parse(this.argsDraft);
    } catch (error) {
      this.callError = `The arguments are not JSON: ${(error as Error).message}`;
      return;
    }
    if (!isJsonObject(args)) {
      this.callError = "The arguments must be a JSON object";
      return;
    }
    const call = this.callOptions.prepare(connection, this.requestTimeoutMs);
    if (!call.ok) {
      this.callError = call.error;
      return;
    }
    this.callError = null;
    this.#setOutcome(null);
    this.calling = true;
    const tool = this.selectedTool;
    const version = this.info?.negotiatedVersion;
    const abort = new AbortController();
    this.#abort = abort;
    try {
      const outcome = await connection.callTool(name, args, { ...call.options, signal: abort.signal });
      this.#setOutcome(outcome);
      if (version !== undefined) void this.#check(outcome, args, version, name, tool);
    } catch (error) {
      this.callError = `tools/call failed: ${(error as Error).message}`;
    } finally {
      call.end();
      if (this.#abort === abort) this.#abort = undefined;
      this.calling = false;
    }
  }

  /** A new outcome (or none) drops the check of the previous one, even one still running. */
  #setOutcome(outcome: CallOutcome | null): void {
    this.#checkRun++;
    this.outcome = outcome;
    this.resultCheck = null;
  }

  /** The arguments are checked whatever the outcome: a server may refuse bad ones with an error. */
  async #check(outcome: CallOutcome, args: unknown, version: string, name: string, tool: Record<string, unknown> | undefined): Promise<void> {
    const checker = this.#checker;
    if (!checker) return;
    const run = this.#checkRun;
    this.resultCheck = { status: "checking" };
    const schemas = tool && { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema };
    let check: ResultCheck;
    try {
      const [argParts, resultParts] = await Promise.all([
        checkCallArguments(checker, args, version, name, schemas),
        checkable(outcome) ? checkResult(checker, outcome.result, version, name, schemas) : Promise.resolve<ResultCheckPart[]>([]),
      ]);
      check = { status: "done", parts: [...argParts, ...resultParts] };
    } catch (error) {
      check = { status: "failed", message: `The call could not be checked: ${(error as Error).message}` };
    }
    if (run !== this.#checkRun) return;
    this.resultCheck = check.status === "done" && check.parts.length === 0 ? null : check;
  }

  cancel(): void {
    this.#abort?.abort("cancelled by the user");
  }

  #log(line: ConsoleLine): void {
    const next = [...this.consoleLines, line];
    this.consoleLines = next.length > MAX_CONSOLE ? next.slice(next.length - MAX_CONSOLE) : next;
  }
}
