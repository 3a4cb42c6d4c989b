/**
 * The checks on the two metadata documents. Protected-resource metadata (RFC 9728) must speak
 * for this server (`resource` on its origin, covering its path) and name an authorization
 * server. Authorization-server metadata (RFC 8414) must carry the issuer it was fetched for
 * (§3.3), the endpoints the flow needs, and S256 among the PKCE methods, without which the MCP
 * specification says a client must not proceed.
 */
import { isLoopbackUrl, issuerProblem, resourceCovers } from "./discovery-urls.ts";
import type { Checked, Finding } from "./json-answer.ts";
import { stringList } from "./json-answer.ts";

export interface ResourceMetadata {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface AuthServerMetadata {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint?: string;
  readonly scopesSupported?: readonly string[];
  readonly grantTypes?: readonly string[];
  /** Absent means client_secret_basic (RFC 8414 §2). */
  readonly tokenAuthMethods?: readonly string[];
  readonly cimdSupported: boolean;
  /** RFC 9207: the authorization response carries `iss`, which must then be checked. */
  readonly issParameter: boolean;
  readonly raw: Readonly<Record<string, unknown>>;
}

const fail = <T>(reason: string, notes: Finding[]): Checked<T> => ({ ok: false, reason, notes });

function httpUrl(value: unknown): URL | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a protected-resource metadata document against the MCP server it was fetched for. */
export function checkResourceMetadata(doc: Record<string, unknown>, serverUrl: string): Checked<ResourceMetadata> {
  const notes: Finding[] = [];
  if (typeof doc.resource !== "string") return fail("the document has no resource member (RFC 9728 §2 requires it)", notes);
  const covers = resourceCovers(doc.resource, serverUrl);
  if (!covers.ok) return fail(covers.why, notes);
  notes.push({ level: "ok", text: `resource ${doc.resource} covers ${serverUrl}` });
  const servers = stringList(doc, "authorization_servers");
  if (servers.problem !== undefined) return fail(servers.problem, notes);
  if (servers.list === undefined || servers.list.length === 0) return fail("authorization_servers is missing or empty: the document names no authorization server", notes);
  const bad = servers.list.map((s) => issuerProblem(s)).find((p) => p !== undefined);
  if (bad !== undefined) return fail(`authorization_servers: ${bad}`, notes);
  if (servers.list.length > 1) notes.push({ level: "warn", text: `${servers.list.length} authorization servers are listed; the first, ${servers.list[0]}, is used` });
  const scopes = stringList(doc, "scopes_supported");
  if (scopes.problem !== undefined) return fail(scopes.problem, notes);
  const bearer = stringList(doc, "bearer_methods_supported");
  if (bearer.list !== undefined && !bearer.list.includes("header")) {
    notes.push({ level: "warn", text: `bearer_methods_supported (${bearer.list.join(", ")}) does not list header, the only way MCP sends a token` });
  }
  return {
    ok: true,
    value: { resource: doc.resource, authorizationServers: servers.list, ...(scopes.list ? { scopesSupported: scopes.list } : {}), raw: doc },
    notes,
  };
}

/** Equal, or equal once an empty path's trailing slash is added (as URL parsing would). */
function sameIssuer(got: string, want: string): "exact" | "normalized" | "different" {
  if (got === want) return "exact";
  try {
    return new URL(got).href === new URL(want).href ? "normalized" : "different";
  } catch {
    return "different";
  }
}

function endpoint(doc: Record<string, unknown>, name: string, issuer: URL, notes: Finding[]): URL | string {
  const url = httpUrl(doc[name]);
  if (url === undefined) return doc[name] === undefined ? `${name} is missing` : `${name} is not an http(s) URL`;
  if (url.origin !== issuer.origin) notes.push({ level: "warn", text: `${name} is on another origin (${url.origin}) than the issuer` });
  if (url.protocol === "http:" && !isLoopbackUrl(url.href)) notes.push({ level: "warn", text: `${name} is plain http on a non-loopback host; OAuth 2.1 requires TLS` });
  return url;
}

/**
 * Checks an authorization-server metadata document fetched for `issuer`. `legacy` (a 2025-03-26
 * server, whose origin stands in for an issuer it never published) makes a different issuer a warning.
 */
export function checkAuthServerMetadata(doc: Record<string, unknown>, issuer: string, legacy = false): Checked<AuthServerMetadata> {
  const notes: Finding[] = [];
  if (typeof doc.issuer !== "string") return fail("the document has no issuer member (RFC 8414 §2 requires it)", notes);
  const same = sameIssuer(doc.issuer, issuer);
  if (same === "different" && legacy) notes.push({ level: "warn", text: `issuer ${JSON.stringify(doc.issuer)} is not ${JSON.stringify(issuer)}; accepted, since a server without resource metadata names no issuer to hold it to` });
  else if (same === "different") return fail(`issuer ${JSON.stringify(doc.issuer)} does not match ${JSON.stringify(issuer)}, the issuer it was fetched for (RFC 8414 §3.3)`, notes);
  if (same === "normalized") notes.push({ level: "warn", text: `issuer ${JSON.stringify(doc.issuer)} equals ${JSON.stringify(issuer)} only once normalized (RFC 8414 §3.3 asks for identical strings)` });
  else notes.push({ level: "ok", text: `issuer matches ${issuer}` });
  const issuerUrl = new URL(doc.issuer);
  const authorization = endpoint(doc, "authorization_endpoint", issuerUrl, notes);
  if (typeof authorization === "string") return fail(authorization, notes);
  const token = endpoint(doc, "token_endpoint", issuerUrl, notes);
  if (typeof token === "string") return fail(token, notes);
  let registration: URL | undefined;
  if (doc.registration_endpoint !== undefined) {
    const r = endpoint(doc, "registration_endpoint", issuerUrl, notes);
    if (typeof r === "string") return fail(r, notes);
    registration = r;
  }
  const lists: Record<string, string[] | undefined> = {};
  for (const name of ["code_challenge_methods_supported", "response_types_supported", "grant_types_supported", "token_endpoint_auth_methods_supported", "scopes_supported"]) {
    const got = stringList(doc, name);
    if (got.problem !== undefined) return fail(got.problem, notes);
    lists[name] = got.list;
  }
  const pkce = lists.code_challenge_methods_supported;
  if (pkce === undefined) return fail("code_challenge_methods_supported is missing, so the server does not show PKCE support; the MCP specification says not to proceed", notes);
  if (!pkce.includes("S256")) return fail(`code_challenge_methods_supported (${pkce.join(", ") || "empty"}) lacks S256`, notes);
  notes.push({ level: "ok", text: "PKCE S256 supported" });
  if (lists.response_types_supported && !lists.response_types_supported.includes("code")) notes.push({ level: "warn", text: "response_types_supported does not list code" });
  const grants = lists.grant_types_supported;
  if (grants && !grants.includes("authorization_code")) return fail(`grant_types_supported (${grants.join(", ")}) lacks authorization_code`, notes);
  if (grants && !grants.includes("refresh_token")) notes.push({ level: "warn", text: "grant_types_supported does not list refresh_token: expect no refresh tokens" });
  const cimd = doc.client_id_metadata_document_supported === true;
  return {
    ok: true,
    value: {
      issuer: doc.issuer,
      authorizationEndpoint: authorization.href,
      tokenEndpoint: token.href,
      ...(registration ? { registrationEndpoint: registration.href } : {}),
      ...(lists.scopes_supported ? { scopesSupported: lists.scopes_supported } : {}),
      ...(grants ? { grantTypes: grants } : {}),
      ...(lists.token_endpoint_auth_methods_supported ? { tokenAuthMethods: lists.token_endpoint_auth_methods_supported } : {}),
      cimdSupported: cimd,
      issParameter: doc.authorization_response_iss_parameter_supported === true,
      raw: doc,
    },
    notes,
  };
}
