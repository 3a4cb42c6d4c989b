import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ClientRequest,
  EmptyResultSchema,
  InitializeResultSchema,
  LATEST_PROTOCOL_VERSION,
  type LoggingLevel,
  ResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { TypedEventTarget } from "../events/typed-event-target.ts";
import { learnTools, type ToolSchemas } from "../packs/mcp/tool-checks.ts";
import { SchemaCompiler } from "../schema/compiler.ts";
import { outcomeFromError, outcomeFromResult } from "./call-outcome.ts";
import { clientCapabilities, installHandlers, installNotifications } from "./client-handlers.ts";
import { classifyConnectFailure, McpConnectError, VersionRefusedError } from "./connect-failure.ts";
import type { CallOptions, CallOutcome, ConnectOptions, ConnectResult, ListName, McpConnectionEvents } from "./connection-types.ts";
import { listAll } from "./paginate.ts";
import { RelayError } from "./relay-error.ts";
import { McpRequestError, requestFailure, type RequestOptions } from "./request-failure.ts";
import { SkipInitialize } from "./skip-initialize.ts";

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What a completion is for: a prompt by name, or a resource template by its URI template. */
export type CompletionRef = { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string };

/** Relay steps that mean the server cannot be reached; they end a connect attempt at once. */
const FATAL_RELAY_STEPS = new Set(["spawn", "dns", "tcp", "tls", "cors", "http", "not-mcp"]);

/**
 * One MCP session over any SDK transport: initialize with a chosen version, lists followed across
 * pages, tool calls whose outcome is named precisely, and server notifications as events.
 */
export class McpConnection extends TypedEventTarget<McpConnectionEvents> {
  readonly #compiler: SchemaCompiler;
  #client: Client | undefined;
  #info: ConnectResult | undefined;
  #failConnect: ((error: Error) => void) | undefined;
  #closed = false;
  readonly #tools = new Map<string, ToolSchemas>();

  constructor(options: { readonly compiler?: SchemaCompiler } = {}) {
    super();
    this.#compiler = options.compiler ?? new SchemaCompiler();
  }

  /** What initialize established, once connected. */
  get info(): ConnectResult | undefined {
    return this.#info;
  }

  async connect(transport: Transport, options: ConnectOptions): Promise<ConnectResult> {
    if (this.#client) throw new Error("McpConnection is already connected; use a new one per session");
    const capabilities = clientCapabilities(options.capabilities);
    const client = new Client(options.clientInfo, { capabilities });
    this.#client = client;
    installHandlers(client, options.capabilities, options.handlers);
    installNotifications(client, (type, detail) => this.emit(type, detail));
    const failed = new Promise<never>((_, reject) => (this.#failConnect = reject));
    failed.catch(() => {});
    // What the server said that is not JSON-RPC, if anything: the likeliest reason it never answered.
    let notJsonRpc: RelayError | undefined;
    client.onerror = (error) => {
      if (error instanceof RelayError && FATAL_RELAY_STEPS.has(error.step)) this.#failConnect?.(error);
      if (error instanceof RelayError && error.step === "protocol" && !this.#info) notJsonRpc ??= error;
      this.emit("error", error);
    };
    client.onclose = () => {
      if (this.#closed) return;
      this.#closed = true;
      this.emit("close", undefined);
    };
    const requestedVersion = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
    try {
      await Promise.race([client.connect(new SkipInitialize(transport)), failed]);
      const raw = await Promise.race([
        client.request(
          { method: "initialize", params: { protocolVersion: requestedVersion, capabilities, clientInfo: options.clientInfo } } as ClientRequest,
          ResultSchema,
          { timeout: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS },
        ),
        failed,
      ]);
      const parsed = InitializeResultSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`the initialize result is malformed: ${parsed.error.message}\n${JSON.stringify(raw)}`);
      const negotiated = parsed.data.protocolVersion;
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated)) {
        throw new VersionRefusedError(
          `the server answered with protocol version ${negotiated}, which this client does not speak (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
          JSON.stringify(raw),
        );
      }
      transport.setProtocolVersion?.(negotiated);
      await client.notification({ method: "notifications/initialized" });
      this.#info = {
        serverInfo: parsed.data.serverInfo,
        capabilities: parsed.data.capabilities,
        instructions: parsed.data.instructions,
        requestedVersion,
        negotiatedVersion: negotiated,
        raw: raw as Record<string, unknown>,
      };
      return this.#info;
    } catch (error) {
      const closedReason = (transport as { closedReason?: unknown }).closedReason;
      await client.close().catch(() => {});
      throw new McpConnectError(classifyConnectFailure(error, typeof closedReason === "string" ? closedReason : undefined, notJsonRpc?.message));
    } finally {
      this.#failConnect = undefined;
    }
  }

  #connected(): { client: Client; info: ConnectResult } {
    if (!this.#client || !this.#info) throw new Error("McpConnection is not connected");
    return { client: this.#client, info: this.#info };
  }

  /**
   * One request whose result comes back loose, as received. Whatever keeps it from producing a
   * result is thrown as an McpRequestError naming the method and why.
   */
  async #request(method: string, params: Record<string, unknown> | undefined, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    const { client } = this.#connected();
    if (this.#closed) throw new McpRequestError(method, "connection-closed", `${method} was not sent: the connection is closed`);
    try {
      const result = await client.request({ method, params } as ClientRequest, ResultSchema, {
        timeout: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return result as Record<string, unknown>;
    } catch (error) {
      throw requestFailure(method, error, options.signal);
    }
  }

  /** Any request by method (params left off when undefined); the result as received, or an McpRequestError. */
  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#request(method, params, options);
  }

  /** Every item of a list, across pages (each page within the time limit). Tools listed here are what callTool checks results against. */
  async list(list: ListName, options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    const items = await listAll(list, (method, params) => this.#request(method, params, options));
    if (list === "tools") {
      this.#tools.clear();
      learnTools({ tools: items }, this.#tools);
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

  /** resources/read: the result as received (its `contents` hold text or base64 blobs). */
  readResource(uri: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#request("resources/read", { uri }, options);
  }

  /** prompts/get with the prompt's arguments (strings, as the protocol defines them); the result as received. */
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#request("prompts/get", { name, ...(args !== undefined ? { arguments: args } : {}) }, options);
  }

  /** Asks for notifications/resources/updated about `uri` (they arrive as `resource-updated` events). */
  subscribeResource(uri: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#request("resources/subscribe", { uri }, options);
  }

  unsubscribeResource(uri: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#request("resources/unsubscribe", { uri }, options);
  }

  /** completion/complete: suggestions for one argument of a prompt or resource template; the result as received. */
  complete(ref: CompletionRef, argument: { readonly name: string; readonly value: string }, context?: Readonly<Record<string, string>>, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#request("completion/complete", { ref, argument, ...(context !== undefined ? { context: { arguments: context } } : {}) }, options);
  }

  /** Calls a tool; never throws for anything the server or the wait can cause. */
  async callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallOutcome> {
    const { client, info } = this.#connected();
    if (this.#closed) return { kind: "connection-closed", message: "the connection is closed" };
    const params = { name, ...(args !== undefined ? { arguments: args } : {}), ...(options.meta ? { _meta: options.meta } : {}) };
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    let result: unknown;
    try {
      result = await client.request({ method: "tools/call", params } as ClientRequest, ResultSchema, {
        timeout: timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: true } : {}),
      });
    } catch (error) {
      return outcomeFromError(error, options.signal);
    }
    return outcomeFromResult(result, { toolName: name, tool: this.#tools.get(name), compiler: this.#compiler, negotiatedVersion: info.negotiatedVersion });
  }

  async ping(timeoutMs?: number): Promise<void> {
    await this.#connected().client.request({ method: "ping" }, EmptyResultSchema, { timeout: timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS });
  }

  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    await this.#connected().client.request({ method: "logging/setLevel", params: { level } }, EmptyResultSchema);
  }

  /** Tells the server the roots changed (needs the roots capability). */
  async sendRootsListChanged(): Promise<void> {
    await this.#connected().client.sendRootsListChanged();
  }

  async close(): Promise<void> {
    await this.#client?.close();
  }
}
