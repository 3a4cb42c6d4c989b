/** The /api/mcp routes: create, stream, send to, close and list relay sessions. */
import type { ServerResponse } from "node:http";
import { HttpError } from "../http/errors.ts";
import type { Reply, Route, RouteRequest } from "../http/router.ts";
import { SessionClosedError } from "./relay-peer.ts";
import type { RelaySession, RelaySessions } from "./relay-sessions.ts";
import { parseSessionSpec } from "./session-spec.ts";
import { forwardedHeaders } from "./forwarded-headers.ts";

function sessionOf(sessions: RelaySessions, req: RouteRequest): RelaySession {
  const id = req.params.id ?? "";
  const session = sessions.get(id);
  if (session === undefined) throw new HttpError(404, "unknown_session", `no MCP relay session ${JSON.stringify(id)}`);
  return session;
}

async function rawBody(req: RouteRequest): Promise<Buffer> {
  if (req.raw === undefined) throw new Error("this HTTP layer does not hand routes the raw body");
  const bytes = await req.raw();
  if (bytes.length === 0) throw new HttpError(400, "empty_message", "the message body is empty; send one JSON-RPC message or batch as text");
  return bytes;
}

function streamReply(session: RelaySession): Reply {
  const claim = session.events.claim();
  if (claim === null) throw new HttpError(409, "stream_taken", `session ${session.id} already has a reader; only one stream per session at a time`);
  return {
    status: 200,
    stream(res: ServerResponse) {
      res.writeHead(200, { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
      res.flushHeaders();
      res.once("close", () => claim.release());
      claim.start({ write: (chunk) => res.write(chunk), end: () => res.end(), once: (event, listener) => res.once(event, listener) });
    },
  };
}

export function mcpRoutes(sessions: RelaySessions): Route[] {
  return [
    {
      method: "GET",
      path: "/api/mcp/sessions",
      safe: true,
      handler: async () => ({ status: 200, body: { sessions: sessions.list() } }),
    },
    {
      method: "POST",
      path: "/api/mcp/sessions",
      safe: false,
      handler: async (req) => {
        const spec = parseSessionSpec(await req.json());
        const session = await sessions.create(spec);
        const { id, transport, pid } = session.info();
        return { status: 201, body: { id, transport, ...(pid !== undefined ? { pid } : {}) } };
      },
    },
    {
      method: "POST",
      path: "/api/mcp/sessions/:id/stream",
      safe: false,
      handler: async (req) => streamReply(sessionOf(sessions, req)),
    },
    {
      method: "POST",
      path: "/api/mcp/sessions/:id/messages",
      safe: false,
      handler: async (req) => {
        const session = sessionOf(sessions, req);
        const headers = forwardedHeaders(req.headers);
        const bytes = await rawBody(req);
        if (!session.info().open) throw new HttpError(409, "session_closed", `session ${session.id} is closed`);
        try {
          await session.send(bytes, headers);
        } catch (err) {
          if (err instanceof SessionClosedError) throw new HttpError(409, "session_closed", `session ${session.id} is closed: ${err.message}`);
          throw err;
        }
        return { status: 202, body: { accepted: true } };
      },
    },
    {
      method: "POST",
      path: "/api/mcp/sessions/:id/abort",
      safe: false,
      handler: async (req) => {
        const session = sessionOf(sessions, req);
        const body = await req.json();
        const id = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { requestId?: unknown }).requestId : undefined;
        if (typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) {
          throw new HttpError(400, "bad_request", 'send {"requestId": <the JSON-RPC id of the request to cancel>}');
        }
        const aborted = session.abort(id);
        if (aborted === undefined) {
          throw new HttpError(409, "no_request_streams", `session ${session.id} does not carry each request in its own HTTP request (${session.info().transport}); cancel with notifications/cancelled instead`);
        }
        return { status: 200, body: { aborted } };
      },
    },
    {
      method: "POST",
      path: "/api/mcp/sessions/:id/close",
      safe: false,
      handler: async (req) => {
        await sessionOf(sessions, req).close();
        return { status: 200, body: { closed: true } };
      },
    },
  ];
}
