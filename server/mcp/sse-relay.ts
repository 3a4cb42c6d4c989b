/**
 * A legacy HTTP+SSE MCP server as a relay peer: one GET stream carries an `endpoint` event (where
 * to POST) and then the server's messages; frames are POSTed to that endpoint in order. The same
 * limits as Streamable HTTP apply, except that the GET stream may stay quiet as long as it likes.
 */
import { headerObject, mediaType } from "../relay/http-failure.ts";
import { INVALID_UTF8 } from "./http-exchange.ts";
import { readOutgoing } from "./jsonrpc-frames.ts";
import { SessionClosedError, type Peer, type PeerEvent, type PeerSink } from "./relay-peer.ts";
import type { HttpSpec } from "./session-spec.ts";
import { callFailure, previewOf, readStream, redirectRefusal, UpstreamCall, upstreamFetch } from "../relay/upstream-call.ts";

export function startLegacySse(spec: HttpSpec, sink: PeerSink): Peer {
  const { limits } = spec;
  const controller = new AbortController();
  let closed = false;
  let endpoint: URL | undefined;
  let chain: Promise<void> = Promise.resolve();
  let announce: (url: URL | undefined) => void = () => {};
  const endpointKnown = new Promise<URL | undefined>((resolve) => (announce = resolve));

  const emit = (event: PeerEvent) => {
    if (!closed) sink.emit(event);
  };
  const fail = (event: PeerEvent, reason: string) => {
    if (closed) return;
    sink.emit(event);
    announce(undefined);
    sink.closed(reason);
  };
  const oversize = (bytes: number) =>
    emit({ type: "error", step: "protocol", message: `protocol: a message of ${bytes} bytes or more was refused: the limit is ${limits.maxMessageBytes} bytes (maxMessageBytes); the session stays open` });

  function onEndpoint(data: string): void {
    let url: URL;
    try {
      url = new URL(data, spec.url);
    } catch {
      return emit({ type: "error", step: "protocol", message: `the endpoint event is not a URL: ${data.slice(0, 200)}` });
    }
    // Custom headers carry credentials: they go only to the origin the user named.
    if (url.origin !== spec.url.origin) {
      return emit({ type: "error", step: "protocol", message: `the endpoint ${url.origin} is not on the server's origin ${spec.url.origin}; refused` });
    }
    endpoint = url;
    announce(url);
  }

  async function listen(): Promise<void> {
    const call = new UpstreamCall(controller.signal);
    try {
      let res: Response;
      try {
        res = await upstreamFetch(spec.url, { method: "GET", headers: { ...spec.headers, accept: "text/event-stream" } }, call, limits.headersTimeoutMs);
      } catch (err) {
        const failure = callFailure(err, call, spec.url, limits);
        return failure === undefined ? undefined : fail({ type: "error", ...failure }, failure.message);
      }
      emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
      const refusal = redirectRefusal(res, spec.url);
      if (refusal !== undefined || !res.ok) {
        const body = await previewOf(res, call, limits);
        const message = refusal ?? `http: the SSE endpoint answered ${res.status} ${res.statusText}`.trimEnd();
        return fail({ type: "error", step: "http", message, status: res.status, body }, message);
      }
      const type = mediaType(res.headers.get("content-type"));
      if (type !== "text/event-stream" || res.body === null) {
        const body = await previewOf(res, call, limits);
        const message = `not-mcp: the SSE endpoint should answer text/event-stream, got ${type === "" ? "no Content-Type" : JSON.stringify(type)}`;
        return fail({ type: "error", step: "not-mcp", message, status: res.status, body }, message);
      }
      await readStream(res, call, limits, {
        idle: false,
        onOversize: oversize,
        onEvent: (event) => {
          if (event.event === "endpoint") return onEndpoint(event.data);
          if (event.event !== "message" || event.data === "") return;
          if (event.invalidUtf8) emit({ type: "error", step: "protocol", message: INVALID_UTF8 });
          emit({ type: "message", text: event.data });
        },
      });
      if (!closed) {
        announce(undefined);
        sink.closed("the server ended its SSE stream");
      }
    } finally {
      call.dispose();
    }
  }

  async function post(bytes: Buffer): Promise<void> {
    const target = endpoint ?? (await endpointKnown);
    if (closed) return;
    const { requestIds } = readOutgoing(bytes);
    const ids = requestIds.length > 0 ? { requestIds: [...requestIds] } : {};
    if (target === undefined) {
      emit({ type: "error", step: "protocol", message: "no endpoint event arrived on the SSE stream; the message was not sent", ...ids });
      return;
    }
    const call = new UpstreamCall(controller.signal);
    try {
      let res: Response;
      try {
        const headers = { ...spec.headers, "content-type": "application/json" };
        res = await upstreamFetch(target, { method: "POST", headers, body: new Uint8Array(bytes) }, call, limits.headersTimeoutMs);
      } catch (err) {
        const failure = callFailure(err, call, target, limits);
        if (failure !== undefined) emit({ type: "error", ...failure, ...ids });
        return;
      }
      emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
      const body = await previewOf(res, call, limits);
      const refusal = redirectRefusal(res, target);
      if (refusal !== undefined || !res.ok) {
        emit({ type: "error", step: "http", message: refusal ?? `http: the message endpoint answered ${res.status}`, status: res.status, body, ...ids });
      }
    } finally {
      call.dispose();
    }
  }

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
