/**
 * A 2026-07-28 MCP server for the client's tests, on `@modelcontextprotocol/server` 2.4
 * (createMcpHandler, one fresh McpServer per request) over node:http on 127.0.0.1: tools that
 * need input through input_required (elicitation, sampling, roots; a two-step flow with a signed
 * requestState), a long tool that runs as a task of the io.modelcontextprotocol/tasks extension
 * (tasks/get, tasks/update, tasks/cancel kept here, since the SDK has no tasks extension), a tool
 * with an x-mcp-header argument, resources with a template and subscriptions, prompts,
 * completions and logging. Two tools misbehave on purpose: one answers in the legacy shape, one
 * makes a task whose tasks/get answers for another task.
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, createRequestStateCodec, McpServer, ResourceTemplate, completable } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import { installTaskMethods, ModernTasks } from "./modern-mcp-tasks.ts";
import { registerInputTools } from "./modern-mcp-input.ts";

export interface ModernServer {
  readonly url: string;
  readonly port: number;
  /** What the server saw: requests by method with their Mcp-* headers, cancellations. */
  readonly seen: ModernSeen;
  readonly tasks: ModernTasks;
  /** Publishes notifications/resources/updated for `counter://value`. */
  bump(): void;
  close(): Promise<void>;
}

export interface ModernSeen {
  readonly requests: { readonly method: string; readonly headers: Readonly<Record<string, string>>; readonly body: string }[];
  cancelled: number;
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const ITEMS = ["alpha", "beta", "gamma", "delta"];

function build(tasks: ModernTasks, seen: ModernSeen, bump: () => number, stateCodec: ReturnType<typeof createRequestStateCodec<{ step: string }>>, counter: { value: number }): McpServer {
  const server = new McpServer(
    { name: "modern-test", version: "2.0.0" },
    {
      capabilities: { logging: {}, completions: {}, resources: { subscribe: true, listChanged: true }, extensions: { "io.modelcontextprotocol/tasks": {} } },
      instructions: "A 2026-07-28 server for the console's tests.",
      requestState: { verify: stateCodec.verify },
    },
  );
  server.registerTool("echo", { description: "Echo a message", inputSchema: z.object({ message: z.string() }) }, async ({ message }) => text(`Echo: ${message}`));
  server.registerTool(
    "add",
    { description: "Add two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
    async ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "weather",
    { description: "Weather for a city (the city travels as Mcp-Param-City)", inputSchema: z.object({ city: z.string().meta({ "x-mcp-header": "City" }) }) },
    async ({ city }) => text(`${city}: sunny`),
  );
  server.registerTool("slow-count", { description: "Counts with progress; stops when cancelled", inputSchema: z.object({ steps: z.number().int(), delayMs: z.number().int() }) }, async ({ steps, delayMs }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (ctx.mcpReq.signal.aborted) {
        seen.cancelled++;
        return text(`cancelled at ${i}`);
      }
      // Progress after the client went away has nowhere to go; the next step sees the abort.
      if (token !== undefined) await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } }).catch(() => undefined);
    }
    return text(`counted ${steps}`);
  });
  server.registerTool("log", { description: "Logs at a level", inputSchema: z.object({ level: z.enum(["debug", "info", "warning", "error"]), message: z.string() }) }, async ({ level, message }, ctx) => {
    await ctx.mcpReq.log(level, message);
    return text("logged");
  });
  server.registerTool("bump", { description: "Changes counter://value and tells subscribers" }, async () => text(`counter is ${bump()}`));
  server.registerTool("legacy-shape", { description: "Answers in the 2025 shape (no resultType) though the era is 2026-07-28" }, async () => text("unreachable: the front door answers"));
  registerInputTools(server, stateCodec);
  tasks.registerTools(server);
  installTaskMethods(server, tasks);

  server.registerResource("greeting", "note://greeting", { title: "Greeting", mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "Hello from 2026-07-28" }] }));
  server.registerResource("counter", "counter://value", { mimeType: "application/json" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ value: counter.value }) }] }));
  server.registerResource(
    "item",
    new ResourceTemplate("note://items/{id}", {
      list: async () => ({ resources: ITEMS.map((id) => ({ uri: `note://items/${id}`, name: id })) }),
      complete: { id: async (value) => ITEMS.filter((i) => i.startsWith(value)) },
    }),
    { mimeType: "text/plain" },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `item ${String(id)}` }] }),
  );
  server.registerPrompt(
    "greet",
    { description: "Greets someone", argsSchema: z.object({ name: completable(z.string(), (value) => ["Ada", "Alan", "Grace"].filter((n) => n.startsWith(value))) }) },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}` } }] }),
  );
  return server;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The answer the `legacy-shape` tool gets: a CallToolResult without resultType. */
function legacyAnswer(body: string): string | undefined {
  try {
    const m = JSON.parse(body) as { id?: unknown; method?: string; params?: { name?: string } };
    if (m.method === "tools/call" && m.params?.name === "legacy-shape") return JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "2025 shape" }] } });
  } catch {
    // not JSON: the handler names it
  }
  return undefined;
}

/** Starts the server on 127.0.0.1 (port 0 picks a free one); the endpoint is `/mcp`. */
export async function startModernServer(options: { readonly port?: number } = {}): Promise<ModernServer> {
  const seen: ModernSeen = { requests: [], cancelled: 0 };
  const counter = { value: 0 };
  const tasks = new ModernTasks();
  const stateCodec = createRequestStateCodec<{ step: string }>({ key: crypto.getRandomValues(new Uint8Array(32)), ttlSeconds: 600 });
  const bump = () => {
    counter.value++;
    handler.notify.resourceUpdated("counter://value");
    return counter.value;
  };
  const handler = createMcpHandler(() => build(tasks, seen, bump, stateCodec, counter), { legacy: "reject" });
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/mcp") return void res.writeHead(404).end();
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      const textBody = body?.toString("utf8") ?? "";
      if (body) {
        let method = "";
        try {
          method = String((JSON.parse(textBody) as { method?: unknown }).method ?? "");
        } catch {
          method = "";
        }
        seen.requests.push({ method, headers, body: textBody });
      }
      const legacy = legacyAnswer(textBody);
      if (legacy) return void res.writeHead(200, { "content-type": "application/json" }).end(legacy);
      const abort = new AbortController();
      res.on("close", () => abort.abort());
      const request = new Request(url, { method: req.method ?? "GET", headers, ...(body ? { body: new Uint8Array(body) } : {}), signal: abort.signal });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (!response.body) return void res.end();
      const reader = response.body.getReader();
      abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined), { once: true });
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done || res.destroyed) break;
        res.write(value);
      }
      res.end();
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    seen,
    tasks,
    bump() {
      bump();
    },
    async close() {
      tasks.stop();
      await handler.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
