/**
 * What every test peer shares: a record of the requests it received, for assertions, and
 * stalls (a delay, or no answer at all) on chosen paths, for testing a client's time limits.
 */
import type { IncomingHttpHeaders, IncomingMessage, Server } from "node:http";

export interface RecordedRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  /** The path with the query, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as text; "" when there was none. */
  readonly body: string;
  /** Milliseconds since the epoch when the request arrived. */
  readonly at: number;
}

/** Holds back requests to one path: `delayMs` before answering, or `hang` to never answer. */
export interface Stall {
  /** An exact path (no query), or a pattern tested against it. */
  readonly path: string | RegExp;
  /** Only requests with this method (any when absent). */
  readonly method?: string;
  readonly delayMs?: number;
  readonly hang?: boolean;
}

/** What a test can do with any peer besides talking to it. */
export interface PeerHandle {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly baseUrl: string;
  /** Where the Agent Card is served. */
  readonly cardUrl: string;
  /** Every request received so far, oldest first (the peer's own push POSTs are not included). */
  readonly requests: readonly RecordedRequest[];
  /** Replaces the stalls; requests already held keep their fate. */
  setStalls(stalls: readonly Stall[]): void;
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** Stops the peer, dropping open connections (hung and streaming ones too). */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class RequestLog {
  readonly requests: RecordedRequest[] = [];
  #stalls: readonly Stall[];

  constructor(stalls: readonly Stall[] = []) {
    this.#stalls = stalls;
  }

  setStalls(stalls: readonly Stall[]): void {
    this.#stalls = stalls;
  }

  clear(): void {
    this.requests.length = 0;
  }

  record(req: IncomingMessage, body: string): RecordedRequest {
    const url = req.url ?? "/";
    const entry: RecordedRequest = { method: req.method ?? "GET", path: pathOf(url), url, headers: { ...req.headers }, body, at: Date.now() };
    this.requests.push(entry);
    return entry;
  }

  /** Waits as the first matching stall says; "hang" means the request must never be answered. */
  async hold(entry: RecordedRequest): Promise<"go" | "hang"> {
    const stall = this.#stalls.find((s) => (s.method === undefined || s.method.toUpperCase() === entry.method) && matches(s.path, entry.path));
    if (!stall) return "go";
    if (stall.hang) return "hang";
    if (stall.delayMs !== undefined && stall.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, stall.delayMs));
    return "go";
  }
}

function matches(pattern: string | RegExp, path: string): boolean {
  return typeof pattern === "string" ? pattern === path : pattern.test(path);
}

export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

/** The whole request body; rejects past 4 MiB so a runaway client cannot exhaust memory. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Listens on a free loopback port and resolves with it. */
export function listenLocal(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") reject(new Error("no TCP address"));
      else resolve(address.port);
    });
  });
}

/** Closes the server and every connection it still holds (keep-alive, streams, hung requests). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
