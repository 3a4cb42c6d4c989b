/**
 * One long-lived MCP connection (stdio, or an in-memory pair in tests) served in whichever era
 * the client opens with: an initialize pins a legacy session, a request with a `_meta` envelope
 * the modern era; the SDK's serveStdio entry decides, once per connection.
 */
import type { Server, Transport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createMcpServer } from "./server-factory.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { McpEra } from "./session-state.ts";

let connections = 0;

/** Tells a modern instance's subscriptions/listen streams when a fixture announces a list change. */
function announceChanges(ctx: McpServingContext, server: Server): void {
  const off = ctx.changes.on((kind) => {
    const sent = kind === "tools" ? server.sendToolListChanged() : kind === "prompts" ? server.sendPromptListChanged() : server.sendResourceListChanged();
    void Promise.resolve(sent).catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    off();
    previous?.();
  };
}

export interface ConnectionServing {
  /** Whose tasks the connection sees. */
  readonly owner: string;
  close(): Promise<void>;
}

/** Serves the connection until the transport closes or `close` is called; its tasks end with it. */
export function serveConnection(ctx: McpServingContext, transport: Transport, label = "connection"): ConnectionServing {
  const owner = `${label}:${++connections}`;
  const factory = ({ era }: { era: McpEra }) => {
    const server = createMcpServer(ctx, era, owner);
    // Legacy connections hear list changes only of bridged agents' tools; the fixtures announce their own.
    if (era === "modern" || ctx.bridge) announceChanges(ctx, server);
    if (era === "legacy") server.oninitialized = () => ctx.logger.info(`MCP client connected over ${label}`, { client: server.getClientVersion()?.name });
    return server;
  };
  const handle = serveStdio(factory, { transport, onerror: (error) => ctx.logger.debug(`MCP ${label} error`, { error: error.message }) });
  return {
    owner,
    async close() {
      await handle.close();
      ctx.tasks.cancelOwned(owner);
    },
  };
}
