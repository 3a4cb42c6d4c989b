/** The /api/harness routes: start a collection run, read its progress, stop it. GET only reads. */
import { HttpError } from "../http/errors.ts";
import type { Route, RouteRequest } from "../http/router.ts";
import type { RunManager } from "./run-manager.ts";

function after(req: RouteRequest): number {
  const raw = req.query?.get("after");
  if (raw === null || raw === undefined || raw === "") return 0;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(400, "bad_query", '"after" must be a whole number of finished steps');
  return Number(raw);
}

export function harnessRoutes(runs: RunManager): Route[] {
  const id = (req: RouteRequest) => req.params.id ?? "";
  return [
    { method: "POST", path: "/api/harness/runs", safe: false, handler: async (req) => ({ status: 200, body: runs.start(await req.json()) }) },
    { method: "GET", path: "/api/harness/runs/:id", safe: true, handler: async (req) => ({ status: 200, body: runs.view(id(req), after(req)) }) },
    { method: "POST", path: "/api/harness/runs/:id/stop", safe: false, handler: async (req) => ({ status: 200, body: runs.stop(id(req)) }) },
  ];
}
