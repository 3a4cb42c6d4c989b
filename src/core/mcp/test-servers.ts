/**
 * Small in-memory MCP servers for the connection's unit tests; imported by tests only. One is a
 * realistic McpServer, the other a low-level Server answering exactly what a test needs.
 */
// The layer rule's "**/server/**" pattern targets the backend; these are the SDK's own server modules.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

/** An McpServer with schema'd tools, a failing tool, a throwing tool, progress, elicitation and logging. */
export function toolServer(): McpServer {
  const server = new McpServer({ name: "test-tools", version: "1.2.3" }, { capabilities: { logging: {} }, instructions: "Use add for sums." });
  server.registerTool("echo", { description: "Echo", inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: "text", text: `Echo: ${message}` }] }));
  server.registerTool(
    "add",
    { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool("fails", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "disk full" }], isError: true }));
  server.registerTool("throws", { inputSchema: {} }, async () => {
    throw new Error("kaboom");
  });
  server.registerTool("slow", { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("hang", { inputSchema: {} }, () => new Promise(() => {}));
  server.registerTool("confirm", { inputSchema: {} }, async () => {
    const answer = await server.server.elicitInput({
      message: "Proceed?",
      requestedSchema: { type: "object", properties: { approve: { type: "boolean" } }, required: ["approve"] },
    });
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.registerTool("shout", { inputSchema: {} }, async () => {
    await server.sendLoggingMessage({ level: "warning", logger: "test", data: "loud" });
    server.sendToolListChanged();
    return { content: [{ type: "text", text: "ok" }] };
  });
  return server;
}

/** What the client-feature server saw of the client: list_changed notices and cancellations. */
export interface ClientFeatureLog {
  rootsChanged: number;
  readonly cancelled: { readonly reason: unknown }[];
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/**
 * An McpServer that exercises the client's side: it asks for sampling and roots, sends progress
 * under whatever token it was given, logs at a chosen level, and records what the client told it.
 */
export function clientFeatureServer(): { server: McpServer; seen: ClientFeatureLog } {
  const seen: ClientFeatureLog = { rootsChanged: 0, cancelled: [] };
  const server = new McpServer({ name: "client-features", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    seen.rootsChanged++;
  });
  server.registerTool("ask-model", { inputSchema: { prompt: z.string() } }, async ({ prompt }) => {
    try {
      const answer = await server.server.createMessage({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        systemPrompt: "Answer briefly.",
        maxTokens: 50,
        modelPreferences: { hints: [{ name: "small" }], speedPriority: 1 },
      });
      return text(JSON.stringify(answer));
    } catch (error) {
      const e = error as { code?: unknown; message: string };
      return text(`refused ${String(e.code)}: ${e.message}`);
    }
  });
  server.registerTool("list-roots", { inputSchema: {} }, async () => text(JSON.stringify(await server.server.listRoots())));
  server.registerTool("count", { inputSchema: { steps: z.number(), withTotal: z.boolean() } }, async ({ steps, withTotal }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps && token !== undefined; i++) {
      const params = { progressToken: token, progress: i * 10, message: `tick ${i}`, ...(withTotal ? { total: steps * 10 } : {}) };
      await extra.sendNotification({ method: "notifications/progress", params });
    }
    return text(`token ${JSON.stringify(token)}`);
  });
  server.registerTool("wait", { inputSchema: {} }, (_args, extra) => {
    return new Promise((resolve) => {
      extra.signal.addEventListener("abort", () => {
        seen.cancelled.push({ reason: extra.signal.reason });
        resolve(text("cancelled"));
      });
    });
  });
  server.registerTool("log", { inputSchema: { level: LoggingLevelSchema, data: z.string() } }, async ({ level, data }) => {
    await server.sendLoggingMessage({ level, logger: "feature-test", data });
    return text("logged");
  });
  return { server, seen };
}

type ToolsCall = { name: string; arguments?: Record<string, unknown> };

/** An error a handler throws so the wire carries exactly this code, message and data (an WireError would prefix its message). */
export class WireError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export interface RawServerOptions {
  /** Pages of tools/list: each page's tools and next cursor. */
  readonly pages?: readonly { readonly tools: readonly Record<string, unknown>[]; readonly nextCursor?: string }[];
  /** The answer to tools/call: a result object, or an WireError to throw. */
  readonly call?: (params: ToolsCall) => Record<string, unknown> | WireError;
  /** Replaces the initialize answer. */
  readonly initialize?: (requested: string) => Record<string, unknown> | WireError;
}

/** A low-level Server whose answers the test dictates. */
export function rawServer(options: RawServerOptions): Server {
  const server = new Server({ name: "raw", version: "0.0.1" }, { capabilities: { tools: {} } });
  const pages = options.pages ?? [{ tools: [] }];
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const index = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
    const page = pages[index];
    if (!page) throw new WireError(-32602, `bad cursor ${request.params?.cursor}`);
    return { tools: page.tools, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) } as never;
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const answer = options.call?.(request.params as ToolsCall) ?? { content: [] };
    if (answer instanceof WireError) throw answer;
    return answer as never;
  });
  const init = options.initialize;
  if (init) {
    server.setRequestHandler(InitializeRequestSchema, async (request) => {
      const answer = init(request.params.protocolVersion);
      if (answer instanceof WireError) throw answer;
      return answer as never;
    });
  }
  return server;
}

/** Connects the server to one end of a linked pair and returns the other end for the client. */
export async function linked(server: McpServer | Server): Promise<InMemoryTransport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientSide;
}

/** A peer that answers each request the client sends with whatever `answer` returns, unchecked. */
export function scriptedPeer(answer: (request: { method: string; params?: unknown }) => Record<string, unknown>): InMemoryTransport {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message) => {
    const m = message as { id?: string | number; method?: string; params?: unknown };
    if (m.id === undefined || m.method === undefined) return;
    void serverSide.send({ jsonrpc: "2.0", id: m.id, ...answer({ method: m.method, params: m.params }) } as JSONRPCMessage);
  };
  void serverSide.start();
  return clientSide;
}

/** The initialize answer of a well-behaved server, for scripted peers. */
export const INITIALIZED = { result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1" } } };
