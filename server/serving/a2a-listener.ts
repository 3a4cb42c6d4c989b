/**
 * The served A2A agent's own HTTP listener, beside the MCP endpoint's and like it: 127.0.0.1
 * only, no token (A2A clients cannot hold Patchbay's), and the same Host and Origin checks, which
 * keep out other machines and hostile web pages (DNS rebinding, cross-site posts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Logger } from "../../src/core/env/environment.ts";
import type { A2aAgent } from "../../src/core/serving/a2a/index.ts";
import { restApp } from "../../src/core/serving/a2a/node/rest-app.ts";
import { A2A_CARD_PATHS, A2A_JSONRPC_PATH, A2A_REST_PATH, answerCard, answerJsonRpc, recordRest, sendJson, type A2aFrameSink, type RouteContext } from "./a2a-routes.ts";
import { mcpHostAllowed, mcpOriginAllowed } from "./host-policy.ts";
import { listenLoopback } from "./loopback-server.ts";

/** The SDK's Streamable HTTP figure, used for A2A bodies too. */
export const DEFAULT_A2A_MAX_BODY = 4 * 1024 * 1024;

const PREFLIGHT = {
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Accept, Authorization, A2A-Version, A2A-Extensions, X-A2A-Extensions, Last-Event-ID",
  "Access-Control-Max-Age": "600",
};

export interface A2aListenerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly logger: Logger;
  readonly maxBodyBytes?: number;
  readonly onFrame?: A2aFrameSink;
}

export interface A2aListener {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly baseUrl: string;
  /** Starts answering for this agent (until then every request gets 503). */
  serve(agent: A2aAgent): void;
  close(): Promise<void>;
}

function corsFor(origin: string | undefined): Record<string, string> {
  return origin === undefined ? {} : { "Access-Control-Allow-Origin": origin, Vary: "Origin", "Access-Control-Expose-Headers": "A2A-Version, A2A-Extensions" };
}

/** A refusal in the shape of the binding asked for: JSON-RPC at its endpoint, an HTTP+JSON error elsewhere. */
function refuse(res: ServerResponse, pathname: string, status: number, message: string, headers: Record<string, string> = {}): void {
  const body =
    pathname === A2A_JSONRPC_PATH
      ? { jsonrpc: "2.0", id: null, error: { code: -32600, message } }
      : { error: { code: status, status: status === 403 ? "PERMISSION_DENIED" : status === 404 ? "NOT_FOUND" : status === 503 ? "UNAVAILABLE" : "INVALID_ARGUMENT", message } };
  sendJson(res, status, body, headers);
}

export async function startA2aListener(options: A2aListenerOptions): Promise<A2aListener> {
  const bound = { port: 0 };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_A2A_MAX_BODY;
  let agent: A2aAgent | undefined;
  let rest: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    const pathname = (req.url ?? "").split("?")[0] ?? "";
    if (!mcpHostAllowed(req.headers.host, bound.port)) {
      options.logger.info("refused an A2A request for a foreign Host", { host: req.headers.host?.slice(0, 100) });
      return refuse(res, pathname, 403, `Forbidden: Host ${JSON.stringify(req.headers.host ?? "")} is not this machine; use http://127.0.0.1:${bound.port}.`);
    }
    if (!mcpOriginAllowed(origin)) return refuse(res, pathname, 403, `Forbidden: Origin ${JSON.stringify(origin)} is not a page on this machine.`);
    const cors = corsFor(origin);
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, ...PREFLIGHT });
      res.end();
      return;
    }
    if (!agent || !rest) return refuse(res, pathname, 503, "The agent is starting; try again in a moment.", cors);
    const ctx: RouteContext = { agent, cors, maxBodyBytes, ...(options.onFrame ? { onFrame: options.onFrame } : {}) };
    if ((A2A_CARD_PATHS as readonly string[]).includes(pathname)) {
      if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, pathname, 405, `Method not allowed: ${req.method} (the card is read with GET).`, { ...cors, Allow: "GET, OPTIONS" });
      return answerCard(req, res, ctx, pathname);
    }
    if (pathname === A2A_JSONRPC_PATH) {
      // The card's url is this endpoint; a GET of it answers with the card, as many agents do.
      if (req.method === "GET") return answerCard(req, res, ctx, pathname);
      if (req.method !== "POST") return refuse(res, pathname, 405, `Method not allowed: ${req.method} (JSON-RPC requests are POSTed).`, { ...cors, Allow: "GET, POST, OPTIONS" });
      return answerJsonRpc(req, res, ctx);
    }
    if (pathname === A2A_REST_PATH || pathname.startsWith(`${A2A_REST_PATH}/`)) {
      for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
      if (options.onFrame) recordRest(req, res, options.onFrame, pathname);
      rest(req, res);
      return;
    }
    refuse(res, pathname, 404, `Not found: the card is at ${A2A_CARD_PATHS[0]}, JSON-RPC at ${A2A_JSONRPC_PATH}, HTTP+JSON under ${A2A_REST_PATH}.`, cors);
  };

  // A missing Host must reach the check above (403), not Node's own 400.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    res.on("finish", () => options.logger.debug(`A2A ${req.method} ${req.url} ${res.statusCode}`));
    handle(req, res).catch((error: unknown) => {
      options.logger.error("A2A request failed", { error: (error as Error).message });
      if (res.headersSent) res.destroy();
      else refuse(res, (req.url ?? "").split("?")[0] ?? "", 500, "Internal error; see Patchbay's log.");
    });
  });
  const listening = await listenLoopback(server, options.port, options.logger, "A2A", '{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"malformed HTTP request"}}');
  bound.port = listening.port;
  return {
    port: bound.port,
    baseUrl: `http://127.0.0.1:${bound.port}`,
    serve(next) {
      agent = next;
      rest = restApp({ handler: next.handler, path: A2A_REST_PATH, maxBodyBytes });
    },
    close: listening.close,
  };
}
