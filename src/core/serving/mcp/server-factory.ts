import { type CacheHint, Server, type ServerCapabilities } from "@modelcontextprotocol/server";
import { registerFixtureHandlers } from "./fixtures/index.ts";
import type { McpServingContext } from "./serving-context.ts";
import { type McpEra, SessionState } from "./session-state.ts";
import { registerTaskHandlers } from "./task-handlers.ts";
import { TASKS_EXTENSION } from "./task-wire.ts";
import { callTool } from "./tool-call.ts";
import { listTools, servesTasks } from "./tool-listing.ts";

/** Where modern clients may cache: the fixed lists and resources longer, tools and prompts not at all (they can change). */
const CACHE_HINTS: Partial<Record<string, CacheHint>> = {
  "server/discover": { ttlMs: 60_000, cacheScope: "public" },
  "resources/templates/list": { ttlMs: 300_000, cacheScope: "public" },
  "resources/list": { ttlMs: 60_000, cacheScope: "public" },
  "resources/read": { ttlMs: 60_000, cacheScope: "public" },
};

function capabilities(ctx: McpServingContext, session: SessionState): ServerCapabilities {
  const legacy = session.era === "legacy";
  const tasks = servesTasks(ctx, session);
  return {
    tools: { listChanged: ctx.fixtures || ctx.bridge !== undefined },
    logging: {},
    ...(ctx.fixtures
      ? { resources: { subscribe: legacy, listChanged: false }, prompts: { listChanged: !legacy }, completions: {} }
      : {}),
    ...(tasks && legacy ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
    ...(tasks && !legacy ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
}

/**
 * A fresh low-level SDK `Server` (never shared): for one legacy session, or one modern request
 * (HTTP) or connection (stdio), answering from the shared context. `owner` scopes the tasks the
 * instance sees. The low-level server sends each tool's input schema exactly as written.
 */
export function createMcpServer(ctx: McpServingContext, era: McpEra, owner: string): Server {
  const instructions = ctx.toolkit.instructions ?? (ctx.toolkit.description || undefined);
  const made: { server?: Server } = {};
  const session = new SessionState(era, () => made.server?.getNegotiatedProtocolVersion(), owner);
  const self = new Server(ctx.serverInfo, {
    capabilities: capabilities(ctx, session),
    ...(instructions ? { instructions } : {}),
    ...(era === "modern" ? { cacheHints: CACHE_HINTS } : {}),
  });
  made.server = self;
  self.setRequestHandler("tools/list", async () => {
    // Bridged agents are asked again, so their tools come and go with them.
    if (ctx.bridge) await ctx.bridge.refresh();
    return { tools: listTools(ctx, session) };
  });
  self.setRequestHandler("tools/call", (request, call) => callTool(ctx, self, session, request, call) as never);
  if (servesTasks(ctx, session)) registerTaskHandlers(self, ctx, session);
  if (ctx.fixtures) registerFixtureHandlers(self, ctx, session);
  self.onerror = (error) => ctx.logger.debug("MCP server error", { error: error.message });
  return self;
}
