/**
 * The served A2A agent's HTTP answers: the card, the JSON-RPC binding (read, checked and
 * answered here, streams written as SSE) and the HTTP+JSON binding (core's Express app, its
 * traffic recorded on the way through).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { A2aAgent } from "../../src/core/serving/a2a/index.ts";
import { rawBodyOf } from "../../src/core/serving/a2a/node/rest-app.ts";
import { HttpError } from "../http/errors.ts";
import { readBody } from "../http/json-body.ts";

// Kept in the light start-options module so the help text and `patchbay start` need not load the SDK.
export { DEFAULT_A2A_PORT } from "./a2a-start-options.ts";
export const A2A_CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json"] as const;
export const A2A_JSONRPC_PATH = "/a2a/jsonrpc";
export const A2A_REST_PATH = "/a2a/rest";

/** One message the agent received or sent, as text, with the request it belongs to. */
export interface A2aFrame {
  readonly direction: "in" | "out";
  readonly binding: "card" | "jsonrpc" | "rest";
  readonly method: string;
  readonly path: string;
  readonly text: string;
  readonly status?: number;
}
export type A2aFrameSink = (frame: A2aFrame) => void;

const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive", "X-Accel-Buffering": "no" };
const JSON_TYPES = new Set(["application/json", "application/a2a+json"]);
const utf8 = new TextDecoder("utf-8", { fatal: true });

export interface RouteContext {
  readonly agent: A2aAgent;
  readonly cors: Readonly<Record<string, string>>;
  readonly maxBodyBytes: number;
  readonly onFrame?: A2aFrameSink;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>>): string {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
  return text;
}

export function answerCard(req: IncomingMessage, res: ServerResponse, ctx: RouteContext, path: string): void {
  const version = header(req, "a2a-version");
  const card = ctx.agent.cardFor(version);
  const headers = { ...ctx.cors, "Cache-Control": "no-cache", Vary: "A2A-Version" };
  const status = card ? 200 : 400;
  const body = card ?? { error: { code: 400, status: "FAILED_PRECONDITION", message: `A2A version ${JSON.stringify(version)} is not served; this agent speaks 1.0 and 0.3 (the default).` } };
  const text = sendJson(res, status, body, headers);
  ctx.onFrame?.({ direction: "out", binding: "card", method: req.method ?? "GET", path, text, status });
}

const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } });

async function readRpcText(req: IncomingMessage, limit: number): Promise<string | { readonly status: number; readonly body: unknown }> {
  const type = header(req, "content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== undefined && !JSON_TYPES.has(type)) return { status: 200, body: rpcError(-32005, `Unsupported Content-Type ${JSON.stringify(type)}; send application/json.`) };
  let bytes: Buffer;
  try {
    bytes = await readBody(req, limit);
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) return { status: 413, body: rpcError(-32600, `Payload too large: a request may be at most ${limit} bytes.`) };
    return { status: 400, body: rpcError(-32700, "Parse error: the body could not be read.") };
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return { status: 200, body: rpcError(-32700, "Parse error: the body is not valid UTF-8.") };
  }
}

export async function answerJsonRpc(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): Promise<void> {
  const frame = (direction: "in" | "out", text: string, status?: number) =>
    ctx.onFrame?.({ direction, binding: "jsonrpc", method: "POST", path: A2A_JSONRPC_PATH, text, ...(status !== undefined ? { status } : {}) });
  const read = await readRpcText(req, ctx.maxBodyBytes);
  if (typeof read !== "string") {
    if (read.status === 413) res.setHeader("Connection", "close");
    frame("out", sendJson(res, read.status, read.body, ctx.cors), read.status);
    return;
  }
  frame("in", read);
  const version = header(req, "a2a-version");
  const answer = await ctx.agent.jsonRpc.answer(read, version !== undefined ? { version } : {});
  if (answer.kind === "json") {
    frame("out", sendJson(res, answer.status, answer.body, ctx.cors), answer.status);
    return;
  }
  res.writeHead(200, { ...SSE_HEADERS, ...ctx.cors });
  res.flushHeaders();
  const events = answer.events[Symbol.asyncIterator]();
  const stop = () => void events.return?.(undefined);
  res.once("close", stop);
  try {
    for (;;) {
      const next = await events.next();
      if (next.done || res.destroyed) break;
      const text = JSON.stringify(next.value.data);
      frame("out", text);
      res.write(next.value.error ? `event: error\ndata: ${text}\n\n` : `data: ${text}\n\n`);
    }
  } finally {
    res.off("close", stop);
    if (!res.writableEnded) res.end();
  }
}

/** Records what passes through the HTTP+JSON app: the body it read, as it came, and each chunk it wrote (SSE events one by one). */
export function recordRest(req: IncomingMessage & { body?: unknown }, res: ServerResponse, sink: A2aFrameSink, path: string): void {
  const method = req.method ?? "GET";
  const out = (chunk: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk);
    for (const piece of text.split(/\n\n+/)) {
      const data = piece.replace(/^(event: [^\n]*\n)?data: /, "");
      if (data.trim() !== "") sink({ direction: "out", binding: "rest", method, path, text: data, status: res.statusCode });
    }
  };
  let inRecorded = false;
  const recordIn = () => {
    // Verbatim where the parser kept the bytes (a body it refused included).
    const text = rawBodyOf(req) ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    if (inRecorded || text === undefined) return;
    inRecorded = true;
    sink({ direction: "in", binding: "rest", method, path, text });
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    recordIn();
    out(chunk);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    recordIn();
    out(chunk);
    return end(chunk, ...rest);
  }) as typeof res.end;
}
