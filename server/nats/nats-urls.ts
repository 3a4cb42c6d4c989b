/** Checks and display forms for NATS server URLs given by the user. */

const CLIENT_SCHEMES = new Set(["nats:", "tls:", "ws:", "wss:"]);
const WS_SCHEMES = new Set(["ws:", "wss:"]);

/** Why `value` is not a usable NATS URL list (comma-separated), or null when it is. */
export function natsUrlProblem(value: string, websocketOnly = false): string | null {
  const allowed = websocketOnly ? WS_SCHEMES : CLIENT_SCHEMES;
  for (const part of value.split(",")) {
    let url: URL;
    try {
      url = new URL(part.trim());
    } catch {
      return `${JSON.stringify(redactUrl(part.trim()))} is not a URL`;
    }
    if (!allowed.has(url.protocol)) {
      return `${JSON.stringify(redactUrl(part.trim()))} must start with ${[...allowed].map((s) => `${s}//`).join(" or ")}`;
    }
  }
  return null;
}

/** The URL with any user:password@ replaced, safe to print or return from /api/status. */
export function redactUrl(value: string): string {
  return value.replace(/(\/\/)[^/@]*@/g, "$1***@");
}

/** True when the URL list is a browser-reachable WebSocket URL. */
export function isWebSocketUrl(value: string): boolean {
  return /^wss?:\/\//i.test(value.trim());
}
