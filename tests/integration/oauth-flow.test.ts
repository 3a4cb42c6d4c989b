/**
 * The whole OAuth flow, step by step, against the local authorization server and its protected
 * MCP server (tests/helpers/oauth-server), every request going through the real backend route.
 * The happy paths of each discovery variant and client kind, then each failure named at its step.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BackendClient } from "../../src/core/backend/backend-client.ts";
import { backendOAuthSend } from "../../src/core/backend/oauth-fetch.ts";
import { OAuthFlow, webCrypto, type ClientChoice, type FlowSettings, type StepRecord } from "../../src/core/oauth/index.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { startOAuthSetup, type OAuthTestSetup } from "../helpers/oauth-server/index.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";

let t: TestBackend;
let as: OAuthTestSetup;
let redirectUri = "";
/** Added to the wall clock the flow sees, to make its tokens expire without waiting. */
let skewMs = 0;

beforeAll(async () => {
  t = await startTestBackend();
  as = await startOAuthSetup();
  redirectUri = `http://127.0.0.1:${t.port}/oauth/callback`;
});
afterAll(async () => {
  await as.close();
  await t.close();
});
beforeEach(() => {
  as.reset();
  skewMs = 0;
});

function flow(client: ClientChoice = { kind: "auto" }, extra: Partial<FlowSettings> = {}): OAuthFlow {
  const send = backendOAuthSend(new BackendClient({ fetch, token: t.token, baseUrl: `http://127.0.0.1:${t.port}` }), fetch);
  const world = { ...webCrypto(globalThis.crypto), send, now: () => Date.now() + skewMs };
  return new OAuthFlow(world, { serverUrl: as.mcpUrl, redirectUri, client, ...extra });
}

/** What the browser would do at the authorization page with auto-consent: follow it to the redirect. */
async function approve(url: string): Promise<string> {
  const res = await fetch(url, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status !== 302 || location === null) throw new Error(`the authorization page answered ${res.status}: ${await res.text()}`);
  return location;
}

const verdicts = (f: OAuthFlow) => f.steps.map((s) => `${s.id}:${s.verdict}`);
const last = (f: OAuthFlow): StepRecord => f.steps[f.steps.length - 1]!;

async function authorized(f: OAuthFlow): Promise<void> {
  expect(await f.runUntilUser()).toBe("await-redirect");
  expect(await f.completeRedirect(await approve(f.facts.pending!.url))).toBe("done");
}

/** A tools/call with the flow's token, straight to the MCP server. */
async function callTool(f: OAuthFlow, name: string, args: Record<string, unknown> = {}): Promise<{ status: number; text: string; www: string | null }> {
  const res = await fetch(as.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${f.facts.tokens!.accessToken}`, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } }),
  });
  return { status: res.status, text: await res.text(), www: res.headers.get("www-authenticate") };
}

describe("the OAuth flow through the backend route", () => {
  it("runs every step: 401 → resource metadata → AS metadata → registration → PKCE authorization → token → the MCP request", async () => {
    const f = flow();
    expect(f.nextStep).toBe("probe");
    await f.next();
    expect(last(f)).toMatchObject({ id: "probe", verdict: "ok" });
    expect(last(f).exchanges[0]!.result).toMatchObject({ ok: true, response: { status: 401 } });
    expect(await f.runUntilUser()).toBe("await-redirect");
    expect(verdicts(f)).toEqual(["probe:ok", "resource-metadata:ok", "auth-server-metadata:ok", "registration:ok", "authorization:waiting"]);
    // The AS numbers its clients: which number depends on the tests before this one.
    const registered = f.facts.client!.clientId;
    expect(registered).toMatch(/^client-\d+$/);
    const url = new URL(f.facts.pending!.url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: registered,
      redirect_uri: redirectUri,
      code_challenge_method: "S256",
      resource: as.mcpUrl,
      scope: "mcp:read",
      state: f.facts.pending!.state,
    });
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await f.completeRedirect(await approve(f.facts.pending!.url))).toBe("done");
    expect(verdicts(f).slice(4)).toEqual(["authorization:ok", "token:ok", "mcp-retry:ok"]);
    expect(f.failure).toBeUndefined();
    expect(f.facts.tokens).toMatchObject({ tokenType: "Bearer", scopes: ["mcp:read"], refreshToken: expect.any(String) });
    // The token endpoint saw the verifier (the AS checked it against the challenge) and the resource.
    const exchange = new URLSearchParams(as.authRequests.find((r) => r.path === "/token")!.body);
    expect([exchange.get("grant_type"), exchange.get("resource"), exchange.get("code_verifier")?.length]).toEqual(["authorization_code", as.mcpUrl, 43]);
    expect((await callTool(f, "whoami")).text).toContain(`hello ${registered} (mcp:read)`);
  });

  it("finds root metadata without resource_metadata, and an issuer with a path (RFC 8414 path insertion)", async () => {
    as.set({ prmAt: "root", wwwResourceMetadata: false, asPrefix: "/tenant1" });
    const f = flow();
    await authorized(f);
    const tried = f.steps.find((s) => s.id === "resource-metadata")!.exchanges.map((e) => [new URL(e.request.url).pathname, e.result.ok && e.result.response.status]);
    expect(tried).toEqual([
      ["/.well-known/oauth-protected-resource/mcp", 404],
      ["/.well-known/oauth-protected-resource", 200],
    ]);
    expect(f.steps.find((s) => s.id === "auth-server-metadata")!.exchanges.map((e) => new URL(e.request.url).pathname)).toEqual(["/.well-known/oauth-authorization-server/tenant1"]);
  });

  it("follows resource_metadata to a custom location and finds an OpenID configuration by path appending", async () => {
    as.set({ prmAt: "custom", asPrefix: "/tenant1", asDocument: "openid" });
    const f = flow();
    await authorized(f);
    expect(f.steps.find((s) => s.id === "resource-metadata")!.exchanges.map((e) => new URL(e.request.url).pathname)).toEqual(["/meta/protected-resource.json"]);
    expect(f.steps.find((s) => s.id === "auth-server-metadata")!.exchanges.map((e) => [new URL(e.request.url).pathname, e.result.ok && e.result.response.status])).toEqual([
      ["/.well-known/oauth-authorization-server/tenant1", 404],
      ["/.well-known/openid-configuration/tenant1", 404],
      ["/tenant1/.well-known/openid-configuration", 200],
    ]);
  });

  it("leaves scope out when neither the challenge nor the metadata names one", async () => {
    as.set({ wwwScope: undefined, prmScopes: undefined });
    const f = flow();
    await f.runUntilUser();
    expect(new URL(f.facts.pending!.url).searchParams.has("scope")).toBe(false);
  });

  it("uses a pre-registered client with client_secret_basic, and one with client_secret_post", async () => {
    as.set({ registration: "absent" });
    as.preRegister("pre-basic", [redirectUri], { value: "s3cr:et/+", method: "client_secret_basic" });
    as.preRegister("pre-post", [redirectUri], { value: "p0st", method: "client_secret_post" });
    const basic = flow({ kind: "pre-registered", clientId: "pre-basic", clientSecret: "s3cr:et/+" });
    await authorized(basic);
    expect(basic.steps.find((s) => s.id === "token")!.exchanges[0]!.request.headers.authorization).toMatch(/^Basic /);
    const post = flow({ kind: "pre-registered", clientId: "pre-post", clientSecret: "p0st", authMethod: "client_secret_post" });
    await authorized(post);
    expect(new URLSearchParams(post.steps.find((s) => s.id === "token")!.exchanges[0]!.request.body).get("client_secret")).toBe("p0st");
  });

  it("uses the secret a dynamic registration gives, the way it names", async () => {
    as.set({ issueSecret: true, secretMethod: "client_secret_post" });
    const f = flow();
    await authorized(f);
    expect(f.facts.client).toMatchObject({ how: "dynamic", authMethod: "client_secret_post", clientSecret: expect.any(String) });
  });

  it("identifies the client by a client ID metadata document when the server supports them", async () => {
    as.set({ cimd: true, registration: "absent" });
    as.cimdRedirect = redirectUri;
    const f = flow({ kind: "metadata-document", url: as.cimdUrl });
    await authorized(f);
    expect(f.facts.client).toEqual({ how: "metadata-document", clientId: as.cimdUrl, authMethod: "none" });
    expect(new URL(f.steps.find((s) => s.id === "authorization")!.browser!.url).searchParams.get("client_id")).toBe(as.cimdUrl);
  });

  it("refreshes an expired token and the MCP request succeeds again", async () => {
    const f = flow();
    await authorized(f);
    const first = f.facts.tokens!.accessToken;
    as.expireAccessTokens();
    const refused = await f.verify();
    expect(refused.kind).toBe("unauthorized");
    expect(last(f).reason).toMatch(/refused the token \(HTTP 401 invalid_token: The access token is invalid or expired\)/);
    expect(await f.refresh("the MCP server answered 401 invalid_token")).toBe(true);
    expect(f.facts.tokens!.accessToken).not.toBe(first);
    expect((await f.verify()).kind).toBe("ok");
    // On the client's own clock: past expiry, ensureFresh refreshes before anything is sent.
    skewMs = 2 * 3600 * 1000;
    expect(await f.ensureFresh()).toBe(true);
    expect(verdicts(f).slice(-4)).toEqual(["mcp-retry:fail", "refresh:ok", "mcp-retry:ok", "refresh:ok"]);
  });

  it("registers and authorizes anew when the metadata names another authorization server (SEP-2352)", async () => {
    const f = flow();
    await authorized(f);
    const oldClient = f.facts.client!.clientId;
    as.set({ prmAuthServer: "second" });
    as.expireAccessTokens();
    const refused = await f.verify();
    expect(refused.kind).toBe("unauthorized");
    expect(await f.revisitResource(refused.kind === "unauthorized" ? refused.challenge : undefined)).toBe(true);
    expect(last(f).notes.map((n) => n.text).join("\n")).toContain(`the authorization server changed from ${as.issuer} to ${as.secondAs.issuer}`);
    expect(f.facts.tokens).toBeUndefined();
    await authorized(f);
    expect(as.secondAuthRequests.map((r) => r.path)).toEqual(expect.arrayContaining(["/register", "/authorize", "/token"]));
    // Nothing the first server issued went to the second.
    expect(as.secondAuthRequests.some((r) => r.url.includes(oldClient) || r.body.includes(oldClient))).toBe(false);
    expect(await f.revisitResource(undefined)).toBe(false);
  });

  it("steps up when a 403 insufficient_scope names more scopes", async () => {
    const f = flow();
    await authorized(f);
    const denied = await callTool(f, "write-note", { text: "hi" });
    expect(denied.status).toBe(403);
    f.askedForScopes(/scope="([^"]+)"/.exec(denied.www ?? "")?.[1]);
    f.authorizeAgain();
    await f.next();
    expect(new URL(f.facts.pending!.url).searchParams.get("scope")).toBe("mcp:read mcp:write");
    expect(await f.completeRedirect(await approve(f.facts.pending!.url))).toBe("done");
    expect((await callTool(f, "write-note", { text: "hi" })).text).toContain("noted: hi");
  });
});

describe("each failure named at its step", () => {
  it.each([
    [{ prmBroken: "not-json" as const }, "resource-metadata", /\/\.well-known\/oauth-protected-resource\/mcp: the protected-resource metadata is not JSON \(Content-Type text\/html; it starts with "<html>/],
    [{ prmBroken: "other-origin" as const }, "resource-metadata", /resource https:\/\/elsewhere\.example\.com\/mcp is on another origin \(https:\/\/elsewhere\.example\.com\) than the MCP server/],
    [{ asBroken: "not-json" as const }, "auth-server-metadata", /the authorization-server metadata is not JSON \(Content-Type text\/html/],
    [{ asBroken: "wrong-issuer" as const }, "auth-server-metadata", /issuer "https:\/\/impostor\.example\.com" does not match/],
    [{ asBroken: "no-s256" as const }, "auth-server-metadata", /code_challenge_methods_supported \(plain\) lacks S256/],
    [{ registration: "refuse" as const }, "registration", /refused the registration: HTTP 400 invalid_client_metadata \(registration is closed on this server\)/],
    [{ registration: "absent" as const }, "registration", /no dynamic registration .* enter a pre-registered client id/],
  ])("%j fails at %s", async (patch, step, why) => {
    as.set(patch);
    const f = flow();
    await f.runUntilUser();
    expect(f.failure).toMatchObject({ step, reason: expect.stringMatching(why) });
    expect(f.facts.tokens).toBeUndefined();
  });

  it("falls back to the 2025-03-26 rules without resource metadata: the server's origin and its default endpoints", async () => {
    as.set({ prmAt: "none", wwwResourceMetadata: false });
    const f = flow();
    await f.runUntilUser();
    expect(verdicts(f)).toEqual(["probe:warn", "resource-metadata:warn", "auth-server-metadata:warn", "registration:fail"]);
    expect(f.facts.as).toMatchObject({ issuer: as.resourceBase, authorizationEndpoint: `${as.resourceBase}/authorize`, tokenEndpoint: `${as.resourceBase}/token` });
    // This test server has no authorization server at its own origin, so the default /register is not there.
    expect(f.failure).toMatchObject({ step: "registration", reason: expect.stringMatching(/refused the registration: HTTP 404/) });
  });

  it("names a refused connection to the MCP server at the first step", async () => {
    const port = await freePort();
    const f = flow({ kind: "auto" }, { serverUrl: `http://127.0.0.1:${port}/mcp` });
    await f.runUntilUser();
    expect(f.failure).toEqual({ step: "probe", title: "Request without a token", reason: `the request to the MCP server failed: tcp: connection to 127.0.0.1:${port} was refused (ECONNREFUSED)` });
  });

  it("refuses a redirect with the wrong state and exchanges nothing, then takes the right one", async () => {
    const f = flow();
    await f.runUntilUser();
    const right = await approve(f.facts.pending!.url);
    const forged = new URL(right);
    forged.searchParams.set("state", "forged-state");
    expect(await f.completeRedirect(forged.href)).toBe("await-redirect");
    expect(f.failure).toMatchObject({ step: "authorization", reason: expect.stringMatching(/state does not match .* nothing was exchanged/) });
    expect(as.authRequests.some((r) => r.path === "/token")).toBe(false);
    expect(await f.completeRedirect(right)).toBe("done");
    expect(f.failure).toBeUndefined();
    expect(f.steps.filter((s) => s.id === "authorization")).toHaveLength(1);
  });

  it("names an error redirect (access_denied) and starts a fresh authorization on the next step", async () => {
    as.set({ deny: true });
    const f = flow();
    await f.runUntilUser();
    const firstState = f.facts.pending!.state;
    expect(await f.completeRedirect(await approve(f.facts.pending!.url))).toBe("authorization");
    expect(f.failure).toMatchObject({ step: "authorization", reason: "the authorization server answered error=access_denied (The user said no)" });
    as.set({ deny: false });
    await f.next();
    expect(f.facts.pending!.state).not.toBe(firstState);
  });

  it("names a token endpoint that answers 400 invalid_grant", async () => {
    as.set({ codeRefused: true });
    const f = flow();
    await f.runUntilUser();
    await f.completeRedirect(await approve(f.facts.pending!.url));
    expect(f.failure).toMatchObject({ step: "token", reason: "the token endpoint refused: HTTP 400 invalid_grant (the authorization code is invalid or expired)" });
    expect(f.nextStep).toBe("authorization");
  });

  it("says so when a refresh is refused, and authorizes again", async () => {
    const f = flow();
    await authorized(f);
    as.set({ refreshRefused: true });
    expect(await f.refresh("the access token has expired")).toBe(false);
    expect(f.failure).toMatchObject({ step: "refresh", reason: "the token endpoint refused: HTTP 400 invalid_grant (the refresh token was revoked)" });
    f.authorizeAgain();
    expect(f.nextStep).toBe("authorization");
    as.set({ refreshRefused: false });
    await authorized(f);
  });
});
