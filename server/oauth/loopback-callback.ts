/**
 * The redirect URI of a headless authorization (`patchbay call mcp --oauth`): a listener on
 * 127.0.0.1 with a free port that takes one GET /callback, answers the browser with a short page,
 * and hands the full URL (code and state) to the flow. Another Host is refused (DNS rebinding).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackCallback {
  readonly redirectUri: string;
  /** The next redirect that arrives, as a full URL; rejects after `timeoutMs` or on `signal`. */
  next(timeoutMs: number, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Patchbay</title></head>
<body style="font:16px system-ui,sans-serif;margin:4rem auto;max-width:36rem"><h1>Patchbay has the answer</h1><p>You can close this tab and go back to the terminal.</p></body></html>`;

export async function startLoopbackCallback(): Promise<LoopbackCallback> {
  const arrived: string[] = [];
  let wake: (() => void) | undefined;
  let host = "";
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (req.headers.host !== host) return void res.writeHead(403, { "content-type": "text/plain" }).end("wrong Host");
    if (req.method !== "GET" || path !== "/callback") return void res.writeHead(404, { "content-type": "text/plain" }).end("not here");
    arrived.push(`http://${host}${req.url ?? ""}`);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" }).end(PAGE);
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    redirectUri: `http://${host}/callback`,
    async next(timeoutMs, signal) {
      for (;;) {
        const got = arrived.shift();
        if (got !== undefined) return got;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no redirect arrived within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
          const stop = () => reject(new Error("cancelled while waiting for the redirect"));
          signal?.addEventListener("abort", stop, { once: true });
          wake = () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", stop);
            resolve();
          };
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
