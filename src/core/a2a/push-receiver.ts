/**
 * Patchbay's own push-notification receivers, as the page reaches them through the backend API:
 * make one (its hook URL and token go into a push config), read what the agent POSTed to it,
 * delete it. The backend keeps each notification verbatim; reading it is left to push-notification.ts.
 */
import type { BackendClient } from "../backend/backend-client.ts";

export interface ReceiverMade {
  readonly id: string;
  /** The token the agent must send back (X-A2A-Notification-Token, or Authorization: Bearer). */
  readonly token: string;
  /** The hook's path on the backend, `/hooks/a2a/<id>`. */
  readonly path: string;
}

export interface ReceivedNotification {
  readonly seq: number;
  /** When the backend received it, ms since the epoch. */
  readonly at: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export interface ReceiverRead {
  readonly notifications: readonly ReceivedNotification[];
  /** How many the backend's bound let go, oldest first. */
  readonly dropped: number;
}

export interface PushReceiverApi {
  create(): Promise<ReceiverMade>;
  /** Notifications with a seq above `after`; rejects with status 404 when the receiver is gone. */
  read(id: string, after: number): Promise<ReceiverRead>;
  /** `keepalive` lets the request outlive the page, for deleting on unload. */
  remove(id: string, options?: { readonly keepalive?: boolean }): Promise<void>;
}

/** Whether an API error says the receiver is gone (deleted, dropped by the bound, or a restart). */
export function receiverGone(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { status?: unknown }).status === 404;
}

/** The receivers API over the backend client; `fetch` is the page's, used only for keepalive deletes. */
export function backendPushReceivers(backend: Pick<BackendClient, "call" | "connection">, fetch: typeof globalThis.fetch): PushReceiverApi {
  const path = (id: string) => `/a2a/push-receivers/${encodeURIComponent(id)}`;
  return {
    create: () => backend.call<ReceiverMade>("POST", "/a2a/push-receivers"),
    read: (id, after) => backend.call<ReceiverRead>("GET", `${path(id)}?after=${after}`),
    async remove(id, options = {}) {
      if (!options.keepalive) return backend.call<void>("DELETE", path(id));
      // The client's call cannot ask for keepalive, and a delete on unload needs it.
      const { baseUrl, token } = backend.connection();
      await fetch(`${baseUrl}/api${path(id)}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` }, keepalive: true });
    },
  };
}

/** The URL the agent posts to: the backend's public base (the page's origin when it serves the page) and the hook's path. */
export function hookUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path}`;
}
