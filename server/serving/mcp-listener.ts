/**
 * The MCP endpoint's own HTTP listener, separate from the backend's: Streamable HTTP at /mcp (both
 * eras: legacy sessions and modern stateless requests) on
 * 127.0.0.1 only. It is meant for external MCP clients (Claude Desktop, the MCP Inspector), which
 * cannot hold Patchbay's launch token, so it asks for none; what keeps it private is the loopback
 * bind plus the Host and Origin checks below, which stop other machines and hostile web pages.
 * Bodies are read, checked and parsed here, so every malformed one gets a JSON-RPC error.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { Logger } from "../../src/core/env/environment.ts";
import { parseJsonText } from "../../src/core/json/index.ts";
import type { RequestBody } from "../../src/core/serving/mcp/http-sessions.ts";
import type { FrameEvent } from "../../src/core/serving/mcp/recording-transport.ts";
import { HttpError } from "../http/errors.ts";
import { readBody } from "../http/json-body.ts";
import { corsHeaders, MCP_PATH, mcpHostAllowed, mcpOriginAllowed, preflightHeaders } from "./host-policy.ts";
import { listenLoopback } from "./loopback-server.ts";
import { writeWebResponse } from "./web-response.ts";

/** The SDK's own default for Streamable HTTP bodies. */
export const DEFAULT_MCP_MAX_BODY = 4 * 1024 * 1024;
const SKIPPED_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade"]);

export interface McpListenerOptions {
  /** Answers one request; POST bodies arrive read and parsed. */
  readonly handle: (request: Request, body?: RequestBody) => Promise<Response>;
  /** 0 picks a free port. */
  readonly port: number;
  readonly logger: Logger;
  readonly maxBodyBytes?: number;
  readonly onFrame?: (frame: FrameEvent) => void;
}

export interface McpListener {
  readonly port: number;
  /** e.g. http://127.0.0.1:7421/mcp */
  readonly url: string;
  close(): Promise<void>;
}

class Refusal extends Error {
  readonly status: number;
  readonly code: number;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, code: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SKIPPED_HEADERS.has(name)) continue;
    out.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

async function readMcpBody(req: IncomingMessage, limit: number, record: (text: string) => void): Promise<RequestBody> {
  let bytes: Buffer;
  try {
    bytes = await readBody(req, limit);
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) {
      record(`(a body over ${limit} bytes, not read)`);
      throw new Refusal(413, -32000, `Payload too large: a message may be at most ${limit} bytes.`, { Connection: "close" });
    }
    throw new Refusal(400, -32700, "Parse error: the body could not be read.");
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    record(lossy.decode(bytes));
    throw new Refusal(400, -32700, "Parse error: the body is not valid UTF-8.");
  }
  if (text.trim() === "") {
    record(text);
    throw new Refusal(400, -32700, "Parse error: the body is empty; send one JSON-RPC message or a batch.");
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    record(text);
    throw new Refusal(400, -32700, `Parse error: ${parsed.message} at line ${parsed.line}, column ${parsed.column}.`);
  }
  return { text, value: parsed.value };
}

function refuse(res: ServerResponse, refusal: Refusal, cors: Record<string, string>, onFrame: McpListenerOptions["onFrame"]): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: refusal.code, message: refusal.message }, id: null });
  onFrame?.({ direction: "out", text: body });
  res.writeHead(refusal.status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...cors, ...refusal.headers });
  res.end(body);
}

function requestHandler(options: McpListenerOptions, port: () => number) {
  const limit = options.maxBodyBytes ?? DEFAULT_MCP_MAX_BODY;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    let cors: Record<string, string> = {};
    try {
      const host = req.headers.host;
      if (!mcpHostAllowed(host, port())) {
        options.logger.info("refused an MCP request for a foreign Host", { host: host?.slice(0, 100) });
        throw new Refusal(403, -32000, `Forbidden: Host ${JSON.stringify(host ?? "")} is not this machine; use http://127.0.0.1:${port()}${MCP_PATH}.`);
      }
      if (!mcpOriginAllowed(origin)) throw new Refusal(403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not a page on this machine.`);
      cors = corsHeaders(origin);
      const target = req.url ?? "";
      const pathname = target.split("?")[0];
      if (pathname !== MCP_PATH) throw new Refusal(404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}.`);
      if (req.method === "OPTIONS") {
        res.writeHead(204, { ...cors, ...preflightHeaders(req.headers["access-control-request-headers"]) });
        res.end();
        return;
      }
      if (req.method !== "GET" && req.method !== "POST" && req.method !== "DELETE") {
        throw new Refusal(405, -32000, `Method not allowed: ${req.method} (use POST, GET or DELETE).`, { Allow: "GET, POST, DELETE, OPTIONS" });
      }
      const record = (text: string) => options.onFrame?.({ direction: "in", text });
      const body = req.method === "POST" ? await readMcpBody(req, limit, record) : undefined;
      // A client that goes away before its answer is written cancels the request (a modern call's only cancel).
      const gone = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      const request = new Request(`http://127.0.0.1:${port()}${target}`, { method: req.method, headers: webHeaders(req.headers), signal: gone.signal });
      await writeWebResponse(res, await options.handle(request, body), cors);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof Refusal) return refuse(res, error, cors, options.onFrame);
      options.logger.error("MCP request failed", { error: (error as Error).message });
      refuse(res, new Refusal(500, -32603, "Internal error; see Patchbay's log."), cors, options.onFrame);
    }
  };
}

/** Listens on 127.0.0.1; rejects with the listen error (EADDRINUSE, …). */
export async function startMcpListener(options: McpListenerOptions): Promise<McpListener> {
  const bound = { port: 0 };
  const handler = requestHandler(options, () => bound.port);
  // A missing Host must reach the check above (403), not Node's own 400.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    res.on("finish", () => options.logger.debug(`${req.method} ${MCP_PATH} ${res.statusCode}`));
    void handler(req, res);
  });
  const listening = await listenLoopback(server, options.port, options.logger, "MCP", '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: malformed HTTP request"},"id":null}');
  bound.port = listening.port;
  return {
    port: bound.port,
    url: `http://127.0.0.1:${bound.port}${MCP_PATH}`,
    close: listening.close,
  };
}
