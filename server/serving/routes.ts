/** The /api/serve/mcp routes: status, start, stop, and the served traffic. GET never starts anything. */
import { HttpError } from "../http/errors.ts";
import type { Route, RouteRequest } from "../http/router.ts";
import { MAX_PAGE } from "./frame-ring.ts";
import type { McpServeManager } from "./serve-manager.ts";

function count(req: RouteRequest, name: string, fallback: number, max: number): number {
  const raw = req.query?.get(name);
  if (raw === null || raw === undefined || raw === "") return fallback;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) > max) throw new HttpError(400, "bad_query", `"${name}" must be a whole number from 0 to ${max}`);
  return Number(raw);
}

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
    {
      method: "GET",
      path: "/api/serve/mcp/frames",
      safe: true,
      handler: async (req) => ({
        status: 200,
        body: manager.frames.after(count(req, "after", 0, Number.MAX_SAFE_INTEGER), count(req, "limit", MAX_PAGE, MAX_PAGE)),
      }),
    },
  ];
}
