/**
 * The /api/conformance routes: start the MCP conformance suite or the A2A TCK against a URL,
 * read a run (state, output tail, results), stop it. GET only reads: nothing is spawned there.
 */
import type { Route, RouteRequest } from "../http/router.ts";
import type { ConformanceRunner } from "./conformance-runner.ts";

export function conformanceRoutes(runner: ConformanceRunner): Route[] {
  const id = (req: RouteRequest) => req.params.id ?? "";
  return [
    { method: "POST", path: "/api/conformance/mcp", safe: false, handler: async (req) => ({ status: 200, body: await runner.start("mcp", await req.json()) }) },
    { method: "POST", path: "/api/conformance/a2a", safe: false, handler: async (req) => ({ status: 200, body: await runner.start("a2a", await req.json()) }) },
    { method: "GET", path: "/api/conformance/runs", safe: true, handler: async () => ({ status: 200, body: { runs: runner.list() } }) },
    { method: "GET", path: "/api/conformance/runs/:id", safe: true, handler: async (req) => ({ status: 200, body: runner.view(id(req)) }) },
    { method: "POST", path: "/api/conformance/runs/:id/stop", safe: false, handler: async (req) => ({ status: 200, body: runner.stop(id(req)) }) },
  ];
}
