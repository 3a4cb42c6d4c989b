import { describe, expect, it } from "vitest";
import { authorizationUrl, readRedirect, selectScopes, stepUpScopes } from "./authorization.ts";

const expected = { state: "st-1", redirectUri: "http://127.0.0.1:7420/oauth/callback", issuer: "https://auth.example.com", issRequired: false };
const back = (query: string) => `http://127.0.0.1:7420/oauth/callback?${query}`;

describe("authorizationUrl", () => {
  it("carries PKCE S256, state, resource and scope, keeping the endpoint's own query", () => {
    const url = new URL(
      authorizationUrl({
        endpoint: "https://auth.example.com/authorize?tenant=a",
        clientId: "c1",
        redirectUri: expected.redirectUri,
        codeChallenge: "ch",
        state: "st-1",
        resource: "https://mcp.example.com/mcp",
        scopes: ["mcp:read", "mcp:write"],
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: "a",
      response_type: "code",
      client_id: "c1",
      redirect_uri: expected.redirectUri,
      code_challenge: "ch",
      code_challenge_method: "S256",
      state: "st-1",
      resource: "https://mcp.example.com/mcp",
      scope: "mcp:read mcp:write",
    });
  });

  it("leaves scope out when there is none", () => {
    const url = authorizationUrl({ endpoint: "https://a/x", clientId: "c", redirectUri: "http://127.0.0.1/cb", codeChallenge: "c", state: "s", resource: "https://r/", scopes: [] });
    expect(new URL(url).searchParams.has("scope")).toBe(false);
  });
});

describe("readRedirect", () => {
  it("takes the code when state matches", () => {
    expect(readRedirect(back("code=abc&state=st-1"), expected)).toEqual({ kind: "code", code: "abc", notes: [] });
  });

  it("refuses a wrong or missing state, so nothing is exchanged", () => {
    expect(readRedirect(back("code=abc&state=other"), expected)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/state does not match[\s\S]*nothing was exchanged/) });
    expect(readRedirect(back("code=abc"), expected)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/carries no state/) });
  });

  it("names an error redirect", () => {
    expect(readRedirect(back("error=access_denied&error_description=The+user+said+no&state=st-1"), expected)).toEqual({
      kind: "error",
      error: "access_denied",
      reason: "the authorization server answered error=access_denied (The user said no)",
    });
  });

  it("checks iss (RFC 9207): a wrong one is refused, a missing one when promised", () => {
    expect(readRedirect(back("code=a&state=st-1&iss=https%3A%2F%2Fevil.example.com"), expected)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/mix-up/) });
    expect(readRedirect(back("code=a&state=st-1"), { ...expected, issRequired: true })).toMatchObject({ kind: "refused", reason: expect.stringMatching(/promised iss/) });
    expect(readRedirect(back("code=a&state=st-1&iss=https%3A%2F%2Fauth.example.com"), { ...expected, issRequired: true }).kind).toBe("code");
  });

  it("reads a fragment answer, notes a URL that is not the redirect URI, and refuses what is no URL or has no code", () => {
    expect(readRedirect("http://127.0.0.1:7420/oauth/callback#code=f&state=st-1", expected)).toMatchObject({ kind: "code", code: "f" });
    expect(readRedirect("http://127.0.0.1:9/elsewhere?code=x&state=st-1", expected)).toMatchObject({ kind: "code", notes: [expect.stringMatching(/not the redirect URI/)] });
    expect(readRedirect("not a url", expected)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/not a URL/) });
    expect(readRedirect(back("state=st-1"), expected)).toMatchObject({ kind: "refused", reason: expect.stringMatching(/neither code nor error/) });
  });
});

describe("scope selection", () => {
  it("prefers the challenge, then scopes_supported, else none", () => {
    expect(selectScopes("mcp:basic", ["a", "b"]).scopes).toEqual(["mcp:basic"]);
    expect(selectScopes(undefined, ["a", "b"]).scopes).toEqual(["a", "b"]);
    expect(selectScopes("", undefined)).toMatchObject({ scopes: [], from: expect.stringMatching(/left out/) });
  });

  it("adds what a 403 asked for on a step-up", () => {
    expect(stepUpScopes(["mcp:basic"], "mcp:basic mcp:write")).toEqual(["mcp:basic", "mcp:write"]);
  });
});
