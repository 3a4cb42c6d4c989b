/**
 * The discovery steps: the request without a token and its challenge, the protected-resource
 * metadata (the challenge's resource_metadata, else the well-known locations), and the
 * authorization server's metadata. Each records what it tried and ends with a verdict.
 */
import { authorizationServerMetadataUrls, protectedResourceMetadataUrls } from "./discovery-urls.ts";
import { describeResult, header, type OAuthRequest } from "./exchange.ts";
import { jsonObjectOf, type Checked } from "./json-answer.ts";
import { checkAuthServerMetadata, checkResourceMetadata, type AuthServerMetadata, type ResourceMetadata } from "./metadata.ts";
import { withEnvelope } from "../mcp/envelope.ts";
import { MODERN_VERSION } from "../mcp/era.ts";
import { standardHeaders } from "../mcp/modern-headers.ts";
import { sendProblem, type StepRun } from "./step-run.ts";
import { bearerChallenge, type Challenge } from "./www-authenticate.ts";

export const PROBE_PROTOCOL_VERSION = "2025-11-25";

/** An MCP initialize request to the server, with or without a token. */
export function initializeRequest(serverUrl: string, accessToken?: string): OAuthRequest {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: PROBE_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "patchbay-oauth", version: "0.1.0" } },
  };
  return {
    method: "POST",
    url: serverUrl,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(accessToken !== undefined ? { authorization: `Bearer ${accessToken}` } : {}) },
    body: JSON.stringify(body),
  };
}

/**
 * The 2026-07-28 era's request for a server that refuses initialize: server/discover with the
 * `_meta` envelope and the Mcp-* headers that era asks of every request.
 */
export function discoverRequest(serverUrl: string, accessToken?: string): OAuthRequest {
  const params = withEnvelope(undefined, { protocolVersion: MODERN_VERSION, clientInfo: { name: "patchbay-oauth", version: "0.1.0" }, clientCapabilities: {} });
  const body = { jsonrpc: "2.0", id: 1, method: "server/discover", params };
  return {
    method: "POST",
    url: serverUrl,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...standardHeaders(body),
      ...(accessToken !== undefined ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    body: JSON.stringify(body),
  };
}

/** The probe: expect a 401 (or 403) and read its Bearer challenge. Undefined means the step failed. */
export async function probeStep(run: StepRun, serverUrl: string): Promise<{ challenge?: Challenge } | undefined> {
  const result = await run.send(initializeRequest(serverUrl));
  if (!result.ok) {
    run.fail(sendProblem("the request to the MCP server", result));
    return undefined;
  }
  const { status } = result.response;
  const www = header(result.response, "www-authenticate");
  const challenge = bearerChallenge(www);
  if (status === 401 || status === 403) {
    if (challenge === undefined) {
      run.note("warn", www === undefined ? `HTTP ${status} without WWW-Authenticate: discovery uses the well-known locations` : `HTTP ${status} with no Bearer challenge in WWW-Authenticate: ${www}`);
    } else {
      run.note("ok", `HTTP ${status} with a Bearer challenge`);
      const p = challenge.params;
      if (p.resource_metadata !== undefined) run.note("ok", `resource_metadata: ${p.resource_metadata}`);
      else run.note("warn", "the challenge has no resource_metadata: discovery uses the well-known locations");
      if (p.scope !== undefined) run.note("ok", `scope asked for: ${p.scope}`);
      if (p.error !== undefined) run.note("ok", `error: ${p.error}${p.error_description ? ` (${p.error_description})` : ""}`);
    }
  } else if (status >= 200 && status < 300) {
    run.note("warn", `HTTP ${status}: the server answered without a token, so it does not ask for authorization here; discovery goes on`);
  } else {
    run.note("warn", `HTTP ${status}, not 401: if discovery finds nothing, check the server URL`);
  }
  run.pass();
  return challenge ? { challenge } : {};
}

/**
 * The first location with a JSON object that `check` accepts. A location without one (no 200, a
 * failure) is a miss; a 200 that is not a JSON object is remembered and the next one tried; an
 * object that fails `check` ends the search with that failure.
 */
async function firstDocument<T>(
  run: StepRun,
  urls: readonly string[],
  what: string,
  check: (doc: Record<string, unknown>) => Checked<T>,
): Promise<{ found: T } | { refused: string } | { misses: string[]; badDocument?: string }> {
  const misses: string[] = [];
  let badDocument: string | undefined;
  for (const url of urls) {
    const { result } = await run.getFollowing(url);
    if (!result.ok || result.response.status !== 200) {
      misses.push(`${url} (${result.ok ? `HTTP ${result.response.status}` : describeResult(result)})`);
      continue;
    }
    const doc = jsonObjectOf(result.response, what);
    run.notes(doc.notes);
    if (!doc.ok) {
      badDocument ??= `${url}: ${doc.reason}`;
      continue;
    }
    const checked = check(doc.value);
    run.notes(checked.notes);
    if (!checked.ok) return { refused: `${url}: ${checked.reason}` };
    return { found: checked.value };
  }
  return { misses, ...(badDocument !== undefined ? { badDocument } : {}) };
}

export type ResourceOutcome = { readonly resource: ResourceMetadata; readonly issuer: string } | { readonly legacy: true; readonly issuer: string } | undefined;

/**
 * Protected-resource metadata. A 200 that is not a usable document is remembered and the next
 * location tried; a document that speaks for another server fails the step. When no location has
 * a document at all, the 2025-03-26 rule applies: the server's origin is the authorization server.
 */
export async function resourceMetadataStep(run: StepRun, serverUrl: string, challenge: Challenge | undefined): Promise<ResourceOutcome> {
  const candidates: string[] = [];
  const fromHeader = challenge?.params.resource_metadata;
  if (fromHeader !== undefined) {
    try {
      const url = new URL(fromHeader);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("scheme");
      candidates.push(url.href);
    } catch {
      run.note("warn", `resource_metadata ${JSON.stringify(fromHeader.slice(0, 200))} is not an http(s) URL; ignored`);
    }
  }
  for (const url of protectedResourceMetadataUrls(serverUrl)) if (!candidates.includes(url)) candidates.push(url);
  const got = await firstDocument(run, candidates, "protected-resource metadata", (doc) => checkResourceMetadata(doc, serverUrl));
  if ("refused" in got) return void run.fail(got.refused);
  if ("found" in got) {
    run.pass();
    return { resource: got.found, issuer: got.found.authorizationServers[0]! };
  }
  const { misses, badDocument } = got;
  if (badDocument !== undefined) {
    run.fail(badDocument);
    return undefined;
  }
  if (misses.some((m) => !/\(HTTP 40[45]\)$/.test(m))) {
    run.fail(`no protected-resource metadata: ${misses.join("; ")}`);
    return undefined;
  }
  const issuer = new URL(serverUrl).origin;
  run.note("warn", `no protected-resource metadata at ${misses.join(", ")}; as in the 2025-03-26 specification, the server's origin ${issuer} is taken as the authorization server`);
  run.pass();
  return { legacy: true, issuer };
}

/**
 * Authorization-server metadata for `issuer`: each well-known location in turn. A document that
 * is not JSON moves on to the next; one that fails the checks (issuer, endpoints, S256) fails the step.
 * For a server without resource metadata (`legacy`), no document at all means the 2025-03-26
 * default endpoints at the server's origin.
 */
export async function authServerStep(run: StepRun, issuer: string, legacy = false): Promise<AuthServerMetadata | undefined> {
  const got = await firstDocument(run, authorizationServerMetadataUrls(issuer), "authorization-server metadata", (doc) => checkAuthServerMetadata(doc, issuer, legacy));
  if ("refused" in got) return void run.fail(got.refused);
  if ("found" in got) {
    run.pass();
    return got.found;
  }
  const { misses, badDocument } = got;
  if (legacy && badDocument === undefined && misses.every((m) => /\(HTTP 404\)$/.test(m))) {
    run.note("warn", `no authorization-server metadata at ${issuer}: as in the 2025-03-26 specification, its default endpoints /authorize, /token and /register are used; PKCE S256 support cannot be checked`);
    run.pass();
    return { issuer, authorizationEndpoint: `${issuer}/authorize`, tokenEndpoint: `${issuer}/token`, registrationEndpoint: `${issuer}/register`, cimdSupported: false, issParameter: false, raw: {} };
  }
  run.fail(badDocument ?? `no authorization-server metadata for ${issuer}: ${misses.join("; ")}`);
  return undefined;
}
