/**
 * The knobs of the local authorization server and its protected MCP server: each makes one
 * failure (or one variant the specification allows) on demand.
 */
export interface OAuthSwitches {
  /** Where the protected-resource metadata is: the path-inserted location, the root, a custom path (named in the challenge only) or nowhere. */
  prmAt: "path" | "root" | "custom" | "none";
  /** The challenge names the metadata URL (resource_metadata). */
  wwwResourceMetadata: boolean;
  /** The scope the first 401's challenge asks for; undefined leaves scope out. */
  wwwScope: string | undefined;
  /** scopes_supported in the resource metadata; undefined leaves it out. */
  prmScopes: string[] | undefined;
  /** A broken resource metadata document: not JSON, or speaking for a server on another origin. */
  prmBroken: "not-json" | "other-origin" | undefined;
  /** The authorization server's issuer path ("" or e.g. "/tenant1"). */
  asPrefix: string;
  /** Which document the AS serves: RFC 8414 metadata or an OpenID configuration (path-appended). */
  asDocument: "oauth" | "openid";
  /** A broken AS metadata document. */
  asBroken: "not-json" | "wrong-issuer" | "no-s256" | undefined;
  /** Dynamic registration: open, refused with 400, or not offered. */
  registration: "open" | "refuse" | "absent";
  /** Registration gives the client a secret (then client_secret_basic unless `secretMethod`). */
  issueSecret: boolean;
  secretMethod: "client_secret_basic" | "client_secret_post";
  /** token_endpoint_auth_methods_supported as advertised. */
  tokenAuthMethods: string[];
  cimd: boolean;
  /** auto approves at once; page shows Approve and Deny. */
  consent: "auto" | "page";
  /** The next authorizations answer error=access_denied. */
  deny: boolean;
  /** The next code exchange answers 400 invalid_grant. */
  codeRefused: boolean;
  /** Refresh grants answer 400 invalid_grant. */
  refreshRefused: boolean;
  accessTtlSeconds: number;
  /** initialize and notifications pass without a token; the token is asked for at the next request. */
  openInitialize: boolean;
  /** Which authorization server the resource metadata names (the second one is a migration, SEP-2352). */
  prmAuthServer: "first" | "second";
  /** A token from a code exchange expires at its first tools/call (answered 401 invalid_token); refreshed ones work. */
  expireAtFirstCall: boolean;
  /** The redirect carries iss (and the metadata promises it). */
  issInRedirect: boolean;
}

export const DEFAULT_SWITCHES: OAuthSwitches = {
  prmAt: "path",
  wwwResourceMetadata: true,
  wwwScope: "mcp:read",
  prmScopes: ["mcp:read", "mcp:write"],
  prmBroken: undefined,
  asPrefix: "",
  asDocument: "oauth",
  asBroken: undefined,
  registration: "open",
  issueSecret: false,
  secretMethod: "client_secret_basic",
  tokenAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
  cimd: false,
  consent: "auto",
  deny: false,
  codeRefused: false,
  refreshRefused: false,
  accessTtlSeconds: 3600,
  expireAtFirstCall: false,
  openInitialize: false,
  prmAuthServer: "first",
  issInRedirect: true,
};

/** The scope the write tool needs; a token without it gets 403 insufficient_scope. */
export const WRITE_SCOPE = "mcp:write";
