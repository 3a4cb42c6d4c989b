/**
 * The authorization request (OAuth 2.1 with PKCE S256, `state`, and the RFC 8707 `resource`)
 * and the reading of the redirect that answers it: the error it names, a `state` that must be
 * the one sent (else nothing is exchanged), and the RFC 9207 `iss` when the server promises it.
 */
import { scopeList } from "./www-authenticate.ts";

export interface AuthorizationParams {
  readonly endpoint: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly state: string;
  readonly resource: string;
  readonly scopes: readonly string[];
}

/** The URL the user opens; the endpoint's own query is kept (RFC 6749 §3.1). */
export function authorizationUrl(p: AuthorizationParams): string {
  const url = new URL(p.endpoint);
  const q = url.searchParams;
  q.set("response_type", "code");
  q.set("client_id", p.clientId);
  q.set("redirect_uri", p.redirectUri);
  q.set("code_challenge", p.codeChallenge);
  q.set("code_challenge_method", "S256");
  q.set("state", p.state);
  q.set("resource", p.resource);
  if (p.scopes.length > 0) q.set("scope", p.scopes.join(" "));
  return url.href;
}

export interface Expected {
  readonly state: string;
  readonly redirectUri: string;
  readonly issuer: string;
  /** The server advertised authorization_response_iss_parameter_supported. */
  readonly issRequired: boolean;
}

export type RedirectReading =
  | { readonly kind: "code"; readonly code: string; readonly notes: readonly string[] }
  /** The server refused (error=…): named, and the flow can try again. */
  | { readonly kind: "error"; readonly error: string; readonly reason: string }
  /** Not an answer Patchbay will act on (malformed, wrong state, wrong iss): nothing is exchanged. */
  | { readonly kind: "refused"; readonly reason: string };

/** Reads a redirect URL (from the callback page or pasted by the user) against what was sent. */
export function readRedirect(text: string, expected: Expected): RedirectReading {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { kind: "refused", reason: "that is not a URL; paste the whole address the authorization server sent the browser to" };
  }
  const notes: string[] = [];
  const want = new URL(expected.redirectUri);
  if (url.origin !== want.origin || url.pathname !== want.pathname) notes.push(`the URL is not the redirect URI ${expected.redirectUri}; read anyway`);
  // A fragment answer (response_mode=fragment) carries the same parameters.
  const q = url.searchParams.has("state") || url.searchParams.has("code") || url.searchParams.has("error") ? url.searchParams : new URLSearchParams(url.hash.slice(1));
  const state = q.get("state");
  if (state === null) return { kind: "refused", reason: "the redirect carries no state, so it cannot be matched to this authorization; nothing was exchanged" };
  if (state !== expected.state) return { kind: "refused", reason: "the redirect's state does not match the one sent (another or an old authorization, or forged); nothing was exchanged" };
  const iss = q.get("iss");
  if (iss !== null && iss !== expected.issuer) return { kind: "refused", reason: `the redirect's iss ${JSON.stringify(iss)} is not the issuer ${expected.issuer} (RFC 9207: a mix-up); nothing was exchanged` };
  if (iss === null && expected.issRequired) return { kind: "refused", reason: "the server promised iss in its answer (authorization_response_iss_parameter_supported) and sent none (RFC 9207); nothing was exchanged" };
  const error = q.get("error");
  if (error !== null) {
    const description = q.get("error_description");
    return { kind: "error", error, reason: `the authorization server answered error=${error}${description ? ` (${description})` : ""}` };
  }
  const code = q.get("code");
  if (code === null || code === "") return { kind: "refused", reason: "the redirect carries neither code nor error" };
  return { kind: "code", code, notes };
}

/**
 * The scopes to ask for (MCP scope selection): what the server's challenge names, else all the
 * resource metadata lists, else none (the parameter is then left out).
 */
export function selectScopes(challengeScope: string | undefined, resourceScopes: readonly string[] | undefined): { scopes: string[]; from: string } {
  const challenged = scopeList(challengeScope);
  if (challenged.length > 0) return { scopes: challenged, from: "the scope of the WWW-Authenticate challenge" };
  if (resourceScopes && resourceScopes.length > 0) return { scopes: [...resourceScopes], from: "scopes_supported of the resource metadata" };
  return { scopes: [], from: "nothing (no challenge scope, no scopes_supported): the scope parameter is left out" };
}

/** The scopes for a step-up: what was asked before plus what the 403 challenge names. */
export function stepUpScopes(previous: readonly string[], challengeScope: string | undefined): string[] {
  return [...new Set([...previous, ...scopeList(challengeScope)])];
}
