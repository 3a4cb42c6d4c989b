import { describe, expect, it } from "vitest";
import { applyClientAuth, checkMetadataDocument, chooseAuthMethod, metadataDocumentProblem, readRegistration, registrationRequest, resolveChoice } from "./client.ts";
import type { AuthServerMetadata } from "./metadata.ts";
import type { OAuthResponse } from "./exchange.ts";

const as = (extra: Partial<AuthServerMetadata> = {}): AuthServerMetadata => ({
  issuer: "https://a",
  authorizationEndpoint: "https://a/authorize",
  tokenEndpoint: "https://a/token",
  cimdSupported: false,
  issParameter: false,
  raw: {},
  ...extra,
});
const json = (status: number, body: unknown): OAuthResponse => ({ status, statusText: "", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("registration", () => {
  it("asks for a public native client with the loopback redirect", () => {
    const req = registrationRequest("https://a/register", "http://127.0.0.1:7420/oauth/callback", "mcp:read", "Patchbay");
    expect(JSON.parse(req.body!)).toEqual({
      client_name: "Patchbay",
      redirect_uris: ["http://127.0.0.1:7420/oauth/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
      scope: "mcp:read",
    });
  });

  it("reads the client and names a refusal by its OAuth error", () => {
    expect(readRegistration(json(201, { client_id: "c1", client_secret: "s1", token_endpoint_auth_method: "client_secret_post" }))).toMatchObject({
      ok: true,
      value: { clientId: "c1", clientSecret: "s1", authMethod: "client_secret_post" },
    });
    const refused = readRegistration(json(400, { error: "invalid_redirect_uri", error_description: "loopback not allowed" }));
    expect(refused.ok ? "" : refused.reason).toBe("the authorization server refused the registration: HTTP 400 invalid_redirect_uri (loopback not allowed)");
    const empty = readRegistration(json(201, { client_secret: "s" }));
    expect(empty.ok ? "" : empty.reason).toMatch(/no client_id/);
  });

  it("goes the way the server allows on auto", () => {
    expect(resolveChoice({ kind: "auto" }, as({ registrationEndpoint: "https://a/r" }))).toMatchObject({ kind: "dynamic" });
    expect(resolveChoice({ kind: "auto", metadataUrl: "https://c/doc.json" }, as({ cimdSupported: true, registrationEndpoint: "https://a/r" }))).toMatchObject({ kind: "metadata-document" });
    expect(resolveChoice({ kind: "auto", metadataUrl: "https://c/doc.json" }, as({ registrationEndpoint: "https://a/r" }))).toMatchObject({ kind: "dynamic" });
    expect(resolveChoice({ kind: "auto" }, as())).toMatchObject({ problem: expect.stringMatching(/enter a pre-registered client id/) });
  });
});

describe("client ID metadata documents", () => {
  it("wants an https URL with a path", () => {
    expect(metadataDocumentProblem("https://app.example.com/oauth/client.json")).toBeUndefined();
    expect(metadataDocumentProblem("http://127.0.0.1:9/client.json")).toBeUndefined();
    expect(metadataDocumentProblem("http://app.example.com/client.json")).toMatch(/must be https/);
    expect(metadataDocumentProblem("https://app.example.com/")).toMatch(/must have a path/);
  });

  it("checks the document names itself and lists the redirect", () => {
    const url = "https://app.example.com/client.json";
    const redirect = "http://127.0.0.1:1/oauth/callback";
    expect(checkMetadataDocument(json(200, { client_id: url, redirect_uris: [redirect] }), url, redirect).ok).toBe(true);
    const other = checkMetadataDocument(json(200, { client_id: "https://evil/x", redirect_uris: [redirect] }), url, redirect);
    expect(other.ok ? "" : other.reason).toMatch(/is not its own URL/);
    const noRedirect = checkMetadataDocument(json(200, { client_id: url, redirect_uris: [] }), url, redirect);
    expect(noRedirect.ok ? "" : noRedirect.reason).toMatch(/do not list/);
  });
});

describe("token endpoint client authentication", () => {
  const pub = { how: "dynamic" as const, clientId: "c1" };
  const secret = { how: "pre-registered" as const, clientId: "c1", clientSecret: "s1" };
  it.each([
    [pub, as(), "none"],
    [secret, as(), "client_secret_basic"],
    [secret, as({ tokenAuthMethods: ["client_secret_post"] }), "client_secret_post"],
    [secret, as({ tokenAuthMethods: ["none", "client_secret_post", "client_secret_basic"] }), "client_secret_basic"],
    [{ ...secret, authMethod: "client_secret_post" as const }, as({ tokenAuthMethods: ["client_secret_basic", "client_secret_post"] }), "client_secret_post"],
    [{ ...secret, authMethod: "none" as const }, as(), "none"],
  ])("%j with %j → %s", (client, server, method) => {
    expect(chooseAuthMethod(client, server).method).toBe(method);
  });

  it("encodes Basic credentials form-urlencoded first (RFC 6749 §2.3.1)", () => {
    const form = new URLSearchParams();
    const headers: Record<string, string> = {};
    applyClientAuth("client_secret_basic", { how: "pre-registered", clientId: "my client", clientSecret: "p:w/d+é" }, form, headers);
    expect(headers.authorization).toBe(`Basic ${Buffer.from("my+client:p%3Aw%2Fd%2B%C3%A9").toString("base64")}`);
    expect(form.has("client_id")).toBe(false);
    applyClientAuth("client_secret_post", secret, form, headers);
    expect(form.toString()).toBe("client_id=c1&client_secret=s1");
  });
});
