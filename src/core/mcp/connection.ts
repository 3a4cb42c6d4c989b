import type { Client, ClientCapabilities, LoggingLevel } from "@modelcontextprotocol/client";
import { TypedEventTarget } from "../events/typed-event-target.ts";
import { isJsonObject } from "../json/index.ts";
import { learnTools, type ToolSchemas } from "../packs/mcp/tool-checks.ts";
import type { Scheduler } from "../env/scheduler.ts";
import { SchemaCompiler } from "../schema/compiler.ts";
import { callWithInput } from "./call-flow.ts";
import { installHandlers, installNotifications } from "./client-handlers.ts";
import type { CallOptions, CallOutcome, ClientCapabilityChoice, ClientHandlers, ConnectOptions, ConnectResult, ListName, McpConnectionEvents } from "./connection-types.ts";
import type { Envelope } from "./envelope.ts";
import { eraMismatch, modernServerRequest } from "./era-check.ts";
import type { McpTransport } from "./mcp-transport.ts";
import type { InputAnswers, InputRound } from "./mrtr.ts";
import { scanHeaderParams, type HeaderParam } from "./modern-headers.ts";
import { listAll } from "./paginate.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, RequestChannel, type ChannelRequestOptions } from "./request-channel.ts";
import { McpRequestError, type RequestOptions } from "./request-failure.ts";
import { openSdkSession, type SdkSession } from "./sdk-connect.ts";
import { Subscriptions } from "./subscriptions.ts";
import { TaskOps } from "./task-ops.ts";

export { DEFAULT_CONNECT_TIMEOUT_MS } from "./sdk-connect.ts";
export { DEFAULT_REQUEST_TIMEOUT_MS };

/** What a completion is for: a prompt by name, or a resource template by its URI template. */
export type CompletionRef = { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string };

/**
 * One MCP session in either era over any transport: the SDK client opens it (initialize or
 * server/discover) and answers the server's requests; the console's own request channel sends
 * everything after that with the era's envelope and headers, and keeps every answer as received.
 * Lists are followed across pages, tool calls end in a precisely named outcome (input rounds and
 * tasks included), and server notifications become events.
 */
export class McpConnection extends TypedEventTarget<McpConnectionEvents> {
  readonly #compiler: SchemaCompiler;
  readonly #scheduler: Scheduler | undefined;
  #session: SdkSession | undefined;
  #channel: RequestChannel | undefined;
  #closed = false;
  #choice: ClientCapabilityChoice = {};
  #handlers: ClientHandlers = {};
  #clientInfo = { name: "", version: "" };
  #logLevel: LoggingLevel | undefined;
  readonly #tools = new Map<string, ToolSchemas>();
  readonly #headerParams = new Map<string, readonly HeaderParam[]>();
  readonly #subscriptions = new Subscriptions(() => this.#connected().client, (e) => this.emit("error", e));
  /** Tasks: start, follow, fetch, cancel, list, in the connection's era. */
  readonly tasks: TaskOps;

  constructor(options: { readonly compiler?: SchemaCompiler; readonly scheduler?: Scheduler } = {}) {
    super();
    this.#compiler = options.compiler ?? new SchemaCompiler();
    this.#scheduler = options.scheduler;
    this.tasks = new TaskOps({
      info: () => this.#connected().info,
      request: (method, params, opts) => this.#exchange(method, params, opts).then((r) => r.result),
      capabilities: () => this.#capabilities(),
      outcome: (name, result, version) => callWithInput.outcome({ ...this.#resultContext(name), ...(version ? { negotiatedVersion: version, era: "legacy" as const } : {}) }, result),
    });
  }

  /** What initialize or server/discover established, once connected. */
  get info(): ConnectResult | undefined {
    return this.#session?.info;
  }

  /** The level a modern connection asks log messages at, with each request. */
  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  async connect(transport: McpTransport, options: ConnectOptions): Promise<ConnectResult> {
    if (this.#session || this.#channel) throw new Error("McpConnection is already connected; use a new one per session");
    this.#choice = options.capabilities ?? {};
    this.#handlers = options.handlers ?? {};
    this.#clientInfo = { name: options.clientInfo.name, version: options.clientInfo.version };
    const channel = new RequestChannel({
      send: (message, opts) => this.#connected().bridge.sendOwn(message, opts),
      envelope: () => this.#envelope(),
      perRequestStream: () => this.#session?.bridge.hasPerRequestStream === true,
      ...(this.#scheduler ? { scheduler: this.#scheduler } : {}),
      // The SDK numbers initialize 0; the console's requests follow on, as a single client's would.
      firstId: 1,
    });
    this.#channel = channel;
    const session = await openSdkSession(transport, options, {
      take: (message) => channel.receive(message),
      install: (client) => this.#install(client),
      onError: (error) => this.#sdkError(error),
      onClose: () => this.#onClose(),
    });
    this.#session = session;
    if (session.info.era === "modern") await this.#subscriptions.start(session.info.capabilities);
    return session.info;
  }

  #install(client: Client): void {
    installHandlers(client, this.#choice, this.#handlers);
    installNotifications(client, (type, detail) => this.emit(type, detail));
  }

  #sdkError(error: Error): void {
    // The SDK drops a server's request on a modern connection and says so; the words here say why it matters.
    const dropped = /request .*dropped|inbound request/i.test(error.message) ? /"method":"([^"]+)"/.exec(error.message)?.[1] : undefined;
    this.emit("error", dropped ? new Error(modernServerRequest(dropped)) : error);
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#channel?.close();
    this.#subscriptions.stop();
    this.emit("close", undefined);
  }

  #connected(): SdkSession {
    if (!this.#session) throw new Error("McpConnection is not connected");
    return this.#session;
  }

  #capabilities(): ClientCapabilities {
    return this.#connected().capabilities;
  }

  /** The `_meta` envelope a request carries now, on a modern connection (undefined on a legacy one). */
  envelope(): Envelope | undefined {
    return this.#envelope();
  }

  #envelope(): Envelope | undefined {
    const session = this.#session;
    if (!session || session.info.era !== "modern") return undefined;
    return {
      protocolVersion: session.info.negotiatedVersion,
      clientInfo: this.#clientInfo,
      clientCapabilities: session.capabilities,
      ...(this.#logLevel !== undefined ? { logLevel: this.#logLevel } : {}),
    };
  }

  /** One request on the console's channel; its id and result as received, or an McpRequestError. */
  #exchange(method: string, params: Record<string, unknown> | undefined, options: ChannelRequestOptions = {}): Promise<{ id: number; result: unknown }> {
    const channel = this.#channel;
    this.#connected();
    if (!channel || this.#closed) return Promise.reject(new McpRequestError(method, "connection-closed", `${method} was not sent: the connection is closed`));
    return channel.exchange(method, params, { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, ...options });
  }

  /** Any request by method (params left off when undefined); the result as received, or an McpRequestError. */
  async request(method: string, params?: Record<string, unknown>, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    const { result } = await this.#exchange(method, params, options);
    if (!isJsonObject(result)) throw new Error(`${method} answered with a result that is not a JSON object: ${JSON.stringify(result)?.slice(0, 200)}`);
    const info = this.#connected().info;
    const mismatch = eraMismatch(method, result, info.era, info.negotiatedVersion);
    if (mismatch) this.emit("era-mismatch", { method, message: mismatch });
    return result;
  }

  /** Every item of a list, across pages (each page within the time limit). Tools listed here are what callTool checks results against. */
  async list(list: ListName, options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    const items = await listAll(list, (method, params) => this.request(method, params, options));
    if (list === "tools") {
      this.#tools.clear();
      this.#headerParams.clear();
      learnTools({ tools: items }, this.#tools);
      for (const tool of items) {
        const scan = scanHeaderParams(tool.inputSchema);
        if (typeof tool.name === "string" && scan.ok && scan.params.length > 0) this.#headerParams.set(tool.name, scan.params);
      }
    }
    return items;
  }

  listTools(options?: RequestOptions): Promise<Record<string, unknown>[]> {
    return this.list("tools", options);
  }
  listResources(options?: RequestOptions): Promise<Record<string, unknown>[]> {
    return this.list("resources", options);
  }
  listResourceTemplates(options?: RequestOptions): Promise<Record<string, unknown>[]> {
    return this.list("resourceTemplates", options);
  }
  listPrompts(options?: RequestOptions): Promise<Record<string, unknown>[]> {
    return this.list("prompts", options);
  }

  /** resources/read: the result as received; input the server asks for on the way is answered by the handlers. */
  readResource(uri: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#withInput("resources/read", { uri }, options);
  }

  /** prompts/get with the prompt's arguments (strings, as the protocol defines them); the result as received. */
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#withInput("prompts/get", { name, ...(args !== undefined ? { arguments: args } : {}) }, options);
  }

  async #withInput(method: string, params: Record<string, unknown>, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    if (this.#connected().info.era === "legacy") return this.request(method, params, options);
    const end = await callWithInput.rounds(this.#flowDeps(), method, params, options);
    if (end.kind === "error") throw end.error;
    if (end.kind === "stopped") throw new Error(`${method}: ${end.message}`);
    if (!isJsonObject(end.result)) throw new Error(`${method} answered with a result that is not a JSON object: ${JSON.stringify(end.result)?.slice(0, 200)}`);
    const info = this.#connected().info;
    const mismatch = eraMismatch(method, end.result, info.era, info.negotiatedVersion);
    if (mismatch) this.emit("era-mismatch", { method, message: mismatch });
    return end.result;
  }

  /** Asks for notifications/resources/updated about `uri`: resources/subscribe, or subscriptions/listen on a modern connection. */
  subscribeResource(uri: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    if (this.#connected().info.era === "modern") return this.#subscriptions.resource(uri, true);
    return this.request("resources/subscribe", { uri }, options);
  }

  unsubscribeResource(uri: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    if (this.#connected().info.era === "modern") return this.#subscriptions.resource(uri, false);
    return this.request("resources/unsubscribe", { uri }, options);
  }

  /** completion/complete: suggestions for one argument of a prompt or resource template; the result as received. */
  complete(ref: CompletionRef, argument: { readonly name: string; readonly value: string }, context?: Readonly<Record<string, string>>, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.request("completion/complete", { ref, argument, ...(context !== undefined ? { context: { arguments: context } } : {}) }, options);
  }

  #resultContext(name: string) {
    const info = this.#connected().info;
    return { toolName: name, tool: this.#tools.get(name), compiler: this.#compiler, negotiatedVersion: info.negotiatedVersion, era: info.era };
  }

  #flowDeps() {
    return {
      exchange: (method: string, params: Record<string, unknown>, opts: ChannelRequestOptions) => this.#exchange(method, params, opts),
      answer: (round: InputRound) => this.answerInput(round),
      era: this.#connected().info.era,
    };
  }

  /** Answers a round of input requests the way a plain call does: through the connection's handlers (the page's dialogs and stubs). */
  answerInput(round: InputRound): Promise<InputAnswers> {
    return callWithInput.defaultAnswer(round, this.#handlers, this.#choice);
  }

  /** Calls a tool; never throws for anything the server or the wait can cause. */
  async callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallOutcome> {
    if (this.#closed) return { kind: "connection-closed", message: "the connection is closed" };
    const info = this.#connected().info;
    const params = { name, ...(args !== undefined ? { arguments: args } : {}), ...(options.meta ? { _meta: options.meta } : {}) };
    const headers = info.era === "modern" ? this.#headerParams.get(name) : undefined;
    return callWithInput.tool(this.#flowDeps(), params, options, {
      context: this.#resultContext(name),
      headerParams: headers,
      taskParams: options.asTask ? this.tasks.taskParams(options.asTask) : undefined,
    });
  }

  /** A liveness check: ping on a legacy connection; 2026-07-28 has no ping, so server/discover stands in. */
  async ping(timeoutMs?: number): Promise<void> {
    await this.request(this.pingMethod, undefined, { timeoutMs: timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS });
  }

  get pingMethod(): "ping" | "server/discover" {
    return this.#session?.info.era === "modern" ? "server/discover" : "ping";
  }

  /** logging/setLevel on a legacy connection; on a modern one the level goes with every later request. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    if (this.#connected().info.era === "modern") {
      this.#logLevel = level;
      return;
    }
    await this.request("logging/setLevel", { level });
  }

  /** Tells the server the roots changed (legacy, with the roots capability); a modern server asks for roots each time it needs them. */
  async sendRootsListChanged(): Promise<void> {
    if (this.#connected().info.era === "modern") return;
    await this.#channel?.notify("notifications/roots/list_changed");
  }

  async close(): Promise<void> {
    this.#subscriptions.stop();
    await this.#session?.client.close();
  }
}
