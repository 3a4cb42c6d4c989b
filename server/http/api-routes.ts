/** The /api route table: status, the workspace documents and (when given) the MCP relay. */
import type { BackendStatus } from "../../src/core/backend/backend-client.ts";
import { isJsonObject } from "../../src/core/json/index.ts";
import { DOCUMENT_KINDS, type DocumentKind, type DocumentStore } from "../../src/core/persist/document-store.ts";
import { assertDocumentName, isDocumentKind } from "../../src/core/persist/names.ts";
import type { RelaySessions } from "../mcp/relay-sessions.ts";
import { mcpRoutes } from "../mcp/routes.ts";
import { httpRelayRoutes } from "../relay/http-relay-route.ts";
import { oauthRoutes } from "../oauth/fetch-route.ts";
import { pushReceiverRoutes, type PushReceivers } from "../relay/push-receivers.ts";
import { serveRoutes } from "../serving/routes.ts";
import { serveInfoRoutes } from "../serving/info-routes.ts";
import type { McpServeManager } from "../serving/serve-manager.ts";
import type { NatsServe } from "../serving/nats-serve.ts";
import { natsServeRoutes } from "../serving/nats-routes.ts";
import { a2aServeRoutes } from "../serving/a2a-serve-routes.ts";
import type { A2aServeManager } from "../serving/a2a-serve-manager.ts";
import { conformanceRoutes } from "../harness/conformance-routes.ts";
import type { ConformanceRunner } from "../harness/conformance-runner.ts";
import { harnessRoutes } from "../harness/run-routes.ts";
import type { RunManager } from "../harness/run-manager.ts";
import { canonicalCollection, parseCollection } from "../../src/core/harness/index.ts";
import { documentHttpError } from "./document-errors.ts";
import { HttpError } from "./errors.ts";
import type { Reply, Route, RouteRequest } from "./router.ts";

export interface ApiDeps {
  /** The current status; read-only. */
  readonly status: () => BackendStatus;
  readonly documents: DocumentStore;
  /** The MCP relay's sessions; without it the /api/mcp routes are absent. */
  readonly mcp?: RelaySessions;
  /** Serving the toolkit over MCP; without it the /api/serve/mcp routes are absent. */
  readonly serve?: McpServeManager;
  /** The fisk-ai surface over NATS; without it the /api/serve/nats routes are absent. */
  readonly natsServe?: NatsServe;
  readonly a2aServe?: A2aServeManager;
  /** Collection runs from the page; without it the /api/harness routes are absent. */
  readonly harness?: RunManager;
  /** Conformance runs (MCP suite, A2A TCK) from the page; without it the /api/conformance routes are absent. */
  readonly conformance?: ConformanceRunner;
  /** A2A push notification receivers; without it the /api/a2a/push-receivers routes are absent. */
  readonly push?: PushReceivers;
}

function kindOf(req: RouteRequest): DocumentKind {
  const kind = req.params.kind ?? "";
  if (!isDocumentKind(kind)) {
    throw new HttpError(404, "unknown_kind", `unknown workspace kind ${JSON.stringify(kind)}; expected one of ${DOCUMENT_KINDS.join(", ")}`);
  }
  return kind;
}

function nameOf(req: RouteRequest): string {
  const name = req.params.name ?? "";
  try {
    assertDocumentName(name);
  } catch (err) {
    throw documentHttpError(err);
  }
  return name;
}

async function dataOf(req: RouteRequest): Promise<unknown> {
  const body = await req.json();
  if (!isJsonObject(body) || !("data" in body)) {
    throw new HttpError(400, "invalid_body", 'expected a JSON object of the form {"data": …}');
  }
  return body.data;
}

/**
 * A collection is checked before it is written (every problem named, a literal secret refused)
 * and written in its canonical key order, so the file diffs cleanly in a code review.
 */
function checkedData(kind: DocumentKind, data: unknown): unknown {
  if (kind !== "collections") return data;
  const parsed = parseCollection(data);
  if (parsed.ok) return canonicalCollection(parsed.collection);
  const shown = parsed.problems.slice(0, 20).map((p) => `${p.pointer || "/"}: ${p.message}`);
  const more = parsed.problems.length > shown.length ? `; and ${parsed.problems.length - shown.length} more` : "";
  throw new HttpError(400, "invalid_collection", `the collection is not valid: ${shown.join("; ")}${more}`);
}

/** Run a workspace operation, mapping document errors to HTTP ones. */
async function workspace<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw documentHttpError(err);
  }
}

/** Build the route table over its dependencies. */
export function apiRoutes(deps: ApiDeps): Route[] {
  const { documents } = deps;
  const ok = (body: unknown): Reply => ({ status: 200, body });
  return [
    { method: "GET", path: "/api/status", safe: true, handler: async () => ok(deps.status()) },
    {
      method: "GET",
      path: "/api/workspace/:kind",
      safe: true,
      handler: async (req) => ok({ documents: await workspace(() => documents.list(kindOf(req))) }),
    },
    {
      method: "GET",
      path: "/api/workspace/:kind/:name",
      safe: true,
      handler: async (req) => {
        const kind = kindOf(req);
        const name = nameOf(req);
        const data = await workspace(() => documents.read(kind, name));
        return ok({ kind, name, data });
      },
    },
    {
      method: "PUT",
      path: "/api/workspace/:kind/:name",
      safe: false,
      handler: async (req) => {
        const kind = kindOf(req);
        const name = nameOf(req);
        const data = checkedData(kind, await dataOf(req));
        await workspace(() => documents.write(kind, name, data));
        return ok({ kind, name });
      },
    },
    {
      method: "DELETE",
      path: "/api/workspace/:kind/:name",
      safe: false,
      handler: async (req) => {
        const kind = kindOf(req);
        const name = nameOf(req);
        await workspace(() => documents.remove(kind, name));
        return { status: 204 };
      },
    },
    ...(deps.mcp ? mcpRoutes(deps.mcp) : []),
    ...httpRelayRoutes(),
    ...oauthRoutes(),
    ...(deps.push ? pushReceiverRoutes(deps.push) : []),
    ...(deps.serve ? [...serveRoutes(deps.serve), ...serveInfoRoutes({ workspace: () => deps.status().workspace })] : []),
    ...(deps.natsServe ? natsServeRoutes(deps.natsServe) : []),
    ...(deps.a2aServe ? a2aServeRoutes(deps.a2aServe) : []),
    ...(deps.harness ? harnessRoutes(deps.harness) : []),
    ...(deps.conformance ? conformanceRoutes(deps.conformance) : []),
  ];
}
