/**
 * Who the client is at the authorization server, and how it proves it at the token endpoint:
 * registered dynamically (RFC 7591), named by a client ID metadata document URL, or
 * pre-registered with an id and maybe a secret typed by the user.
 */
import type { OAuthRequest, OAuthResponse } from "./exchange.ts";
import { jsonObjectOf, statusProblem, type Checked, type Finding } from "./json-answer.ts";
import type { AuthServerMetadata } from "./metadata.ts";
import { encodeBase64 } from "../wire/index.ts";

export type TokenAuthMethod = "none" | "client_secret_basic" | "client_secret_post";
export const TOKEN_AUTH_METHODS: readonly TokenAuthMethod[] = ["none", "client_secret_basic", "client_secret_post"];

/** How the user wants the client identified. */
export type ClientChoice =
  /** What the server offers; `metadataUrl`, when given, is used where the server supports metadata documents. */
  | { readonly kind: "auto"; readonly metadataUrl?: string }
  | { readonly kind: "dynamic" }
  | { readonly kind: "metadata-document"; readonly url: string }
  | { readonly kind: "pre-registered"; readonly clientId: string; readonly clientSecret?: string; readonly authMethod?: TokenAuthMethod };

export interface ClientIdentity {
  readonly how: "dynamic" | "metadata-document" | "pre-registered";
  readonly clientId: string;
  readonly clientSecret?: string;
  /** What the registration said, or the user chose; settled against the server's list at the token endpoint. */
  readonly authMethod?: TokenAuthMethod;
}

/** Which way `auto` goes for this server, or why none can. */
export function resolveChoice(choice: ClientChoice, as: AuthServerMetadata): { kind: ClientChoice["kind"]; why: string } | { problem: string } {
  if (choice.kind !== "auto") return { kind: choice.kind, why: "chosen in the settings" };
  if (as.cimdSupported && choice.metadataUrl) return { kind: "metadata-document", why: "the server supports client ID metadata documents and one is given" };
  if (as.registrationEndpoint) return { kind: "dynamic", why: "the server offers dynamic registration" };
  return { problem: "the authorization server offers no dynamic registration (no registration_endpoint) and no client ID metadata documents; enter a pre-registered client id" };
}

/** The RFC 7591 registration request: a public client (no secret) with the loopback redirect. */
export function registrationRequest(endpoint: string, redirectUri: string, scope: string | undefined, clientName: string): OAuthRequest {
  const body = {
    client_name: clientName,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    // A loopback redirect is a native client's (RFC 8252); SEP-837 asks for application_type.
    application_type: "native",
    ...(scope ? { scope } : {}),
  };
  return { method: "POST", url: endpoint, headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) };
}

const isMethod = (m: unknown): m is TokenAuthMethod => typeof m === "string" && (TOKEN_AUTH_METHODS as readonly string[]).includes(m);

/** The registration answer: 201 (or 200) with a client_id; an error status is a refusal named with its OAuth error. */
export function readRegistration(response: OAuthResponse): Checked<ClientIdentity> {
  if (response.status !== 201 && response.status !== 200) return { ok: false, reason: `the authorization server refused the registration: ${statusProblem(response)}`, notes: [] };
  const doc = jsonObjectOf(response, "registration answer");
  if (!doc.ok) return doc;
  const notes: Finding[] = [...doc.notes];
  const v = doc.value;
  if (typeof v.client_id !== "string" || v.client_id === "") return { ok: false, reason: "the registration answer has no client_id", notes };
  if (response.status === 200) notes.push({ level: "warn", text: "registration answered 200; RFC 7591 §3.2.1 says 201 Created" });
  const secret = typeof v.client_secret === "string" && v.client_secret !== "" ? v.client_secret : undefined;
  const method = isMethod(v.token_endpoint_auth_method) ? v.token_endpoint_auth_method : undefined;
  if (v.token_endpoint_auth_method !== undefined && method === undefined) notes.push({ level: "warn", text: `token_endpoint_auth_method ${JSON.stringify(v.token_endpoint_auth_method)} is not one Patchbay speaks` });
  if (typeof v.client_secret_expires_at === "number" && v.client_secret_expires_at > 0) notes.push({ level: "ok", text: `the client secret expires at ${new Date(v.client_secret_expires_at * 1000).toISOString()}` });
  notes.push({ level: "ok", text: `registered as client ${v.client_id}${secret ? " with a secret" : " (public client)"}` });
  return { ok: true, value: { how: "dynamic", clientId: v.client_id, ...(secret ? { clientSecret: secret } : {}), ...(method ? { authMethod: method } : {}) }, notes };
}

/** A client ID metadata document URL must be https with a path (plain http only on loopback, for tests). */
export function metadataDocumentProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `the client ID metadata document URL ${JSON.stringify(url.slice(0, 200))} is not an absolute URL`;
  }
  const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(parsed.hostname);
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopback)) return "a client ID metadata document URL must be https";
  if (parsed.pathname === "/" || parsed.pathname === "") return "a client ID metadata document URL must have a path";
  if (parsed.hash !== "") return "a client ID metadata document URL must not have a fragment";
  return undefined;
}

/** Checks the fetched client metadata document: it names itself as client_id and lists our redirect. */
export function checkMetadataDocument(response: OAuthResponse, url: string, redirectUri: string): Checked<ClientIdentity> {
  if (response.status !== 200) return { ok: false, reason: `the client ID metadata document could not be read: ${statusProblem(response)}`, notes: [] };
  const doc = jsonObjectOf(response, "client ID metadata document");
  if (!doc.ok) return doc;
  const notes: Finding[] = [...doc.notes];
  if (doc.value.client_id !== url) return { ok: false, reason: `the document's client_id ${JSON.stringify(doc.value.client_id)} is not its own URL ${url}`, notes };
  const uris = doc.value.redirect_uris;
  if (!Array.isArray(uris) || !uris.includes(redirectUri)) return { ok: false, reason: `the document's redirect_uris do not list ${redirectUri}, Patchbay's redirect URI`, notes };
  notes.push({ level: "ok", text: "client_id and redirect_uris check out" });
  return { ok: true, value: { how: "metadata-document", clientId: url, authMethod: "none" }, notes };
}

/**
 * How to authenticate at the token endpoint: none without a secret; with one, the method the
 * registration named, else the first of basic and post the server lists (basic when it lists none,
 * the RFC 8414 default).
 */
export function chooseAuthMethod(client: ClientIdentity, as: AuthServerMetadata): { method: TokenAuthMethod; note?: string } {
  if (client.clientSecret === undefined) return { method: "none" };
  const offered = as.tokenAuthMethods ?? ["client_secret_basic"];
  if (client.authMethod && client.authMethod !== "none") {
    const note = offered.includes(client.authMethod) ? undefined : `${client.authMethod} is not in token_endpoint_auth_methods_supported (${offered.join(", ")}); used as registered`;
    return { method: client.authMethod, ...(note ? { note } : {}) };
  }
  if (client.authMethod === "none") return { method: "none" };
  const method = (["client_secret_basic", "client_secret_post"] as const).find((m) => offered.includes(m));
  if (method) return { method };
  return { method: "client_secret_basic", note: `the server lists neither client_secret_basic nor client_secret_post (${offered.join(", ")}); trying client_secret_basic` };
}

/** Form-urlencode for the Basic credentials (RFC 6749 §2.3.1). */
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

/** The token request's client authentication: a Basic header, or members of the form body. */
export function applyClientAuth(method: TokenAuthMethod, client: ClientIdentity, form: URLSearchParams, headers: Record<string, string>): void {
  if (method === "client_secret_basic" && client.clientSecret !== undefined) {
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${encodeBase64(new TextEncoder().encode(pair))}`;
    return;
  }
  form.set("client_id", client.clientId);
  if (method === "client_secret_post" && client.clientSecret !== undefined) form.set("client_secret", client.clientSecret);
}
