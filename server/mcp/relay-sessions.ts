/**
 * The live relay sessions: at most 16 open at once, each a peer (stdio, streamable HTTP or legacy
 * SSE) plus its event stream. Closing the registry closes every session; children are also
 * SIGKILLed at process exit, so none outlives the backend. A session nobody reads for a grace
 * period is closed: the page that opened it went away (closed, or reloaded and connecting afresh),
 * and its server process and slot would otherwise stay taken until the backend stops.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../../src/core/env/environment.ts";
import { HttpError } from "../http/errors.ts";
import { startStreamableHttp } from "./http-relay.ts";
import { createEventStream, type EventStream } from "./ndjson-stream.ts";
import type { Peer, PeerSink } from "./relay-peer.ts";
import { specTarget, type SessionSpec } from "./session-spec.ts";
import { startLegacySse } from "./sse-relay.ts";
import { startStdio } from "./stdio-relay.ts";

export const MAX_LIVE_SESSIONS = 16;
/** Closed sessions kept for listing and late stream readers. */
const MAX_CLOSED_KEPT = 16;
/** How long a session may go without a stream reader, from its start or its last reader leaving. */
export const READERLESS_GRACE_MS = 30_000;

export interface SessionInfo {
  readonly id: string;
  readonly transport: SessionSpec["transport"];
  readonly target: string;
  readonly pid?: number;
  /** Epoch ms. */
  readonly startedAt: number;
  readonly open: boolean;
}

export interface RelaySession {
  readonly id: string;
  readonly events: EventStream;
  info(): SessionInfo;
  /** Forward one raw frame with its own Mcp-* headers; throws SessionClosedError once the session ended. */
  send(bytes: Buffer, headers?: Readonly<Record<string, string>>): Promise<void>;
  /** Closes the upstream request carrying `id` (Streamable HTTP only); undefined when the transport cannot. */
  abort(id: string | number): boolean | undefined;
  /** Idempotent; resolves when the peer is gone and the stream got `closed`. */
  close(reason?: string): Promise<void>;
}

export interface RelaySessions {
  /** Throws HttpError 429 past the cap, 502 when a stdio command cannot start. */
  create(spec: SessionSpec): Promise<RelaySession>;
  get(id: string): RelaySession | undefined;
  list(): SessionInfo[];
  closeAll(): Promise<void>;
}

function startPeer(spec: SessionSpec, sink: PeerSink): Promise<Peer> {
  if (spec.transport === "stdio") return startStdio(spec, sink);
  if (spec.transport === "sse") return Promise.resolve(startLegacySse(spec, sink));
  return Promise.resolve(startStreamableHttp(spec, sink));
}

/** Where a session points, for the log: no args, query, credentials or header values. */
function logTarget(spec: SessionSpec): string {
  return spec.transport === "stdio" ? spec.command : `${spec.url.origin}${spec.url.pathname}`;
}

export interface RelaySessionsOptions {
  readonly logger: Logger;
  /** READERLESS_GRACE_MS unless a test needs it shorter. */
  readonly readerlessGraceMs?: number;
}

export function createRelaySessions(options: RelaySessionsOptions): RelaySessions {
  const { logger } = options;
  const graceMs = options.readerlessGraceMs ?? READERLESS_GRACE_MS;
  const sessions = new Map<string, RelaySession>();
  const peers = new Map<string, Peer>();
  let starting = 0;
  let shut = false;

  const liveCount = () => [...sessions.values()].filter((s) => s.info().open).length + starting;
  const killAll = () => {
    for (const peer of peers.values()) peer.killNow?.();
  };
  process.once("exit", killAll);

  function forget(id: string): void {
    sessions.delete(id);
    const closedIds = [...sessions.values()].filter((s) => !s.info().open).map((s) => s.id);
    for (const old of closedIds.slice(0, Math.max(0, closedIds.length - MAX_CLOSED_KEPT))) sessions.delete(old);
  }

  async function create(spec: SessionSpec): Promise<RelaySession> {
    if (shut) throw new HttpError(503, "shutting_down", "the backend is stopping");
    if (liveCount() >= MAX_LIVE_SESSIONS) {
      throw new HttpError(429, "too_many_sessions", `at most ${MAX_LIVE_SESSIONS} MCP relay sessions may be open; close one first`);
    }
    const id = randomUUID();
    const startedAt = Date.now();
    let orphanTimer: ReturnType<typeof setTimeout> | undefined;
    const stopOrphanTimer = () => {
      if (orphanTimer !== undefined) clearTimeout(orphanTimer);
      orphanTimer = undefined;
    };
    const startOrphanTimer = () => {
      stopOrphanTimer();
      orphanTimer = setTimeout(() => void session.close(`no page read this session for ${graceMs / 1000} s: the page that opened it went away`), graceMs);
      orphanTimer.unref();
    };
    const events = createEventStream({ elapsed: () => Date.now() - startedAt, onReader: (present) => (present || events.finished ? stopOrphanTimer() : startOrphanTimer()) });
    let open = true;
    let peer: Peer | undefined;
    /** Why the session was asked to close; the peer's own account of its end follows in brackets. */
    let requested: string | undefined;
    const finish = (ended: string, code?: number) => {
      if (events.finished) return;
      stopOrphanTimer();
      open = false;
      peers.delete(id);
      const reason = requested === undefined || requested === ended ? ended : `${requested} (${ended})`;
      events.push(code === undefined ? { type: "closed", reason } : { type: "closed", reason, code });
      logger.info("mcp relay session closed", { id, reason });
      void events.delivered.then(() => {
        if (sessions.get(id) === session) forget(id);
      });
    };
    const sink: PeerSink = { emit: (event) => events.push(event), closed: finish };

    starting++;
    try {
      peer = await startPeer(spec, sink);
    } finally {
      starting--;
    }
    const started = peer;
    const target = specTarget(spec);
    const session: RelaySession = {
      id,
      events,
      info: () => ({
        id,
        transport: spec.transport,
        target,
        ...(started.pid !== undefined ? { pid: started.pid } : {}),
        startedAt,
        open,
      }),
      send: (bytes, headers) => started.send(bytes, headers),
      abort: (requestId) => (started.abort ? started.abort(requestId) : undefined),
      async close(reason = "closed by request") {
        requested ??= reason;
        if (!events.finished) open = false;
        await started.close();
        finish(reason);
      },
    };
    sessions.set(id, session);
    if (open) {
      peers.set(id, started);
      startOrphanTimer();
    }
    logger.info("mcp relay session started", { id, transport: spec.transport, target: logTarget(spec), pid: started.pid });
    return session;
  }

  return {
    create,
    get: (id) => sessions.get(id),
    list: () => [...sessions.values()].map((s) => s.info()),
    async closeAll() {
      shut = true;
      await Promise.all([...sessions.values()].map((s) => s.close("the backend is stopping")));
      process.off("exit", killAll);
    },
  };
}
