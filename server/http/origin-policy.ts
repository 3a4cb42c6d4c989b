/**
 * Host and Origin allow-lists. A page on another site, or a DNS name rebound to 127.0.0.1,
 * reaches this server with a foreign Origin or Host; both are refused before anything else runs.
 */

export interface OriginPolicyOptions {
  readonly port: number;
  /** The address the server listens on. */
  readonly boundHost: string;
  /** Set by --dangerously-expose: the bound address (and, for a wildcard, these addresses) are allowed too. */
  readonly exposed: boolean;
  readonly interfaceAddresses?: readonly string[];
  /** Extra origins (e.g. the Vite dev server), already normalized by `normalizeOrigin`. */
  readonly allowOrigins?: readonly string[];
}

export interface OriginPolicy {
  hostAllowed(host: string | undefined): boolean;
  originAllowed(origin: string | undefined): boolean;
  /** The allowed origins, e.g. to hand to nats-server's websocket allow-list. */
  readonly origins: ReadonlySet<string>;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"];
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]", "*"]);

/** `host:port` as it appears in a Host header, with IPv6 in brackets. */
export function hostWithPort(host: string, port: number): string {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  return `${bare.includes(":") ? `[${bare}]` : bare}:${port}`.toLowerCase();
}

/** True for 0.0.0.0, :: and friends. */
export function isWildcardHost(host: string): boolean {
  return WILDCARDS.has(host);
}

/** The canonical form of an origin (`scheme://host[:port]`), or null when `value` is not one. */
export function normalizeOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== "/") return null;
  return url.origin;
}

/** Build the policy for a server listening on `port`. */
export function originPolicy(options: OriginPolicyOptions): OriginPolicy {
  const { port } = options;
  const names = new Set(LOOPBACK_NAMES);
  const bound = options.boundHost;
  // A loopback bound address (e.g. 127.0.0.2) is as local as 127.0.0.1; others need the flag.
  if (!isWildcardHost(bound) && (options.exposed || isLoopbackAddress(bound))) names.add(bound);
  if (options.exposed && isWildcardHost(bound)) for (const a of options.interfaceAddresses ?? []) names.add(a);

  const hosts = new Set<string>();
  const origins = new Set<string>();
  for (const name of names) {
    const hp = hostWithPort(name, port);
    hosts.add(hp);
    origins.add(`http://${hp}`);
    if (port === 80) hosts.add(hp.slice(0, hp.lastIndexOf(":")));
  }
  for (const origin of options.allowOrigins ?? []) {
    origins.add(origin);
    // Dev proxies forward the browser's Host, which is the allowed origin's host.
    hosts.add(new URL(origin).host.toLowerCase());
  }
  return {
    origins,
    hostAllowed: (host) => host !== undefined && hosts.has(host.toLowerCase()),
    originAllowed: (origin) => origin === undefined || origins.has(origin.toLowerCase()),
  };
}

/** True for addresses that never leave this machine: 127.0.0.0/8, ::1 and the name localhost. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(bare);
  return v4 !== null && v4.slice(1).every((octet) => Number(octet) <= 255);
}
