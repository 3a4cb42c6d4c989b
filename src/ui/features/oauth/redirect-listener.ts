/**
 * Where the redirect page hands its address back: a postMessage from the popup (same origin
 * only) or the BroadcastChannel the page also posts on, for when the authorization server cut
 * the popup's link to its opener. Each URL received is acknowledged, so the page can close.
 */

export const REDIRECT_MESSAGE = "patchbay-oauth-redirect";
export const RECEIVED_MESSAGE = "patchbay-oauth-received";
export const CHANNEL_NAME = "patchbay-oauth";

export interface RedirectArrival {
  readonly url: string;
  /** The window it came from, when it came by postMessage (our popup, if we opened one). */
  readonly source: MessageEventSource | null;
}

/** The URL a message carries, when it is a redirect message from this origin. */
export function redirectOf(data: unknown, origin: string, ownOrigin: string): string | undefined {
  if (origin !== ownOrigin) return undefined;
  if (typeof data !== "object" || data === null) return undefined;
  const { type, url } = data as { type?: unknown; url?: unknown };
  if (type !== REDIRECT_MESSAGE || typeof url !== "string" || url.length > 16_384) return undefined;
  try {
    return new URL(url).origin === ownOrigin ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The `state` a redirect URL carries (query or fragment), or null. */
export function stateOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.searchParams.get("state") ?? new URLSearchParams(u.hash.slice(1)).get("state");
  } catch {
    return null;
  }
}

/** Listens on the window and the channel; returns the stop function. */
export function listenForRedirects(win: Window, onArrival: (arrival: RedirectArrival) => void): () => void {
  const own = win.location.origin;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL_NAME) : null;
  const ack = (url: string, source: MessageEventSource | null) => {
    const message = { type: RECEIVED_MESSAGE, url };
    if (source && "postMessage" in source) (source as Window).postMessage(message, own);
    channel?.postMessage(message);
  };
  const onMessage = (event: MessageEvent) => {
    const url = redirectOf(event.data, event.origin, own);
    if (url === undefined) return;
    ack(url, event.source);
    onArrival({ url, source: event.source });
  };
  // The channel carries only same-origin messages, so the origin is ours by construction.
  const onChannel = (event: MessageEvent) => {
    const url = redirectOf(event.data, own, own);
    if (url === undefined) return;
    ack(url, null);
    onArrival({ url, source: null });
  };
  win.addEventListener("message", onMessage);
  channel?.addEventListener("message", onChannel);
  return () => {
    win.removeEventListener("message", onMessage);
    channel?.close();
  };
}
