/**
 * Where the metadata documents are looked for. Protected-resource metadata (RFC 9728 §3.1): the
 * well-known suffix is inserted between the host and the resource's path, and the MCP
 * specification adds the root location as a fallback. Authorization-server metadata (RFC 8414
 * §3.1, with OpenID Connect Discovery as the MCP specification lists it): path insertion for
 * both suffixes, then the OpenID path-appending form.
 */

export const PRM_SUFFIX = "/.well-known/oauth-protected-resource";
export const OAUTH_AS_SUFFIX = "/.well-known/oauth-authorization-server";
export const OPENID_SUFFIX = "/.well-known/openid-configuration";

/** The path without a terminating slash ("" for the root). */
function trimmedPath(url: URL): string {
  return url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
}

/**
 * The server URL as a resource indicator (RFC 8707 §2): absolute, without a fragment, otherwise
 * as given; a URL parser would add a "/" to a pathless one, which servers compare as different.
 */
export function canonicalResource(serverUrl: string): string {
  new URL(serverUrl);
  const hash = serverUrl.indexOf("#");
  return (hash < 0 ? serverUrl : serverUrl.slice(0, hash)).trim();
}

/**
 * The protected-resource metadata URLs to try for an MCP server URL, in order: the path-inserted
 * location (keeping a query, as RFC 9728 says), then the root location.
 */
export function protectedResourceMetadataUrls(serverUrl: string): string[] {
  const url = new URL(serverUrl);
  const path = trimmedPath(url);
  const root = `${url.origin}${PRM_SUFFIX}`;
  if (path === "" && url.search === "") return [root];
  return [`${url.origin}${PRM_SUFFIX}${path}${url.search}`, root];
}


/** Why a string cannot be an issuer identifier (RFC 8414 §2), or undefined when it can. */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `${JSON.stringify(issuer.slice(0, 200))} is not an absolute URL`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `the issuer ${issuer} is not an http(s) URL`;
  if (url.search !== "" || url.hash !== "") return `the issuer ${issuer} has a query or fragment, which RFC 8414 §2 forbids`;
  return undefined;
}

/** The authorization-server metadata URLs to try for an issuer, in the order the MCP specification gives. */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = trimmedPath(url);
  if (path === "") return [`${url.origin}${OAUTH_AS_SUFFIX}`, `${url.origin}${OPENID_SUFFIX}`];
  return [`${url.origin}${OAUTH_AS_SUFFIX}${path}`, `${url.origin}${OPENID_SUFFIX}${path}`, `${url.origin}${path}${OPENID_SUFFIX}`];
}

/**
 * Whether the resource a metadata document names covers the MCP server's URL: the same origin,
 * and a path equal to the server's or a parent of it by whole segments. A different origin is
 * named as such, since it means the document speaks for another server.
 */
export function resourceCovers(resource: string, serverUrl: string): { ok: true } | { ok: false; why: string } {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return { ok: false, why: `resource ${JSON.stringify(resource.slice(0, 200))} is not an absolute URL` };
  }
  const server = new URL(serverUrl);
  if (named.origin !== server.origin) {
    return { ok: false, why: `resource ${named.href} is on another origin (${named.origin}) than the MCP server (${server.origin})` };
  }
  const want = trimmedPath(server).split("/");
  const have = trimmedPath(named).split("/");
  const parent = have.length <= want.length && have.every((segment, i) => segment === want[i]);
  if (!parent) return { ok: false, why: `resource ${named.href} names another path than the MCP server's (${server.pathname})` };
  return { ok: true };
}

/** True for http URLs on a loopback host, where OAuth 2.1 allows plain HTTP. */
export function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}
