/** The /api/serve/mcp routes (status, start, stop, the served traffic) and the operator's approvals. GET never starts anything. */
import type { Route } from "../http/router.ts";
import { approvalRoutes } from "./approval-routes.ts";
import { framePage } from "./frame-page.ts";
import type { McpServeManager } from "./serve-manager.ts";

export function serveRoutes(manager: McpServeManager): Route[] {
  return [
    { method: "GET", path: "/api/serve/mcp/status", safe: true, handler: async () => ({ status: 200, body: manager.status() }) },
    {
      method: "POST",
      path: "/api/serve/mcp/start",
      safe: false,
      handler: async (req) => {
        const { status, issues } = await manager.start(await req.json());
        return { status: 200, body: { ...status, issues } };
      },
    },
    { method: "POST", path: "/api/serve/mcp/stop", safe: false, handler: async () => ({ status: 200, body: await manager.stop() }) },
    { method: "GET", path: "/api/serve/mcp/frames", safe: true, handler: async (req) => ({ status: 200, body: framePage(req, manager.frames) }) },
    ...approvalRoutes(manager.approvals),
  ];
}
