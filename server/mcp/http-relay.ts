/**
 * A Streamable HTTP MCP server as a relay peer. Each frame is POSTed in order; a JSON body or the
 * `data:` messages of an SSE body become `message` events, each response an `http` event. After
 * initialize the standalone GET stream carries what the server says outside any request. Every
 * request a failure leaves unanswered is named in the `error` event, so the client can fail it.
 */
import { headerObject } from "../relay/http-failure.ts";
import { openGetStream, type GetStream } from "./http-get-stream.ts";
import { createExchanges } from "./http-exchange.ts";
import { idKey, readOutgoing, type OutgoingFrame } from "./jsonrpc-frames.ts";
import type { Exchange } from "./http-exchange.ts";
import { SessionClosedError, type Peer, type PeerEvent, type PeerSink } from "./relay-peer.ts";
import type { HttpSpec } from "./session-spec.ts";
import { callFailure, UpstreamCall, upstreamFetch } from "../relay/upstream-call.ts";

export const DELETE_TIMEOUT_MS = 2000;
/** POSTs waiting for their response headers at once; later frames queue behind them. */
export const MAX_IN_FLIGHT = 16;

export function startStreamableHttp(spec: HttpSpec, sink: PeerSink): Peer {
  const { limits } = spec;
  const session = new AbortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let closed = false;
  let standalone: GetStream | undefined;
  let standaloneSid: string | undefined;
  let getUnsupported = false;
  let answeredOnce = false;
  const queue: { readonly bytes: Buffer; readonly headers: Readonly<Record<string, string>> }[] = [];
  /** Requests whose POST is open, by id: what the client may close to cancel them. */
  const inFlight = new Map<string, { readonly call: UpstreamCall; readonly exchange: Exchange }>();
  let pumping = false;
  let posting = 0;
  let slotFreed: (() => void) | undefined;

  const emit = (event: PeerEvent) => {
    if (!closed) sink.emit(event);
  };
  const note = (text: string) => emit({ type: "note", text });

  /** The user's headers plus the session id and negotiated version, once known. */
  function sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = { ...spec.headers };
    if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
    if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
    return headers;
  }

  /** The server no longer knows the session: forget it, so a new initialize starts a fresh one. */
  function expired(sent: string | undefined): void {
    if (sent === undefined || sent !== sessionId) return;
    sessionId = undefined;
    protocolVersion = undefined;
    standalone?.stop();
    standalone = undefined;
  }

  function startStandalone(): void {
    if (closed || getUnsupported || sessionId === undefined) return;
    if (standalone !== undefined && standaloneSid === sessionId) return;
    // A new initialize may have brought a new session: its stream replaces the old one.
    standalone?.stop();
    const sid = sessionId;
    standaloneSid = sid;
    const stream = openGetStream({
      url: spec.url,
      limits,
      signal: session.signal,
      headers: () => (sessionId === sid ? sessionHeaders() : undefined),
      label: "GET stream",
      onMessage: exchanges.deliver,
      onOversize: exchanges.oversize,
      note,
    });
    standalone = stream;
    void stream.ended.then((end) => {
      if (standalone === stream) standalone = undefined;
      if (end.kind === "unsupported") {
        getUnsupported = true;
        note("the server offers no standalone GET stream (HTTP 405): only messages that belong to a request can arrive");
      } else if (end.kind === "expired") {
        emit({ type: "error", step: "http", status: end.status, body: end.body, message: exchanges.expiredMessage() });
        expired(sid);
      } else if (end.kind === "gave-up" || end.kind === "refused") {
        note(`GET stream closed for good: ${end.problem}; messages the server sends outside a request will not arrive`);
      }
    });
  }

  const exchanges = createExchanges({
    spec,
    sink: { emit, note },
    signal: session.signal,
    sessionHeaders: () => (sessionId === undefined ? undefined : sessionHeaders()),
    onInitialized(version) {
      if (version !== undefined) protocolVersion = version;
      startStandalone();
    },
    onExpired: expired,
  });

  /** Send one frame; resolves once its response headers are in (or it failed). */
  async function post(bytes: Buffer, frame: OutgoingFrame, own: Readonly<Record<string, string>>): Promise<void> {
    const exchange = exchanges.begin(frame, sessionId);
    // The frame's own Mcp-* headers (lower-cased, as the session's are) win over the session's version.
    const lowered = Object.fromEntries(Object.entries(own).map(([name, value]) => [name.toLowerCase(), value]));
    const headers = { ...sessionHeaders(), ...lowered, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const call = new UpstreamCall(session.signal);
    const keys = frame.requestIds.map(idKey);
    for (const key of keys) inFlight.set(key, { call, exchange });
    const done = () => {
      for (const key of keys) if (inFlight.get(key)?.call === call) inFlight.delete(key);
      call.dispose();
    };
    let res: Response;
    try {
      res = await upstreamFetch(spec.url, { method: "POST", headers, body: new Uint8Array(bytes) }, call, limits.headersTimeoutMs);
    } catch (err) {
      done();
      const failure = callFailure(err, call, spec.url, limits);
      if (failure !== undefined) exchange.fail(failure);
      return;
    }
    emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
    const sid = res.headers.get("mcp-session-id");
    if (res.ok) {
      answeredOnce = true;
      if (sid !== null) sessionId = sid;
    }
    // The body is read in the background: an SSE answer may stay open while later frames go out.
    void exchange
      .consume(res, call)
      .catch((err: unknown) => emit({ type: "error", step: "protocol", message: `reading the response failed: ${(err as Error).message}` }))
      .finally(done);
  }

  /**
   * Frames go out in order. A frame waits for the previous one's headers while the session is
   * being set up, and behind notifications and responses (answered at once with 202), so the
   * session id and `initialized` come first; requests then go out without waiting for each
   * other, so a slow call blocks neither a ping nor its own cancellation.
   */
  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0 && !closed) {
        if (posting >= MAX_IN_FLIGHT) {
          await new Promise<void>((resolve) => (slotFreed = resolve));
          continue;
        }
        const { bytes, headers } = queue.shift()!;
        const frame = readOutgoing(bytes);
        posting++;
        const headersIn = post(bytes, frame, headers).finally(() => {
          posting--;
          slotFreed?.();
          slotFreed = undefined;
        });
        const waits = !answeredOnce || frame.requestIds.length === 0 || frame.initializeIds.length > 0;
        if (waits) await headersIn;
      }
    } finally {
      pumping = false;
    }
  }

  return {
    async send(bytes, headers = {}) {
      if (closed) throw new SessionClosedError("the session is closed");
      queue.push({ bytes, headers });
      void pump();
    },
    abort(id) {
      const open = inFlight.get(idKey(id));
      if (open === undefined || closed) return false;
      inFlight.delete(idKey(id));
      open.exchange.forget(id);
      open.call.cut("aborted");
      note(`closed the response stream of request ${JSON.stringify(id)}: that is how a 2026-07-28 client cancels a request over Streamable HTTP`);
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      standalone?.stop();
      session.abort();
      const sid = sessionId;
      if (sid === undefined) return;
      // The DELETE's answer is still worth an event; 405 means the server keeps sessions itself.
      const call = new UpstreamCall(new AbortController().signal);
      try {
        const res = await upstreamFetch(spec.url, { method: "DELETE", headers: sessionHeaders() }, call, Math.min(DELETE_TIMEOUT_MS, limits.headersTimeoutMs));
        sink.emit({ type: "http", status: res.status, headers: headerObject(res.headers) });
        await res.body?.cancel().catch(() => {});
      } catch (err) {
        const failure = callFailure(err, call, spec.url, limits);
        if (failure !== undefined) sink.emit({ type: "error", ...failure });
      } finally {
        call.dispose();
      }
    },
  };
}
