/** The /api/serve/a2a routes: status, start, stop and the served traffic. GET never starts anything. */
import type { Route } from "../http/router.ts";
import type { A2aServeManager } from "./a2a-serve-manager.ts";
import { framePage } from "./frame-page.ts";

export function a2aServeRoutes(manager: A2aServeManager): Route[] {
  return [
    { method: "GET", path: "/api/serve/a2a/status", safe: true, handler: async () => ({ status: 200, body: manager.status() }) },
    {
      method: "POST",
      path: "/api/serve/a2a/start",
      safe: false,
      handler: async (req) => {
        const { status, issues } = await manager.start(await req.json());
        return { status: 200, body: { ...status, issues } };
      },
    },
    { method: "POST", path: "/api/serve/a2a/stop", safe: false, handler: async () => ({ status: 200, body: await manager.stop() }) },
    { method: "GET", path: "/api/serve/a2a/frames", safe: true, handler: async (req) => ({ status: 200, body: framePage(req, manager.frames) }) },
  ];
}
