/** /api/serve/approvals: the calls waiting for the operator, and the operator's decision on one. */
import { isJsonObject } from "../../src/core/json/index.ts";
import type { OperatorApprovals } from "../../src/core/serving/mcp/operator-approvals.ts";
import { HttpError } from "../http/errors.ts";
import type { Route } from "../http/router.ts";

/** `{"approve": true|false}` and nothing else. */
function approveOf(body: unknown): boolean {
  if (!isJsonObject(body)) throw new HttpError(400, "invalid_body", 'expected a JSON object of the form {"approve": true} or {"approve": false}');
  const extra = Object.keys(body).find((key) => key !== "approve");
  if (extra !== undefined) throw new HttpError(400, "invalid_body", `unknown field ${JSON.stringify(extra.slice(0, 64))}; expected only "approve"`);
  if (typeof body.approve !== "boolean") throw new HttpError(400, "invalid_body", '"approve" must be true (run the call) or false (refuse it)');
  return body.approve;
}

export function approvalRoutes(approvals: OperatorApprovals): Route[] {
  return [
    { method: "GET", path: "/api/serve/approvals", safe: true, handler: async () => ({ status: 200, body: { approvals: approvals.list() } }) },
    {
      method: "POST",
      path: "/api/serve/approvals/:id",
      safe: false,
      handler: async (req) => {
        const approve = approveOf(await req.json());
        if (!approvals.decide(req.params.id ?? "", approve)) {
          throw new HttpError(404, "unknown_approval", "no call is waiting for approval under that id: it was already decided, it expired, or serving stopped");
        }
        return { status: 200, body: { ok: true } };
      },
    },
  ];
}
