/** Runs a web-standard fetch handler (the MCP SDK's createMcpHandler) behind node:http. */
import type { IncomingMessage, ServerResponse } from "node:http";

export function toRequest(req: IncomingMessage, base: string, body: Buffer): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  return new Request(new URL(req.url ?? "/", base), { method, headers, ...(method === "GET" || method === "HEAD" ? {} : { body: new Uint8Array(body) }) });
}

export async function sendResponse(res: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(answer.status, headers);
  if (answer.body === null) return void res.end();
  const reader = answer.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}
