/** `?after=N&limit=M` over a frame ring, shared by the MCP and NATS traffic routes. */
import { HttpError } from "../http/errors.ts";
import type { RouteRequest } from "../http/router.ts";
import { MAX_PAGE, type FramePage, type FrameRing } from "./frame-ring.ts";

function count(req: RouteRequest, name: string, fallback: number, max: number): number {
  const raw = req.query?.get(name);
  if (raw === null || raw === undefined || raw === "") return fallback;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) > max) throw new HttpError(400, "bad_query", `"${name}" must be a whole number from 0 to ${max}`);
  return Number(raw);
}

/** The page the query asks for; 400 for a malformed `after` or `limit`. */
export function framePage(req: RouteRequest, ring: FrameRing): FramePage {
  return ring.after(count(req, "after", 0, Number.MAX_SAFE_INTEGER), count(req, "limit", MAX_PAGE, MAX_PAGE));
}
