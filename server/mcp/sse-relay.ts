/**
 * A legacy HTTP+SSE MCP server as a relay peer: one GET stream carries an `endpoint` event (where
 * to POST) and then the server's messages; frames are POSTed to that endpoint in order.
 */
import { bodyPreview, connectFailure, headerObject, mediaType } from "./http-failure.ts";
import { SessionClosedError, type Peer, type PeerSink } from "./relay-peer.ts";
import type { HttpSpec } from "./session-spec.ts";
import { readSse } from "./sse-parser.ts";

export function startLegacySse(spec: HttpSpec, sink: PeerSink): Peer {
  const controller = new AbortController();
  let closed = false;
  let endpoint: URL | undefined;
  let chain: Promise<void>;
  let announce: (url: URL | undefined) => void = () => {};
  const endpointKnown = new Promise<URL | undefined>((resolve) => (announce = resolve));

  const fail = (event: Parameters<PeerSink["emit"]>[0], reason: string) => {
    if (closed) return;
    sink.emit(event);
    announce(undefined);
    sink.closed(reason);
  };

  async function listen(): Promise<void> {
    let res: Response;
    try {
      res = await fetch(spec.url, { headers: { ...spec.headers, accept: "text/event-stream" }, signal: controller.signal });
    } catch (err) {
      const failure = connectFailure(err, spec.url);
      return fail({ type: "error", ...failure }, failure.message);
    }
    sink.emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
    if (!res.ok) {
      const body = await bodyPreview(res);
      const message = `http: the SSE endpoint answered ${res.status} ${res.statusText}`.trimEnd();
      return fail({ type: "error", step: "http", message, status: res.status, body }, message);
    }
    const type = mediaType(res.headers.get("content-type"));
    if (type !== "text/event-stream" || res.body === null) {
      const body = await bodyPreview(res);
      const message = `not-mcp: the SSE endpoint should answer text/event-stream, got ${type === "" ? "no Content-Type" : JSON.stringify(type)}`;
      return fail({ type: "error", step: "not-mcp", message, status: res.status, body }, message);
    }
    await readSse(res.body, (event) => {
      if (event.event === "endpoint") {
        let url: URL;
        try {
          url = new URL(event.data, spec.url);
        } catch {
          return sink.emit({ type: "error", step: "protocol", message: `the endpoint event is not a URL: ${event.data.slice(0, 200)}` });
        }
        // Custom headers carry credentials: they go only to the origin the user named.
        if (url.origin !== spec.url.origin) {
          return sink.emit({ type: "error", step: "protocol", message: `the endpoint ${url.origin} is not on the server's origin ${spec.url.origin}; refused` });
        }
        endpoint = url;
        announce(url);
      } else if (event.event === "message" && event.data !== "") {
        sink.emit({ type: "message", text: event.data });
      }
    });
    if (!closed) {
      announce(undefined);
      sink.closed("the server ended its SSE stream");
    }
  }

  async function post(bytes: Buffer): Promise<void> {
    const target = endpoint ?? (await endpointKnown);
    if (closed) return;
    if (target === undefined) {
      sink.emit({ type: "error", step: "protocol", message: "no endpoint event arrived on the SSE stream; the message was not sent" });
      return;
    }
    let res: Response;
    try {
      const headers = { ...spec.headers, "content-type": "application/json" };
      res = await fetch(target, { method: "POST", headers, body: new Uint8Array(bytes), signal: controller.signal });
    } catch (err) {
      if (!closed) sink.emit({ type: "error", ...connectFailure(err, target) });
      return;
    }
    sink.emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
    const body = await bodyPreview(res);
    if (!res.ok) sink.emit({ type: "error", step: "http", message: `http: the message endpoint answered ${res.status}`, status: res.status, body });
  }

  chain = Promise.resolve();
  void listen().catch((err: unknown) => {
    fail({ type: "error", step: "protocol", message: `reading the SSE stream failed: ${(err as Error).message}` }, "the SSE stream failed");
  });

  return {
    async send(bytes) {
      if (closed) throw new SessionClosedError("the session is closed");
      chain = chain.then(() => post(bytes)).catch(() => {});
    },
    async close() {
      closed = true;
      announce(undefined);
      controller.abort();
    },
  };
}
