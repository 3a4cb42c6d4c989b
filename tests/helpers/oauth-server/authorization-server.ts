/**
 * A local OAuth 2.1 authorization server for tests, written here: RFC 8414 metadata (or an
 * OpenID configuration), RFC 7591 registration, authorize with PKCE S256 (auto-consent, or a
 * consent page with Approve and Deny), and a token endpoint for authorization_code (verifying
 * the PKCE verifier, the redirect URI and the resource) and refresh_token, with none, Basic and
 * post client authentication. Every switch in `switches` bends one behaviour on demand.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OAuthSwitches } from "./switches.ts";

interface Client {
  readonly id: string;
  readonly secret?: string;
  readonly method: "none" | "client_secret_basic" | "client_secret_post";
  readonly redirectUris: readonly string[];
}

interface Authorization {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly resource: string | undefined;
  readonly scopes: readonly string[];
  readonly state: string | null;
}

export interface IssuedToken {
  readonly clientId: string;
  readonly scopes: readonly string[];
  expiresAt: number;
  readonly resource: string | undefined;
  /** Issued by a refresh_token grant. */
  readonly refreshed: boolean;
}

/** Equal, or (RFC 8252 §7.3) loopback URIs that differ only in the port. */
function sameRedirect(registered: string, given: string): boolean {
  if (registered === given) return true;
  try {
    const a = new URL(registered);
    const b = new URL(given);
    const loopback = (u: URL) => u.protocol === "http:" && (u.hostname === "127.0.0.1" || u.hostname === "[::1]");
    return loopback(a) && loopback(b) && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
  } catch {
    return false;
  }
}

const random = () => randomBytes(18).toString("base64url");
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers }).end(JSON.stringify(body));
}
const oauthError = (res: ServerResponse, status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  json(res, status, { error, error_description: description }, headers);
const html = (res: ServerResponse, status: number, body: string): void => void res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class TestAuthorizationServer {
  readonly clients = new Map<string, Client>();
  readonly tokens = new Map<string, IssuedToken>();
  readonly #codes = new Map<string, Authorization & { used: boolean }>();
  readonly #refresh = new Map<string, { clientId: string; scopes: readonly string[]; resource: string | undefined }>();
  readonly #waiting = new Map<string, Authorization>();
  readonly #switches: () => OAuthSwitches;
  base = "";

  readonly #prefix: string;

  /** `clientPrefix` starts the ids it registers, so two servers never issue the same one. */
  constructor(switches: () => OAuthSwitches, clientPrefix = "client") {
    this.#switches = switches;
    this.#prefix = clientPrefix;
  }

  get issuer(): string {
    return `${this.base}${this.#switches().asPrefix}`;
  }

  register(client: Client): void {
    this.clients.set(client.id, client);
  }

  metadataPath(): string {
    const s = this.#switches();
    return s.asDocument === "oauth" ? `/.well-known/oauth-authorization-server${s.asPrefix}` : `${s.asPrefix}/.well-known/openid-configuration`;
  }

  metadata(): Record<string, unknown> {
    const s = this.#switches();
    const at = (path: string) => `${this.issuer}${path}`;
    return {
      issuer: s.asBroken === "wrong-issuer" ? "https://impostor.example.com" : this.issuer,
      authorization_endpoint: at("/authorize"),
      token_endpoint: at("/token"),
      ...(s.registration !== "absent" ? { registration_endpoint: at("/register") } : {}),
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: s.asBroken === "no-s256" ? ["plain"] : ["S256"],
      token_endpoint_auth_methods_supported: s.tokenAuthMethods,
      scopes_supported: ["mcp:read", "mcp:write"],
      ...(s.cimd ? { client_id_metadata_document_supported: true } : {}),
      authorization_response_iss_parameter_supported: s.issInRedirect,
      ...(s.asDocument === "openid" ? { jwks_uri: at("/jwks.json"), subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] } : {}),
    };
  }

  /** Answers a request on the AS origin; false when the path is not the AS's. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, body: string): Promise<boolean> {
    const s = this.#switches();
    const p = s.asPrefix;
    if (req.method === "GET" && path === this.metadataPath()) {
      if (s.asBroken === "not-json") html(res, 200, "<!doctype html><title>Sign in</title><p>Welcome to the portal</p>");
      else json(res, 200, this.metadata());
      return true;
    }
    if (req.method === "POST" && path === `${p}/register` && s.registration !== "absent") return (this.#registration(res, body), true);
    if (req.method === "GET" && path === `${p}/authorize`) return (await this.#authorize(res, query), true);
    if (req.method === "POST" && path === `${p}/authorize/decision`) return (this.#decision(res, new URLSearchParams(body)), true);
    if (req.method === "POST" && path === `${p}/token`) return (this.#token(req, res, new URLSearchParams(body)), true);
    return false;
  }

  #registration(res: ServerResponse, body: string): void {
    const s = this.#switches();
    if (s.registration === "refuse") return oauthError(res, 400, "invalid_client_metadata", "registration is closed on this server");
    let doc: { redirect_uris?: unknown; client_name?: unknown };
    try {
      doc = JSON.parse(body) as typeof doc;
    } catch {
      return oauthError(res, 400, "invalid_client_metadata", "the body is not JSON");
    }
    const uris = doc.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === "string")) return oauthError(res, 400, "invalid_redirect_uri", "redirect_uris must list at least one URI");
    const client: Client = { id: `${this.#prefix}-${this.clients.size + 1}`, method: s.issueSecret ? s.secretMethod : "none", redirectUris: uris as string[], ...(s.issueSecret ? { secret: random() } : {}) };
    this.register(client);
    json(res, 201, { client_id: client.id, ...(client.secret ? { client_secret: client.secret, client_secret_expires_at: 0 } : {}), client_name: doc.client_name, redirect_uris: client.redirectUris, token_endpoint_auth_method: client.method });
  }

  async #client(id: string): Promise<Client | undefined> {
    const known = this.clients.get(id);
    if (known !== undefined || !this.#switches().cimd || !/^https?:\/\//.test(id)) return known;
    // A client ID metadata document: the client id is its URL; read it as a real server would.
    try {
      const doc = (await (await fetch(id)).json()) as { client_id?: unknown; redirect_uris?: unknown };
      if (doc.client_id !== id || !Array.isArray(doc.redirect_uris)) return undefined;
      return { id, method: "none", redirectUris: doc.redirect_uris as string[] };
    } catch {
      return undefined;
    }
  }

  async #authorize(res: ServerResponse, q: URLSearchParams): Promise<void> {
    const s = this.#switches();
    const client = await this.#client(q.get("client_id") ?? "");
    const redirectUri = q.get("redirect_uri") ?? "";
    // An unknown client or redirect is never redirected to: the page says so.
    if (client === undefined) return html(res, 400, "<h1>Unknown client</h1>");
    if (!client.redirectUris.some((r) => sameRedirect(r, redirectUri))) return html(res, 400, "<h1>The redirect URI is not registered for this client</h1>");
    const request: Authorization = {
      clientId: client.id,
      redirectUri,
      challenge: q.get("code_challenge") ?? "",
      resource: q.get("resource") ?? undefined,
      scopes: (q.get("scope") ?? "").split(" ").filter((x) => x !== ""),
      state: q.get("state"),
    };
    if (q.get("response_type") !== "code") return this.#back(res, request, { error: "unsupported_response_type" });
    if (request.challenge === "" || q.get("code_challenge_method") !== "S256") return this.#back(res, request, { error: "invalid_request", error_description: "PKCE S256 is required" });
    if (s.deny) return this.#back(res, request, { error: "access_denied", error_description: "The user said no" });
    if (s.consent === "auto") return this.#approve(res, request);
    const id = random();
    this.#waiting.set(id, request);
    const action = `${this.issuer}/authorize/decision`;
    html(
      res,
      200,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test authorization server: consent</title></head><body>
<h1>Allow ${escape(client.id)}?</h1><p>Scopes: <span id="scopes">${escape(request.scopes.join(" ") || "(none)")}</span></p>
<form method="post" action="${escape(action)}"><input type="hidden" name="request" value="${id}">
<button name="decision" value="approve">Approve</button> <button name="decision" value="deny">Deny</button></form></body></html>`,
    );
  }

  #decision(res: ServerResponse, form: URLSearchParams): void {
    const request = this.#waiting.get(form.get("request") ?? "");
    if (request === undefined) return html(res, 400, "<h1>No such authorization request</h1>");
    this.#waiting.delete(form.get("request") ?? "");
    if (form.get("decision") !== "approve") return this.#back(res, request, { error: "access_denied", error_description: "The user said no" });
    this.#approve(res, request);
  }

  #approve(res: ServerResponse, request: Authorization): void {
    const code = random();
    this.#codes.set(code, { ...request, used: false });
    this.#back(res, request, { code });
  }

  #back(res: ServerResponse, request: Authorization, params: Record<string, string>): void {
    const url = new URL(request.redirectUri);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    if (request.state !== null) url.searchParams.set("state", request.state);
    if (this.#switches().issInRedirect) url.searchParams.set("iss", this.issuer);
    res.writeHead(302, { location: url.href }).end();
  }

  /** The client a token request authenticates as, or the reason it does not. */
  #authenticate(req: IncomingMessage, form: URLSearchParams): Client | string {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map((x) => decodeURIComponent(x.replace(/\+/g, " ")));
      const client = this.clients.get(id ?? "");
      return client && client.method === "client_secret_basic" && client.secret === secret ? client : "Basic credentials do not match a client using client_secret_basic";
    }
    const id = form.get("client_id") ?? "";
    const client = this.clients.get(id) ?? (/^https?:\/\//.test(id) && this.#switches().cimd ? { id, method: "none" as const, redirectUris: [] } : undefined);
    if (client === undefined) return "unknown client";
    if (client.method === "client_secret_post") return form.get("client_secret") === client.secret ? client : "client_secret does not match";
    if (client.method === "client_secret_basic") return "this client must authenticate with client_secret_basic";
    return client;
  }

  #token(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void {
    const s = this.#switches();
    const client = this.#authenticate(req, form);
    if (typeof client === "string") return oauthError(res, 401, "invalid_client", client, { "www-authenticate": 'Basic realm="test-as"' });
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      if (s.codeRefused) return oauthError(res, 400, "invalid_grant", "the authorization code is invalid or expired");
      const code = this.#codes.get(form.get("code") ?? "");
      if (code === undefined || code.used) return oauthError(res, 400, "invalid_grant", "unknown or used code");
      code.used = true;
      if (code.clientId !== client.id) return oauthError(res, 400, "invalid_grant", "the code was issued to another client");
      if (code.redirectUri !== form.get("redirect_uri")) return oauthError(res, 400, "invalid_grant", "redirect_uri differs from the authorization request");
      if (s256(form.get("code_verifier") ?? "") !== code.challenge) return oauthError(res, 400, "invalid_grant", "PKCE verification failed");
      if (code.resource !== undefined && form.get("resource") !== code.resource) return oauthError(res, 400, "invalid_target", "resource differs from the authorization request");
      return this.#issue(res, client.id, code.scopes, code.resource, false);
    }
    if (grant === "refresh_token") {
      if (s.refreshRefused) return oauthError(res, 400, "invalid_grant", "the refresh token was revoked");
      const old = this.#refresh.get(form.get("refresh_token") ?? "");
      if (old === undefined || old.clientId !== client.id) return oauthError(res, 400, "invalid_grant", "unknown refresh token");
      this.#refresh.delete(form.get("refresh_token") ?? "");
      return this.#issue(res, client.id, old.scopes, old.resource, true);
    }
    oauthError(res, 400, "unsupported_grant_type", `grant_type ${grant ?? "(none)"} is not supported`);
  }

  #issue(res: ServerResponse, clientId: string, scopes: readonly string[], resource: string | undefined, refreshed: boolean): void {
    const ttl = this.#switches().accessTtlSeconds;
    const access = random();
    const refresh = random();
    this.tokens.set(access, { clientId, scopes, expiresAt: Date.now() + ttl * 1000, resource, refreshed });
    this.#refresh.set(refresh, { clientId, scopes, resource });
    json(res, 200, { access_token: access, token_type: "Bearer", expires_in: ttl, refresh_token: refresh, scope: scopes.join(" ") });
  }

  /** Every access token issued so far stops working now. */
  expireAccessTokens(): void {
    for (const t of this.tokens.values()) t.expiresAt = Date.now() - 1;
  }
}
