/**
 * A recording reverse proxy in front of the SDK agent's Express app. The SDK parses request
 * bodies itself, so recording them (and stalling before anything is parsed) is done here, on
 * the raw bytes, leaving the SDK's own behaviour untouched.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listenLocal, readBody, type RecordedRequest, type RequestLog } from "./request-log.ts";

/** A response the front door gives itself instead of forwarding. */
export interface OwnAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface FrontDoorOptions {
  readonly backendPort: number;
  readonly log: RequestLog;
  /** Answers a request here (null forwards it). */
  readonly intercept?: (entry: RecordedRequest) => OwnAnswer | null;
}

export interface FrontDoor {
  readonly server: Server;
  readonly port: number;
  /** Drops the connections to the backend. */
  destroy(): void;
}

export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const agent = new Agent({ keepAlive: false });
  const server = createServer((req, res) => {
    void forward(req, res, options, agent);
  });
  const port = await listenLocal(server);
  return { server, port, destroy: () => agent.destroy() };
}

async function forward(req: IncomingMessage, res: ServerResponse, options: FrontDoorOptions, agent: Agent): Promise<void> {
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch {
    if (!res.headersSent) res.writeHead(413).end();
    return;
  }
  const entry = options.log.record(req, body.toString("utf8"));
  if ((await options.log.hold(entry)) === "hang" || res.destroyed) return;
  const own = options.intercept?.(entry);
  if (own) {
    res.writeHead(own.status, { ...own.headers, "content-length": String(Buffer.byteLength(own.body)) }).end(own.body);
    return;
  }
  const upstream = httpRequest(
    { host: "127.0.0.1", port: options.backendPort, method: req.method, path: req.url, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  // A client that goes away (an aborted stream, say) takes the upstream request with it.
  res.on("close", () => upstream.destroy());
  upstream.end(body);
}
