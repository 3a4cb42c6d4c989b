import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema, type ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { FIXTURE_CAPABILITIES, registerFixtureHandlers } from "./fixtures/index.ts";
import { trackNegotiatedVersion } from "./negotiated-version.ts";
import type { McpServingContext } from "./serving-context.ts";
import { SessionState } from "./session-state.ts";
import { callTool } from "./tool-call.ts";
import { listTools } from "./tool-listing.ts";

/**
 * A fresh low-level SDK `Server` for one session (never shared between sessions), answering from
 * the shared context. The low-level server sends each tool's input schema exactly as written.
 */
export function createMcpServer(ctx: McpServingContext): Server {
  const capabilities: ServerCapabilities = {
    tools: { listChanged: ctx.fixtures },
    logging: {},
    ...(ctx.fixtures ? FIXTURE_CAPABILITIES : {}),
  };
  const instructions = ctx.toolkit.instructions ?? (ctx.toolkit.description || undefined);
  const server = new Server(ctx.serverInfo, { capabilities, ...(instructions ? { instructions } : {}) });
  const session = new SessionState();
  trackNegotiatedVersion(server, session);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(ctx, session) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(ctx, server, session, request, extra));
  // Replaces the SDK's own handler: the level is kept per session so log notifications can go
  // out on the calling request's stream and still honour it.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    session.logLevel = request.params.level;
    return {};
  });
  if (ctx.fixtures) registerFixtureHandlers(server, session);
  server.onerror = (error) => ctx.logger.debug("MCP session error", { error: error.message });
  return server;
}
