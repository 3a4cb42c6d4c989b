import type { ServerResponse } from "node:http";

/**
 * Writes a web-standard Response to a Node response: status, headers (plus `extra`), then the
 * body streamed chunk by chunk with backpressure. When the client goes away the body is
 * cancelled, which lets the producer (an SSE stream of the MCP transport) clean up.
 */
export async function writeWebResponse(res: ServerResponse, response: Response, extra: Readonly<Record<string, string>> = {}): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, { ...headers, ...extra });
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => undefined);
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done || gone) break;
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.once("drain", done);
          res.once("close", done);
        });
      }
    }
  } catch {
    // The producer failed or was cancelled; end what was sent.
  } finally {
    res.off("close", onClose);
    if (!res.writableEnded) res.end();
  }
}
