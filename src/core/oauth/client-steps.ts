/**
 * The steps after discovery: client registration, the token requests (code and refresh) and the
 * MCP request made with the token. Each records its exchanges and names why it failed.
 */
import { checkMetadataDocument, chooseAuthMethod, metadataDocumentProblem, readRegistration, registrationRequest, resolveChoice, type ClientChoice, type ClientIdentity } from "./client.ts";
import { discoverRequest, initializeRequest } from "./discovery-steps.ts";
import { header, redirectTarget, type OAuthResponse, type SendResult } from "./exchange.ts";
import { excerpt, statusProblem } from "./json-answer.ts";
import type { AuthServerMetadata } from "./metadata.ts";
import { sendProblem, type StepRun } from "./step-run.ts";
import { readTokens, tokenRequest, type Grant, type Tokens } from "./token.ts";
import { bearerChallenge, type Challenge } from "./www-authenticate.ts";

export const CLIENT_NAME = "Patchbay";

/** A POST that was redirected is not followed (it would resend the code or secret): a failure named as such. */
function redirected(response: OAuthResponse, url: string, what: string): string | undefined {
  const target = redirectTarget(response, url);
  if (target === undefined) return undefined;
  return `${what} redirected (${response.status}) to ${target}; not followed, since the request carries secrets`;
}

export async function registrationStep(run: StepRun, choice: ClientChoice, as: AuthServerMetadata, redirectUri: string, scope: string | undefined): Promise<ClientIdentity | undefined> {
  const cimdUrl = choice.kind === "metadata-document" ? choice.url : choice.kind === "auto" ? choice.metadataUrl : undefined;
  const way = resolveChoice(choice, as);
  if ("problem" in way) {
    run.fail(way.problem);
    return undefined;
  }
  run.note("ok", `${way.kind === "dynamic" ? "dynamic registration (RFC 7591)" : way.kind === "metadata-document" ? "a client ID metadata document" : "a pre-registered client"}: ${way.why}`);
  if (choice.kind === "pre-registered") {
    if (choice.clientId.trim() === "") {
      run.fail("enter the pre-registered client id");
      return undefined;
    }
    const secret = choice.clientSecret !== undefined && choice.clientSecret !== "" ? choice.clientSecret : undefined;
    run.note("ok", `client ${choice.clientId.trim()}${secret ? " with a secret" : " without a secret (public client)"}; registered redirect URI must be ${redirectUri}`);
    run.pass();
    return { how: "pre-registered", clientId: choice.clientId.trim(), ...(secret ? { clientSecret: secret } : {}), ...(choice.authMethod ? { authMethod: choice.authMethod } : {}) };
  }
  if (way.kind === "metadata-document") {
    const url = cimdUrl ?? "";
    const problem = metadataDocumentProblem(url);
    if (problem !== undefined) return void run.fail(problem);
    if (!as.cimdSupported) return void run.fail("the authorization server does not advertise client_id_metadata_document_supported");
    const { result } = await run.getFollowing(url, 0);
    if (!result.ok) {
      run.note("warn", `${sendProblem("reading the document", result)}; the authorization server may still reach it`);
      run.pass();
      return { how: "metadata-document", clientId: url, authMethod: "none" };
    }
    const checked = checkMetadataDocument(result.response, url, redirectUri);
    run.notes(checked.notes);
    if (!checked.ok) return void run.fail(checked.reason);
    run.pass();
    return checked.value;
  }
  if (as.registrationEndpoint === undefined) return void run.fail("the authorization server has no registration_endpoint");
  const result = await run.send(registrationRequest(as.registrationEndpoint, redirectUri, scope, CLIENT_NAME));
  if (!result.ok) return void run.fail(sendProblem("the registration request", result));
  const moved = redirected(result.response, as.registrationEndpoint, "the registration endpoint");
  if (moved !== undefined) return void run.fail(moved);
  const read = readRegistration(result.response);
  run.notes(read.notes);
  if (!read.ok) return void run.fail(read.reason);
  run.pass();
  return read.value;
}

export interface TokenContext {
  readonly as: AuthServerMetadata;
  readonly client: ClientIdentity;
  readonly resource: string;
  readonly now: () => number;
}

/** A token request (either grant) and its answer; undefined when it failed (named on the step). */
export async function tokenStep(run: StepRun, ctx: TokenContext, grant: Grant, requested: readonly string[], previous?: Tokens): Promise<Tokens | undefined> {
  const auth = chooseAuthMethod(ctx.client, ctx.as);
  run.note(auth.note ? "warn" : "ok", `client authentication: ${auth.method}${auth.note ? ` (${auth.note})` : ""}`);
  const result = await run.send(tokenRequest(ctx.as.tokenEndpoint, grant, ctx.client, auth.method, ctx.resource));
  if (!result.ok) return void run.fail(sendProblem("the token request", result));
  const moved = redirected(result.response, ctx.as.tokenEndpoint, "the token endpoint");
  if (moved !== undefined) return void run.fail(moved);
  const read = readTokens(result.response, ctx.now(), requested, previous);
  run.notes(read.notes);
  if (!read.ok) return void run.fail(read.reason);
  run.pass();
  return read.value;
}

export type RetryOutcome =
  | { readonly kind: "ok" }
  | { readonly kind: "unauthorized"; readonly challenge?: Challenge }
  | { readonly kind: "insufficient-scope"; readonly challenge?: Challenge }
  | { readonly kind: "failed" };

/** The JSON-RPC answer in a body, JSON or the first SSE event, when it can be read. */
function answerOf(body: string): { result?: Record<string, unknown>; error?: { code?: unknown } } | undefined {
  const text = body.trimStart().startsWith("{") ? body : (/^data: ?(.*)$/m.exec(body)?.[1] ?? "");
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as { result?: Record<string, unknown> }) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's name from an initialize or server/discover answer, when it can be read. */
function serverName(body: string): string | undefined {
  const result = answerOf(body)?.result;
  const meta = result?._meta as Record<string, { name?: unknown }> | undefined;
  const name = (result?.serverInfo as { name?: unknown } | undefined)?.name ?? meta?.["io.modelcontextprotocol/serverInfo"]?.name;
  return typeof name === "string" ? name : undefined;
}

/**
 * Whether a refused initialize says the server wants the 2026-07-28 era: HTTP 400 with the
 * error for a missing protocol-version header (-32020) or an unsupported version (-32022).
 */
function wantsModernEra(r: OAuthResponse): boolean {
  const code = r.status === 400 ? answerOf(r.body)?.error?.code : undefined;
  return code === -32020 || code === -32022;
}

/** The MCP request again, now with the token; a session it opened is closed at once. */
export async function mcpRetryStep(run: StepRun, serverUrl: string, tokens: Tokens): Promise<RetryOutcome> {
  let result: SendResult = await run.send(initializeRequest(serverUrl, tokens.accessToken));
  let method = "initialize";
  if (result.ok && wantsModernEra(result.response)) {
    run.note("ok", `HTTP 400 to initialize (${excerpt(result.response.body)}): the server speaks 2026-07-28, so server/discover follows`);
    result = await run.send(discoverRequest(serverUrl, tokens.accessToken));
    method = "server/discover";
  }
  if (!result.ok) {
    run.fail(sendProblem("the MCP request", result));
    return { kind: "failed" };
  }
  const r = result.response;
  const challenge = bearerChallenge(header(r, "www-authenticate"));
  if (r.status === 401) {
    run.fail(`the MCP server refused the token (HTTP 401${challenge?.params.error ? ` ${challenge.params.error}` : ""}${challenge?.params.error_description ? `: ${challenge.params.error_description}` : ""})`);
    return { kind: "unauthorized", ...(challenge ? { challenge } : {}) };
  }
  if (r.status === 403) {
    const scope = challenge?.params.scope;
    run.fail(`the MCP server wants more than the token allows (HTTP 403 ${challenge?.params.error ?? ""}${scope ? `; it asks for scope ${scope}` : ""}): authorize again with those scopes`.replace(" )", ")"));
    return { kind: "insufficient-scope", ...(challenge ? { challenge } : {}) };
  }
  if (r.status < 200 || r.status >= 300) {
    run.fail(`the MCP server answered ${statusProblem(r)}`);
    return { kind: "failed" };
  }
  const name = serverName(r.body);
  run.note("ok", `HTTP ${r.status}: ${method} answered${name ? ` by ${name}` : ""}${r.body ? "" : " (empty body)"}`);
  const session = header(r, "mcp-session-id");
  if (session !== undefined) {
    const closed = await run.send({ method: "DELETE", url: serverUrl, headers: { authorization: `Bearer ${tokens.accessToken}`, "mcp-session-id": session } });
    run.note("ok", `the session it opened was closed (${closed.ok ? `HTTP ${closed.response.status}` : excerpt(closed.message)})`);
  }
  run.pass();
  return { kind: "ok" };
}
