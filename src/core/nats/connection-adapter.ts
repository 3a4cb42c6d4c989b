import type { MsgHdrs, Msg, NatsConnection, Status } from "@nats-io/nats-core";
import { untilAborted } from "../events/index.ts";
import { redactServers, splitServerCredentials } from "./server-credentials.ts";
import {
  NatsConnectError,
  NatsRequestError,
  type NatsAuth,
  type NatsConnectOptions,
  type NatsHeaders,
  type NatsMessage,
  type NatsPort,
  type NatsRequestFailureKind,
  type NatsStatusEvent,
} from "./port.ts";

/** The parts of a nats-core module the adapter needs; both runtimes' packages provide them. */
export interface NatsLibrary {
  headers(): MsgHdrs;
  nkeyAuthenticator(seed: Uint8Array): unknown;
  credsAuthenticator(creds: Uint8Array): unknown;
}

export function toHeaderRecord(h: MsgHdrs | undefined): NatsHeaders | undefined {
  if (!h) return undefined;
  const out: NatsHeaders = {};
  for (const [k, v] of h) out[k] = [...v];
  return Object.keys(out).length > 0 ? out : undefined;
}

function toMessage(m: Msg): NatsMessage {
  const headers = toHeaderRecord(m.headers);
  const code = m.headers?.code ?? 0;
  return {
    subject: m.subject,
    ...(m.reply ? { reply: m.reply } : {}),
    data: m.data,
    ...(headers ? { headers } : {}),
    ...(code > 0 ? { status: { code, description: m.headers?.description ?? "" } } : {}),
  };
}

function errorChain(err: unknown): { name: string; message: string }[] {
  const chain: { name: string; message: string }[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 5; depth++) {
    chain.push({ name: cur.name, message: cur.message });
    cur = cur.cause;
  }
  return chain;
}

/** Maps nats-core errors by name, not class identity: two copies of the library may be loaded. */
export function classifyRequestError(err: unknown): NatsRequestError {
  const chain = errorChain(err);
  const names = chain.map((e) => e.name);
  const message = chain[0]?.message ?? String(err);
  let kind: NatsRequestFailureKind = "other";
  if (names.includes("NoResponders") || names.includes("NoRespondersError")) kind = "no-responders";
  else if (names.includes("TimeoutError")) kind = "timeout";
  else if (names.includes("PermissionViolationError")) kind = "permission";
  else if (names.includes("ClosedConnectionError") || names.includes("DrainingConnectionError")) kind = "closed";
  return new NatsRequestError(kind, message);
}

function cancelled(signal: AbortSignal): NatsRequestError {
  const reason: unknown = signal.reason;
  return new NatsRequestError("cancelled", `the request was given up: ${reason instanceof Error ? reason.message : String(reason ?? "aborted")}`);
}

export function describeConnectError(err: unknown, servers: string): NatsConnectError {
  const chain = errorChain(err);
  const detail = chain.map((e) => e.message).filter(Boolean).join(": ") || String(err);
  return new NatsConnectError(redactServers(`could not connect to ${servers}: ${detail}`));
}

function toStatusEvent(s: Status): NatsStatusEvent | null {
  switch (s.type) {
    case "disconnect":
    case "reconnect":
      return { type: s.type, server: s.server };
    case "reconnecting":
      return { type: s.type };
    case "error":
      return { type: "error", message: s.error instanceof Error ? s.error.message : String(s.error) };
    default:
      return null;
  }
}

/** An NKey user seed: "SU" then base32 (RFC 4648 alphabet), 58 characters in all. */
const USER_SEED = /^SU[A-Z2-7]{56}$/;

/** What is wrong with the secrets, in words that never repeat them; null when they can be tried. */
export function authProblem(auth: NatsAuth | undefined): string | null {
  if (auth?.nkeySeed !== undefined && !USER_SEED.test(auth.nkeySeed.trim())) {
    return "the NKey seed is not a user seed: it starts with SU and has 58 characters (the public key, starting with U, is not enough)";
  }
  if (auth?.creds !== undefined && !/-----BEGIN NATS USER JWT-----/.test(auth.creds)) {
    return "the credentials are not a .creds file: it holds a NATS USER JWT block and an NKEY SEED block";
  }
  return null;
}

export function connectOptions(options: NatsConnectOptions, lib: NatsLibrary): Record<string, unknown> {
  const split = splitServerCredentials(options.servers, options.auth);
  const auth = split.auth ?? {};
  const problem = authProblem(auth);
  if (problem) throw new NatsConnectError(`could not connect to ${split.servers}: ${problem}`);
  const encode = (text: string) => new TextEncoder().encode(text.trim());
  return {
    // A comma-separated list is several servers; nats-core would read the whole string as one.
    servers: split.servers.split(",").map((s) => s.trim()).filter((s) => s !== ""),
    name: options.name ?? "patchbay",
    timeout: options.timeoutMs ?? 5000,
    // A server that restarts is reconnected to as soon as it is back, however long it was gone.
    maxReconnectAttempts: options.maxReconnectAttempts ?? -1,
    reconnectTimeWait: options.reconnectWaitMs ?? 1000,
    ...(auth.user ? { user: auth.user, pass: auth.pass ?? "" } : {}),
    ...(auth.token ? { token: auth.token } : {}),
    ...(auth.nkeySeed ? { authenticator: lib.nkeyAuthenticator(encode(auth.nkeySeed)) } : {}),
    ...(auth.creds ? { authenticator: lib.credsAuthenticator(encode(auth.creds)) } : {}),
  };
}

/** Wraps a live nats-core connection as the narrow port core code uses. */
export function adaptConnection(nc: NatsConnection, lib: NatsLibrary): NatsPort {
  const listeners = new Set<(e: NatsStatusEvent) => void>();
  const fire = (e: NatsStatusEvent) => listeners.forEach((l) => l(e));
  void (async () => {
    for await (const s of nc.status()) {
      const e = toStatusEvent(s);
      if (e) fire(e);
    }
  })().catch(() => {});
  nc.closed()
    .then((err) => fire(err ? { type: "closed", message: err.message } : { type: "closed" }))
    .catch(() => fire({ type: "closed" }));

  const toHdrs = (record: NatsHeaders | undefined): MsgHdrs | undefined => {
    if (!record || Object.keys(record).length === 0) return undefined;
    const h = lib.headers();
    for (const [k, values] of Object.entries(record)) for (const v of values) h.append(k, v);
    return h;
  };

  return {
    get server() {
      return nc.getServer();
    },
    node() {
      const info = nc.info;
      if (!info) return undefined;
      return {
        url: nc.getServer(),
        name: info.server_name || info.server_id,
        id: info.server_id,
        ...(info.cluster ? { cluster: info.cluster } : {}),
        version: info.version,
        // The server lists itself among the cluster's URLs.
        peers: (info.connect_urls ?? []).filter((u) => u !== nc.getServer() && u !== `${info.host}:${info.port}`),
      };
    },
    async request(subject, data, options) {
      const headers = toHdrs(options.headers);
      const signal = options.signal;
      if (signal?.aborted) throw cancelled(signal);
      try {
        const asked = nc.request(subject, data, {
          timeout: options.timeoutMs,
          ...(headers ? { headers } : {}),
        });
        // nats.js cannot take a request back: a reply (or its own timeout) after the abort is dropped.
        return toMessage(await (signal ? untilAborted(asked, signal, () => cancelled(signal)) : asked));
      } catch (err) {
        throw err instanceof NatsRequestError ? err : classifyRequestError(err);
      }
    },
    publish(subject, data, options) {
      const headers = toHdrs(options?.headers);
      nc.publish(subject, data, {
        ...(headers ? { headers } : {}),
        ...(options?.reply ? { reply: options.reply } : {}),
      });
    },
    subscribe(subject, onMessage, options) {
      const sub = nc.subscribe(subject, {
        ...(options?.queue ? { queue: options.queue } : {}),
        callback: (err, m) => {
          if (!err) onMessage(toMessage(m));
        },
      });
      return { unsubscribe: () => sub.unsubscribe() };
    },
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => nc.flush(),
    async close() {
      if (!nc.isClosed()) await nc.close();
    },
  };
}
