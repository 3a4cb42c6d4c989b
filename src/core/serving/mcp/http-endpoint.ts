/**
 * One served agent's Streamable HTTP endpoint, for both eras. Each request is classified the way
 * the SDK classifies it (`isLegacyRequest`): legacy traffic (initialize, session requests, GET and
 * DELETE) goes to the sessions, each with its own server; modern traffic (a `_meta` envelope on
 * the request) to the SDK's per-request handler, one fresh server per request. Every frame is
 * recorded: bodies as they came, answers as they leave.
 */
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from "@modelcontextprotocol/server";
import { isJsonObject } from "../../json/index.ts";
import { McpHttpSessions, rpcErrorResponse, type HttpSessionsOptions, type RequestBody } from "./http-sessions.ts";
import { HEADER_MISMATCH, mcpParamProblem } from "./mcp-param-headers.ts";
import type { FrameDirection } from "./recording-transport.ts";
import { tapResponseFrames } from "./response-frames.ts";
import { createMcpServer } from "./server-factory.ts";
import type { McpServingContext } from "./serving-context.ts";
import { MODERN_VERSION, SessionState } from "./session-state.ts";
import { findTool } from "./tool-call.ts";

/** Modern requests carry no session: their tasks are anyone's who holds the task id. */
export const MODERN_OWNER = "modern";

export class McpHttpEndpoint {
  readonly #ctx: McpServingContext;
  readonly #options: HttpSessionsOptions;
  readonly #sessions: McpHttpSessions;
  readonly #modern: McpHttpHandler;
  readonly #lookup: SessionState;
  readonly #unsubscribe: () => void;
  #closed = false;

  constructor(options: HttpSessionsOptions) {
    const ctx = options.context;
    this.#ctx = ctx;
    this.#options = options;
    this.#sessions = new McpHttpSessions(options);
    this.#lookup = new SessionState("modern", () => MODERN_VERSION, MODERN_OWNER);
    this.#modern = createMcpHandler(() => createMcpServer(ctx, "modern", MODERN_OWNER), {
      legacy: "reject",
      onerror: (error) => ctx.logger.debug("MCP request refused or failed", { error: error.message }),
    });
    this.#unsubscribe = ctx.changes.on((kind) => {
      if (kind === "tools") void this.#modern.notify.toolsChanged();
      else if (kind === "prompts") void this.#modern.notify.promptsChanged();
      else void this.#modern.notify.resourcesChanged();
    });
  }

  /** Legacy sessions open now. */
  get size(): number {
    return this.#sessions.size;
  }

  #record(direction: FrameDirection, text: string, session: string | undefined): void {
    this.#options.onFrame?.(session === undefined ? { direction, text } : { direction, text, session });
  }

  #refuse(status: number, code: number, message: string, id: unknown, session: string | undefined): Response {
    const echoed = typeof id === "string" || typeof id === "number" ? id : null;
    const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: echoed });
    this.#record("out", text, session);
    return new Response(text, { status, headers: { "Content-Type": "application/json" } });
  }

  async handle(request: Request, body?: RequestBody): Promise<Response> {
    const session = request.headers.get("mcp-session-id") ?? undefined;
    if (body) this.#record("in", body.text, session);
    if (this.#closed) return this.#refuse(503, -32000, "The MCP endpoint is stopping.", undefined, session);
    // JSON-RPC: an empty batch is an invalid request, not "nothing to answer".
    if (Array.isArray(body?.value) && body.value.length === 0) return this.#refuse(400, -32600, "Invalid Request: the batch is empty.", undefined, session);
    if (!body || (await isLegacyRequest(request, body.value))) return this.#sessions.handle(request, body);
    const problem = this.#paramProblem(request, body.value);
    if (problem) return this.#refuse(400, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${problem}.`, (body.value as { id?: unknown }).id, undefined);
    let response: Response;
    try {
      response = await this.#modern.fetch(request, { parsedBody: body.value });
    } catch (error) {
      this.#ctx.logger.error("MCP request failed", { error: (error as Error).message });
      return this.#refuse(500, -32603, "Internal error; see Patchbay's log.", (body.value as { id?: unknown }).id, undefined);
    }
    return tapResponseFrames(response, (text) => this.#record("out", text, undefined));
  }

  /** `Mcp-Param-*` headers that disagree with a tools/call's arguments (SEP-2243). */
  #paramProblem(request: Request, message: unknown): string | undefined {
    if (!isJsonObject(message) || message.method !== "tools/call" || !isJsonObject(message.params)) return undefined;
    const name = message.params.name;
    const served = typeof name === "string" ? findTool(this.#ctx, this.#lookup, name) : undefined;
    if (!served) return undefined;
    const schema = served.kind === "toolkit" ? served.tool.inputSchema : served.fixture.tool.inputSchema;
    return mcpParamProblem(schema, message.params.arguments, request.headers);
  }

  /** Ends every session and request and cancels every live task; later requests are refused. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    await this.#sessions.closeAll();
    await this.#modern.close();
    this.#ctx.tasks.cancelAll();
  }
}

export { rpcErrorResponse };
