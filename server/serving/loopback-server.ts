/**
 * An endpoint's HTTP server on 127.0.0.1: a malformed request gets `malformedBody` in the
 * endpoint's own error shape, listen errors (EADDRINUSE, …) reject, later ones are logged, and
 * closing drops the open connections too (streams would otherwise hold it open).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../src/core/env/environment.ts";

export interface LoopbackServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function listenLoopback(server: Server, port: number, logger: Logger, label: string, malformedBody: string): Promise<LoopbackServer> {
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${malformedBody}`);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => logger.error(`${label} listener error`, { error: error.message }));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
