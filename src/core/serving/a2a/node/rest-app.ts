/**
 * The HTTP+JSON binding: the SDK has no framework-free handler for it, so its Express router
 * serves v1.0 (and v0.3 under /v1, through the compatibility layer). Bodies are parsed here first,
 * with our size limit, and every failure, a missing route included, answers as JSON in the
 * error shape of the version the path belongs to.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { RequestMalformedError, toRestErrorBody } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { restHandler, UserBuilder } from "@a2a-js/sdk/server/express";

type Next = (error?: unknown) => void;
type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: Next) => void;
type ErrorMiddleware = (error: unknown, req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** The few members of Express used here (it ships no type declarations). */
interface ExpressApp {
  (req: IncomingMessage, res: ServerResponse): void;
  use(...handlers: unknown[]): void;
  disable(setting: string): void;
}
interface ExpressModule {
  (): ExpressApp;
  json(options: { readonly type: readonly string[]; readonly strict: boolean; readonly limit: number; readonly verify: (req: IncomingMessage, res: ServerResponse, raw: Buffer) => void }): Middleware;
}

/** Each request's body as it came, before the JSON parser saw it, for the traffic record. */
const rawBodies = new WeakMap<IncomingMessage, string>();
export const rawBodyOf = (req: IncomingMessage): string | undefined => rawBodies.get(req);
const keepRaw = (req: IncomingMessage, _res: ServerResponse, raw: Buffer): void => void rawBodies.set(req, raw.toString("utf8"));

const express = createRequire(import.meta.url)("express") as ExpressModule;
const JSON_TYPES = ["application/json", "application/a2a+json"];

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
};

export interface RestAppOptions {
  readonly handler: A2ARequestHandler;
  /** Where the binding is mounted, e.g. /a2a/rest. */
  readonly path: string;
  readonly maxBodyBytes: number;
}

const STATUS_NAMES: Readonly<Record<number, string>> = { 400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 413: "RESOURCE_EXHAUSTED", 500: "INTERNAL" };
/** v0.3's HTTP+JSON errors carry JSON-RPC codes, as the SDK's compatibility layer writes them. */
const LEGACY_CODES: Readonly<Record<number, number>> = { 400: -32602, 404: -32601, 413: -32600, 500: -32603 };

/** An error body in the shape of the version whose path was asked for: v0.3 under /v1, v1.0 (AIP-193) elsewhere. */
function errorBody(legacy: boolean, status: number, message: string, parse = false): unknown {
  if (legacy) return { code: parse ? -32700 : (LEGACY_CODES[status] ?? -32603), message };
  if (status === 400) return toRestErrorBody(new RequestMalformedError(message), 400);
  return { error: { code: status, status: STATUS_NAMES[status] ?? "INTERNAL", message } };
}

/** A Node request listener for everything under `path`. */
export function restApp(options: RestAppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const app = express();
  app.disable("x-powered-by");
  const legacyPrefix = `${options.path}/v1/`;
  // Inside a mounted middleware Express shortens req.url; originalUrl keeps the whole path.
  const pathOf = (req: IncomingMessage) => ((req as { originalUrl?: string }).originalUrl ?? req.url ?? "").split("?")[0] ?? "";
  const isLegacy = (req: IncomingMessage) => pathOf(req).startsWith(legacyPrefix);
  const bodyErrors: ErrorMiddleware = (error, req, res, next) => {
    const legacy = isLegacy(req);
    if (error instanceof SyntaxError) return sendJson(res, 400, errorBody(legacy, 400, `Invalid JSON payload: ${error.message}`, true));
    const status = statusOf(error);
    if (status === 413) return sendJson(res, 413, errorBody(legacy, 413, `The body is larger than the ${options.maxBodyBytes} bytes this agent reads.`));
    if (status === 400 || status === 415) return sendJson(res, 400, errorBody(legacy, 400, (error as Error).message));
    next(error);
  };
  app.use(options.path, express.json({ type: JSON_TYPES, strict: false, limit: options.maxBodyBytes, verify: keepRaw }), bodyErrors);
  app.use(options.path, restHandler({ requestHandler: options.handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  const notFound: Middleware = (req, res) => {
    const message = `No HTTP+JSON route for ${req.method} ${pathOf(req)}.`;
    sendJson(res, 404, errorBody(isLegacy(req), 404, message));
  };
  const failed: ErrorMiddleware = (error, req, res) => {
    const status = statusOf(error) ?? 500;
    const message = status === 500 ? "Internal error." : (error as Error).message;
    sendJson(res, status, errorBody(isLegacy(req), status, message));
  };
  app.use(notFound);
  app.use(failed);
  return (req, res) => app(req, res);
}
