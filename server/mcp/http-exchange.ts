/**
 * One POST of a Streamable HTTP session and what came back: messages are delivered as they
 * arrive; whatever the server leaves unanswered (an error status, a wrong body, a broken, silent
 * or oversize stream) is reported once, naming the request ids, so the client need not wait for
 * its own timeout. A broken response stream that carried event ids is resumed first.
 */
import { BODY_PREVIEW_BYTES, mediaType } from "../relay/http-failure.ts";
import { openGetStream } from "./http-get-stream.ts";
import { idKey, nameRequests, Outstanding, readIncoming, type OutgoingFrame } from "./jsonrpc-frames.ts";
import type { PeerEvent } from "./relay-peer.ts";
import type { HttpSpec } from "./session-spec.ts";
import { previewOf, readStream, readWhole, redirectRefusal, type UpstreamCall } from "../relay/upstream-call.ts";
import type { RelayStep } from "../../src/core/mcp/relay-api.ts";

export const INVALID_UTF8 = "protocol: the server sent a message that is not valid UTF-8; the bad bytes were replaced with U+FFFD";

export interface ExchangeDeps {
  readonly spec: HttpSpec;
  readonly sink: { emit(event: PeerEvent): void; note(text: string): void };
  /** The session's signal. */
  readonly signal: AbortSignal;
  /** Headers for a GET within the session, or undefined when there is no session (any more). */
  readonly sessionHeaders: () => Record<string, string> | undefined;
  /** An initialize request got its result (with the version it names). */
  readonly onInitialized: (version: string | undefined) => void;
  /** A request sent with this session id got 404: the server forgot the session. */
  readonly onExpired: (sentWith: string) => void;
}

export interface Exchange {
  /** The request never got a response (connect failure, no headers in time). */
  fail(failure: { step: RelayStep; message: string }): void;
  /** The client gave up on request `id`: it is no longer waited for, nor reported unanswered. */
  forget(id: string | number): void;
  /** Read and deliver the response; resolves when nothing more can come of it. */
  consume(res: Response, call: UpstreamCall): Promise<void>;
}

const clip = (text: string) => (text.length > BODY_PREVIEW_BYTES ? text.slice(0, BODY_PREVIEW_BYTES) : text);

export function createExchanges(deps: ExchangeDeps) {
  const { spec, sink } = deps;
  const { limits } = spec;

  const deliver = (text: string, invalidUtf8: boolean) => {
    if (invalidUtf8) sink.emit({ type: "error", step: "protocol", message: INVALID_UTF8 });
    sink.emit({ type: "message", text });
  };
  const oversizeMessage = (bytes: number) =>
    `protocol: a message of ${bytes} bytes or more was refused: the limit is ${limits.maxMessageBytes} bytes (maxMessageBytes); the session stays open`;
  const oversize = (bytes: number) => sink.emit({ type: "error", step: "protocol", message: oversizeMessage(bytes) });
  const expiredMessage = () => "http: session expired: the server no longer knows this session (404); send initialize again to start a new one";

  function begin(frame: OutgoingFrame, withSession: string | undefined): Exchange {
    const outstanding = new Outstanding(frame.requestIds);
    const inits = new Set(frame.initializeIds.map(idKey));
    let refusedHere = 0;
    const names = () => nameRequests(outstanding.peek());

    const fail = (failure: { step: RelayStep; message: string }, extra: { status?: number; body?: string } = {}) => {
      const ids = outstanding.take();
      sink.emit({ type: "error", ...failure, ...extra, ...(ids.length > 0 ? { requestIds: ids } : {}) });
    };

    const handle = (text: string, invalidUtf8: boolean) => {
      let initialized: { version: string | undefined } | undefined;
      if (outstanding.size > 0 || inits.size > 0) {
        const incoming = readIncoming(text);
        outstanding.answer(incoming.answered);
        for (const id of incoming.answered) {
          const key = idKey(id);
          if (inits.delete(key) && incoming.versions.has(key)) initialized = { version: incoming.versions.get(key) };
        }
      }
      deliver(text, invalidUtf8);
      if (initialized !== undefined) deps.onInitialized(initialized.version);
    };
    const refuse = (bytes: number) => {
      refusedHere++;
      oversize(bytes);
    };
    const expire = (status: number, body: string) => {
      if (withSession !== undefined) deps.onExpired(withSession);
      fail({ step: "http", message: expiredMessage() }, { status, body: clip(body) });
    };

    /** A non-2xx answer: a JSON-RPC body is a message like any other; the rest is an http error. */
    async function refused(res: Response, call: UpstreamCall): Promise<void> {
      let body = "";
      let jsonRpc = false;
      try {
        const got = await readWhole(res, call, limits);
        if ("oversize" in got) body = `(a body of over ${limits.maxMessageBytes} bytes, not shown)`;
        else {
          body = got.text;
          jsonRpc = readIncoming(got.text).jsonRpc;
          if (jsonRpc) handle(got.text, got.invalidUtf8);
        }
      } catch {
        // The status alone still says what happened.
      }
      if (res.status === 404 && withSession !== undefined) return expire(404, body);
      if (jsonRpc && outstanding.size === 0) return;
      const left = outstanding.size > 0 ? ` and left ${names()} unanswered` : "";
      fail({ step: "http", message: `http: the server answered ${res.status} ${res.statusText}`.trimEnd() + left }, { status: res.status, body: clip(body) });
    }

    async function whole(res: Response, call: UpstreamCall): Promise<void> {
      let got;
      try {
        got = await readWhole(res, call, limits);
      } catch (err) {
        return broke(call, `broke (${(err as Error).message})`);
      }
      if ("oversize" in got) return fail({ step: "protocol", message: oversizeMessage(got.oversize) });
      if (got.text.trim() !== "") handle(got.text, got.invalidUtf8);
      if (outstanding.size > 0) fail({ step: "protocol", message: `protocol: the server's JSON answer left ${names()} unanswered` });
    }

    function broke(call: UpstreamCall, problem: string): void {
      if (call.why === "closed" || call.why === "aborted") return;
      const why = call.why === "idle" ? `made no progress for ${limits.idleTimeoutMs} ms (idleTimeoutMs) and was closed` : problem;
      if (outstanding.size === 0) return sink.note(`the response stream ${why}`);
      fail({ step: "http", message: `http: the response ${why} before answering ${names()}` });
    }

    async function stream(res: Response, call: UpstreamCall): Promise<void> {
      let lastEventId: string | undefined;
      let problem: string | undefined;
      try {
        await readStream(res, call, limits, {
          // A subscriptions/listen answer is meant to stay open and may stay quiet for long.
          idle: frame.listenIds.length === 0,
          onEvent: (event) => {
            if (event.id !== undefined) lastEventId = event.id;
            if (event.event === "message" && event.data !== "") handle(event.data, event.invalidUtf8 ?? false);
          },
          onOversize: refuse,
        });
      } catch (err) {
        problem = `broke (${(err as Error).message})`;
      }
      if (call.why !== undefined) return broke(call, problem ?? "ended");
      if (outstanding.size === 0) {
        if (problem !== undefined) sink.note(`the response stream ${problem} after answering everything`);
        return;
      }
      const why = `${problem ?? "ended"}${refusedHere > 0 ? " (a message over the size limit was refused)" : ""}`;
      if (lastEventId !== undefined && refusedHere === 0 && deps.sessionHeaders() !== undefined) return resume(lastEventId, why);
      const step = problem === undefined ? "protocol" : "http";
      fail({ step, message: `${step}: the response stream ${why} before answering ${names()}` });
    }

    async function resume(lastEventId: string, why: string): Promise<void> {
      sink.note(`the response stream ${why} before answering ${names()}; resuming after event ${lastEventId}`);
      const end = await openGetStream({
        url: spec.url,
        limits,
        signal: deps.signal,
        headers: deps.sessionHeaders,
        lastEventId,
        label: "resumed stream",
        onMessage: handle,
        onOversize: refuse,
        note: sink.note,
        done: () => outstanding.size === 0,
      }).ended;
      if (end.kind === "done") return;
      if (deps.signal.aborted) return;
      if (end.kind === "expired") return expire(end.status, end.body);
      const after =
        end.kind === "unsupported" ? "the server offers no GET stream to resume on (405)" : end.kind === "stopped" ? "the session ended" : end.problem;
      fail({ step: "http", message: `http: the response stream ${why} before answering ${names()}, and resuming failed: ${after}` });
    }

    return {
      fail,
      forget: (id) => outstanding.answer([id]),
      async consume(res, call) {
        const refusal = redirectRefusal(res, spec.url);
        if (refusal !== undefined) return fail({ step: "http", message: refusal }, { status: res.status, body: await previewOf(res, call, limits) });
        if (!res.ok) return refused(res, call);
        const type = mediaType(res.headers.get("content-type"));
        if (type === "application/json") return whole(res, call);
        if (type === "text/event-stream") return stream(res, call);
        const body = await previewOf(res, call, limits);
        if (body === "") {
          // 202 Accepted for notifications and responses carries no body.
          if (outstanding.size > 0) sink.note(`the server answered ${res.status} with no body to ${names()}; an answer can only come on the GET stream now`);
          return;
        }
        const got = type === "" ? "no Content-Type" : JSON.stringify(type);
        fail(
          { step: "not-mcp", message: `not-mcp: a ${res.status} response should be application/json or text/event-stream, got ${got}` },
          { status: res.status, body },
        );
      },
    };
  }

  return { begin, deliver, oversize, expiredMessage };
}
