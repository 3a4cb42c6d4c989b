/**
 * The narrow NATS surface core code depends on. The browser adapter wraps `wsconnect` from
 * `@nats-io/nats-core`, the Node adapter wraps `@nats-io/transport-node`; core never imports
 * either at run time, so the transport is always injected.
 */

/** Header name to its values, in arrival order. */
export type NatsHeaders = Record<string, string[]>;

export interface NatsMessage {
  readonly subject: string;
  readonly reply?: string;
  readonly data: Uint8Array;
  readonly headers?: NatsHeaders;
  /** Set for server status messages (503 no responders, 408, …). */
  readonly status?: { readonly code: number; readonly description: string };
}

export interface NatsAuth {
  readonly user?: string;
  readonly pass?: string;
  readonly token?: string;
  /** An NKey user seed (`SU…`): the server sends a nonce and the seed signs it; it never leaves. */
  readonly nkeySeed?: string;
  /** The text of a `.creds` file (user JWT plus NKey seed), as `nsc` writes it. */
  readonly creds?: string;
}

export interface NatsConnectOptions {
  /** One URL, or several separated by commas (the nodes of a cluster). */
  readonly servers: string;
  readonly name?: string;
  readonly auth?: NatsAuth;
  readonly timeoutMs?: number;
  /** Pause between reconnect attempts to one server; default 1 s. */
  readonly reconnectWaitMs?: number;
  /** Reconnect attempts per server before the connection closes; default -1, never give up. */
  readonly maxReconnectAttempts?: number;
}

/** The server a connection is on, as that server describes itself. */
export interface NatsNode {
  /** The URL the client connected to. */
  readonly url: string;
  /** `server_name` (the node's name in a cluster; its id when none was set). */
  readonly name: string;
  readonly id: string;
  /** The cluster's name, when the server is in one. */
  readonly cluster?: string;
  readonly version: string;
  /** The other nodes' client URLs the server advertises. */
  readonly peers: readonly string[];
}

export type NatsStatusEvent =
  | { readonly type: "disconnect"; readonly server?: string }
  | { readonly type: "reconnecting" }
  | { readonly type: "reconnect"; readonly server?: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "closed"; readonly message?: string };

export interface NatsRequestOptions {
  readonly headers?: NatsHeaders;
  readonly timeoutMs: number;
  /** Gives up on the reply: the request fails at once ("cancelled"), and a reply that comes later is dropped. */
  readonly signal?: AbortSignal;
}

export type NatsRequestFailureKind = "no-responders" | "timeout" | "permission" | "closed" | "cancelled" | "other";

/** A request that got no reply message. Server status replies are failures too (503). */
export class NatsRequestError extends Error {
  override readonly name = "NatsRequestError";
  readonly kind: NatsRequestFailureKind;
  constructor(kind: NatsRequestFailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export class NatsConnectError extends Error {
  override readonly name = "NatsConnectError";
}

export interface NatsSubscription {
  unsubscribe(): void;
}

export interface NatsPort {
  /** The server the connection is on now (it changes on a reconnect to another node), for display. */
  readonly server: string;
  /** What that server says of itself; undefined where unknown (tests' in-memory buses). */
  node?(): NatsNode | undefined;
  request(subject: string, data: Uint8Array, options: NatsRequestOptions): Promise<NatsMessage>;
  publish(subject: string, data: Uint8Array, options?: { headers?: NatsHeaders; reply?: string }): void;
  subscribe(subject: string, onMessage: (msg: NatsMessage) => void, options?: { queue?: string }): NatsSubscription;
  onStatus(listener: (event: NatsStatusEvent) => void): () => void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface NatsConnector {
  connect(options: NatsConnectOptions): Promise<NatsPort>;
}
