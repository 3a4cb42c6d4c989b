/**
 * Token requests (authorization_code with the PKCE verifier, refresh_token) with the resource
 * indicator and the chosen client authentication, and the reading of their answers.
 */
import { applyClientAuth, type ClientIdentity, type TokenAuthMethod } from "./client.ts";
import type { OAuthRequest, OAuthResponse } from "./exchange.ts";
import { jsonObjectOf, statusProblem, type Checked, type Finding } from "./json-answer.ts";
import { scopeList } from "./www-authenticate.ts";

export interface Tokens {
  readonly accessToken: string;
  readonly tokenType: string;
  readonly refreshToken?: string;
  /** Wall time (ms since the epoch) the access token expires, when the server said. */
  readonly expiresAt?: number;
  readonly scopes: readonly string[];
  readonly obtainedAt: number;
}

export type Grant =
  | { readonly type: "authorization_code"; readonly code: string; readonly redirectUri: string; readonly verifier: string }
  | { readonly type: "refresh_token"; readonly refreshToken: string };

export function tokenRequest(endpoint: string, grant: Grant, client: ClientIdentity, method: TokenAuthMethod, resource: string): OAuthRequest {
  const form = new URLSearchParams();
  form.set("grant_type", grant.type);
  if (grant.type === "authorization_code") {
    form.set("code", grant.code);
    form.set("redirect_uri", grant.redirectUri);
    form.set("code_verifier", grant.verifier);
  } else form.set("refresh_token", grant.refreshToken);
  form.set("resource", resource);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  applyClientAuth(method, client, form, headers);
  return { method: "POST", url: endpoint, headers, body: form.toString() };
}

/**
 * A token answer: 200 with access_token and a Bearer token_type. An error status is named by its
 * OAuth error (invalid_grant, invalid_client, …). `previous` supplies what a refresh answer may
 * leave out (the refresh token, the scopes).
 */
export function readTokens(response: OAuthResponse, now: number, requested: readonly string[], previous?: Tokens): Checked<Tokens> {
  if (response.status !== 200) return { ok: false, reason: `the token endpoint refused: ${statusProblem(response)}`, notes: [] };
  const doc = jsonObjectOf(response, "token answer");
  if (!doc.ok) return doc;
  const notes: Finding[] = [...doc.notes];
  const v = doc.value;
  if (typeof v.access_token !== "string" || v.access_token === "") return { ok: false, reason: "the token answer has no access_token", notes };
  if (typeof v.token_type !== "string") return { ok: false, reason: "the token answer has no token_type", notes };
  if (v.token_type.toLowerCase() !== "bearer") return { ok: false, reason: `token_type ${v.token_type} is not Bearer; Patchbay sends bearer tokens only`, notes };
  let expiresAt: number | undefined;
  if (typeof v.expires_in === "number" && Number.isFinite(v.expires_in) && v.expires_in >= 0) expiresAt = now + v.expires_in * 1000;
  else if (v.expires_in !== undefined) notes.push({ level: "warn", text: "expires_in is not a number of seconds; the expiry is unknown" });
  else notes.push({ level: "warn", text: "no expires_in: the expiry is unknown until the server refuses the token" });
  const refresh = typeof v.refresh_token === "string" && v.refresh_token !== "" ? v.refresh_token : previous?.refreshToken;
  if (refresh === undefined) notes.push({ level: "warn", text: "no refresh_token: when the access token expires, authorize again" });
  const scopes = typeof v.scope === "string" ? scopeList(v.scope) : (previous?.scopes ?? requested);
  const missing = requested.filter((s) => !scopes.includes(s));
  if (typeof v.scope === "string" && missing.length > 0) notes.push({ level: "warn", text: `granted without ${missing.join(" ")}` });
  notes.push({ level: "ok", text: `a Bearer token${expiresAt !== undefined ? ` for ${v.expires_in} s` : ""}${refresh !== undefined ? ", with a refresh token" : ""}` });
  return {
    ok: true,
    value: { accessToken: v.access_token, tokenType: "Bearer", ...(refresh !== undefined ? { refreshToken: refresh } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}), scopes, obtainedAt: now },
    notes,
  };
}

/** True when the token is past its expiry, or within `marginMs` of it. */
export function isExpired(tokens: Tokens, now: number, marginMs = 0): boolean {
  return tokens.expiresAt !== undefined && now + marginMs >= tokens.expiresAt;
}
