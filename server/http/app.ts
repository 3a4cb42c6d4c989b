/**
 * The backend's HTTP server: Host and Origin checks on every request, token-guarded /api routes,
 * the token hand-off page and the built SPA's static files.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../src/core/env/environment.ts";
import { errorBody, HttpError, toHttpError } from "./errors.ts";
import { applyBaseHeaders, BASE_HEADERS, sendJson } from "./headers.ts";
import { serveIndex } from "./index-page.ts";
import { readBody, readJsonBody } from "./json-body.ts";
import { originPolicy, type OriginPolicy } from "./origin-policy.ts";
import { createRouter, type Route, type Router } from "./router.ts";
import { resolveAsset, sendFile } from "./static-files.ts";
import { serveOAuthCallback } from "../oauth/callback-page.ts";
import { bearerToken, tokenMatches } from "./token.ts";

export interface HttpAppOptions {
  readonly token: string;
  readonly logger: Logger;
  /** The built SPA (index.html and assets/). */
  readonly distDir: string;
  readonly maxBodyBytes: number;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly exposed: boolean;
  readonly allowOrigins: readonly string[];
  readonly interfaceAddresses?: readonly string[];
  readonly routes: readonly Route[];
  /** Paths under `prefix` that outside callers (an agent's push notifications) reach without the launch token; `handle` guards them itself. */
  readonly hooks?: { readonly prefix: string; handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> };
}

export interface HttpApp {
  readonly port: number;
  readonly host: string;
  readonly policy: OriginPolicy;
  readonly server: Server;
  close(): Promise<void>;
}

interface Handler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
}

interface Target {
  /** The path exactly as sent: not normalized, so '..' reaches the checks that refuse it. */
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

function requestTarget(req: IncomingMessage): Target {
  const raw = req.url ?? "";
  // Only origin-form targets; "//x" or absolute URLs would otherwise be read as a host.
  if (!raw.startsWith("/") || raw.startsWith("//")) {
    throw new HttpError(400, "bad_request", "request target must be a path starting with a single '/'");
  }
  const q = raw.indexOf("?");
  return q < 0
    ? { pathname: raw, searchParams: new URLSearchParams() }
    : { pathname: raw.slice(0, q), searchParams: new URLSearchParams(raw.slice(q + 1)) };
}

function buildHandler(options: HttpAppOptions, router: Router, policy: () => OriginPolicy, port: () => number): Handler {
  const { token, distDir, maxBodyBytes } = options;
  // Resolved once it exists (the app may be built after the server starts), not per request.
  let indexFile: string | null = null;
  const isIndex = async (file: string): Promise<boolean> => {
    indexFile ??= await resolveAsset(distDir, "/index.html");
    return file === indexFile;
  };

  async function api(req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
    if (!tokenMatches(token, bearerToken(req.headers.authorization))) {
      throw new HttpError(401, "unauthorized", "missing or invalid access token: send 'Authorization: Bearer <token>'", {
        "WWW-Authenticate": 'Bearer realm="patchbay"',
      });
    }
    const match = router.match(req.method ?? "", pathname);
    if (match.kind === "none") throw new HttpError(404, "not_found", `no API route ${req.method} ${pathname}`);
    if (match.kind === "wrong_method") {
      const allow = match.allow.join(", ");
      throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed on ${pathname}; use ${allow}`, { Allow: allow });
    }
    const reply = await match.route.handler({
      params: match.params,
      query,
      headers: req.headers,
      json: () => readJsonBody(req, maxBodyBytes),
      raw: () => readBody(req, maxBodyBytes),
    });
    if (reply.stream) {
      reply.stream(res);
      return;
    }
    if (reply.status === 204) {
      res.writeHead(204, { "Cache-Control": "no-store" });
      res.end();
      return;
    }
    sendJson(res, reply.status, reply.body ?? null);
  }

  async function site(req: IncomingMessage, res: ServerResponse, url: Target): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed on ${url.pathname}; use GET`, { Allow: "GET, HEAD" });
    }
    const indexOptions = { token, port: port(), distDir };
    if (url.pathname === "/" || url.pathname === "/index.html") return serveIndex(req, res, url.searchParams, indexOptions);
    // The OAuth redirect URI: a static page, no token (the authorization server's redirect brings no header).
    if (serveOAuthCallback(req, res, url.pathname)) return;
    const file = await resolveAsset(distDir, url.pathname);
    if (file === null) throw new HttpError(404, "not_found", `nothing at ${url.pathname}`);
    if (await isIndex(file)) return serveIndex(req, res, url.searchParams, indexOptions);
    await sendFile(res, file, url.pathname, req.method === "HEAD");
  }

  return async (req, res) => {
    applyBaseHeaders(res);
    const hostHeader = req.headers.host;
    if (!policy().hostAllowed(hostHeader)) {
      const shown = hostHeader === undefined ? "missing Host header" : `Host ${JSON.stringify(hostHeader)}`;
      throw new HttpError(403, "forbidden_host", `${shown} is not allowed; open Patchbay through 127.0.0.1 or localhost`);
    }
    const origin = req.headers.origin;
    if (!policy().originAllowed(origin)) {
      throw new HttpError(403, "forbidden_origin", `Origin ${JSON.stringify(origin)} is not allowed (use --allow-origin to add one)`);
    }
    const url = requestTarget(req);
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) await api(req, res, url.pathname, url.searchParams);
    else if (options.hooks && url.pathname.startsWith(options.hooks.prefix)) await options.hooks.handle(req, res, url.pathname);
    else await site(req, res, url);
  };
}

function rawBadRequest(message: string): string {
  const body = JSON.stringify(errorBody("bad_request", message));
  const headers = Object.entries(BASE_HEADERS).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return (
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n${headers}Connection: close\r\n\r\n${body}`
  );
}

function pathForLog(req: IncomingMessage): string {
  // Never the query: the hand-off URL carries the token there.
  const raw = req.url ?? "";
  const q = raw.indexOf("?");
  return (q < 0 ? raw : raw.slice(0, q)).slice(0, 200);
}

/** Start listening; rejects with the listen error (e.g. EADDRINUSE) when the port is taken. */
export async function startHttpServer(options: HttpAppOptions): Promise<HttpApp> {
  const router = createRouter(options.routes);
  const { logger } = options;
  // Known only once listening (port 0 picks one); no request can arrive before that.
  const bound: { port: number; policy?: OriginPolicy } = { port: 0 };
  const handle = buildHandler(options, router, () => bound.policy!, () => bound.port);

  // A missing Host must reach our policy (403 JSON), not Node's built-in 400.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    res.on("finish", () => {
      const line = `${req.method} ${pathForLog(req)} ${res.statusCode}`;
      if (res.statusCode >= 500) logger.warn(line);
      else if (res.statusCode >= 400) logger.info(line);
      else logger.debug(line);
    });
    handle(req, res).catch((err: unknown) => {
      const httpErr = toHttpError(err);
      if (httpErr.status === 500 && !(err instanceof HttpError)) {
        logger.error("request failed", { method: req.method, path: pathForLog(req), error: (err as Error)?.message });
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // After a 413 the rest of the body is not read: close the connection instead.
      const extra: Record<string, string> = httpErr.status === 413 ? { ...httpErr.headers, Connection: "close" } : { ...httpErr.headers };
      sendJson(res, httpErr.status, errorBody(httpErr.code, httpErr.message), extra);
      if (httpErr.status === 413) res.on("finish", () => req.socket.destroySoon());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: options.host, port: options.port }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  bound.port = (server.address() as AddressInfo).port;
  const policy = originPolicy({
    port: bound.port,
    boundHost: options.host,
    exposed: options.exposed,
    allowOrigins: options.allowOrigins,
    ...(options.interfaceAddresses ? { interfaceAddresses: options.interfaceAddresses } : {}),
  });
  bound.policy = policy;
  server.on("error", (err) => logger.error("http server error", { error: err.message }));
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    // Unparseable requests still get the JSON error shape and the base headers.
    if (socket.writable && err.code !== "ECONNRESET") socket.end(rawBadRequest("malformed HTTP request"));
    else socket.destroy();
  });

  return {
    port: bound.port,
    host: options.host,
    policy,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

