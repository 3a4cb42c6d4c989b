/**
 * A Streamable HTTP MCP server as a relay peer: each frame is POSTed in order; a JSON body or the
 * `data:` messages of an SSE body become `message` events, each response an `http` event. Frames
 * wait for the previous response's headers, so the session id from initialize reaches the next POST.
 */
import { bodyPreview, connectFailure, headerObject, mediaType } from "./http-failure.ts";
import { SessionClosedError, type Peer, type PeerSink } from "./relay-peer.ts";
import type { HttpSpec } from "./session-spec.ts";
import { readSse } from "./sse-parser.ts";

export const DELETE_TIMEOUT_MS = 2000;

/** Ids of `initialize` requests in an outgoing frame (single or batch); unparseable frames have none. */
function initializeIds(bytes: Buffer): string[] {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  const ids: string[] = [];
  for (const item of items) {
    if (typeof item === "object" && item !== null && (item as { method?: unknown }).method === "initialize") {
      ids.push(JSON.stringify((item as { id?: unknown }).id ?? null));
    }
  }
  return ids;
}

export function startStreamableHttp(spec: HttpSpec, sink: PeerSink): Peer {
  const controller = new AbortController();
  const pendingInit = new Set<string>();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();

  /** Note the negotiated version once an initialize result arrives. */
  function watch(text: string): void {
    if (pendingInit.size === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== "object" || item === null) continue;
      const key = JSON.stringify((item as { id?: unknown }).id ?? null);
      if (!pendingInit.delete(key)) continue;
      const version = (item as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
      if (typeof version === "string") protocolVersion = version;
    }
  }

  const message = (text: string) => {
    watch(text);
    sink.emit({ type: "message", text });
  };

  async function consume(res: Response, withSession: string | undefined): Promise<void> {
    const type = mediaType(res.headers.get("content-type"));
    if (!res.ok) {
      const body = await bodyPreview(res);
      const dropped = res.status === 404 && withSession !== undefined ? "; the server no longer knows this session (start a new one)" : "";
      const text = `http: the server answered ${res.status} ${res.statusText}${dropped}`.trimEnd();
      sink.emit({ type: "error", step: "http", message: text, status: res.status, body });
      return;
    }
    if (type === "application/json") {
      const text = await res.text();
      if (text.trim() !== "") message(text);
      return;
    }
    if (type === "text/event-stream" && res.body !== null) {
      await readSse(res.body, (event) => {
        if (event.event === "message" && event.data !== "") message(event.data);
      });
      return;
    }
    const body = await bodyPreview(res);
    if (body === "") return; // 202 Accepted for notifications and responses carries no body.
    const got = type === "" ? "no Content-Type" : JSON.stringify(type);
    sink.emit({
      type: "error",
      step: "not-mcp",
      message: `not-mcp: a ${res.status} response should be application/json or text/event-stream, got ${got}`,
      status: res.status,
      body,
    });
  }

  async function post(bytes: Buffer): Promise<void> {
    if (closed) return;
    const headers: Record<string, string> = {
      ...spec.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const withSession = sessionId;
    if (withSession !== undefined) headers["mcp-session-id"] = withSession;
    if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
    let res: Response;
    try {
      res = await fetch(spec.url, { method: "POST", headers, body: new Uint8Array(bytes), signal: controller.signal });
    } catch (err) {
      if (!closed) sink.emit({ type: "error", ...connectFailure(err, spec.url) });
      return;
    }
    sink.emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
    const sid = res.headers.get("mcp-session-id");
    if (sid !== null && res.ok) sessionId = sid;
    // The body is read in the background: an SSE answer may stay open while later frames go out.
    void consume(res, withSession).catch((err: unknown) => {
      if (!closed) sink.emit({ type: "error", step: "protocol", message: `reading the response failed: ${(err as Error).message}` });
    });
  }

  return {
    async send(bytes) {
      if (closed) throw new SessionClosedError("the session is closed");
      for (const id of initializeIds(bytes)) pendingInit.add(id);
      chain = chain.then(() => post(bytes));
    },
    async close() {
      if (closed) return;
      closed = true;
      controller.abort();
      if (sessionId === undefined) return;
      const headers: Record<string, string> = { ...spec.headers, "mcp-session-id": sessionId };
      if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
      try {
        const res = await fetch(spec.url, { method: "DELETE", headers, signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) });
        sink.emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
        await res.body?.cancel();
      } catch (err) {
        sink.emit({ type: "error", ...connectFailure(err, spec.url) });
      }
    },
  };
}
