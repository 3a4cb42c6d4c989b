import { describe, expect, it } from "vitest";
import type { OAuthResponse } from "./exchange.ts";
import { isExpired, readTokens, tokenRequest } from "./token.ts";

const json = (status: number, body: unknown, type = "application/json"): OAuthResponse => ({ status, statusText: "", headers: { "content-type": type }, body: typeof body === "string" ? body : JSON.stringify(body) });
const NOW = 1_000_000;

describe("tokenRequest", () => {
  it("sends the code with its verifier, the redirect and the resource", () => {
    const req = tokenRequest("https://a/token", { type: "authorization_code", code: "c0de", redirectUri: "http://127.0.0.1:1/cb", verifier: "v".repeat(43) }, { how: "dynamic", clientId: "c1" }, "none", "https://mcp/mcp");
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      grant_type: "authorization_code",
      code: "c0de",
      redirect_uri: "http://127.0.0.1:1/cb",
      code_verifier: "v".repeat(43),
      resource: "https://mcp/mcp",
      client_id: "c1",
    });
  });

  it("sends a refresh token with the resource", () => {
    const req = tokenRequest("https://a/token", { type: "refresh_token", refreshToken: "r1" }, { how: "dynamic", clientId: "c1" }, "none", "https://mcp/mcp");
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ grant_type: "refresh_token", refresh_token: "r1", resource: "https://mcp/mcp", client_id: "c1" });
  });
});

describe("readTokens", () => {
  it("reads a bearer token with its expiry, refresh token and scope", () => {
    const got = readTokens(json(200, { access_token: "at", token_type: "bearer", expires_in: 60, refresh_token: "rt", scope: "a b" }), NOW, ["a", "b"]);
    expect(got.ok && got.value).toEqual({ accessToken: "at", tokenType: "Bearer", refreshToken: "rt", expiresAt: NOW + 60_000, scopes: ["a", "b"], obtainedAt: NOW });
  });

  it("keeps the previous refresh token and scopes when a refresh answer leaves them out", () => {
    const previous = { accessToken: "old", tokenType: "Bearer", refreshToken: "rt", scopes: ["a"], obtainedAt: 0 };
    const got = readTokens(json(200, { access_token: "new", token_type: "Bearer" }), NOW, ["a"], previous);
    expect(got.ok && got.value).toMatchObject({ accessToken: "new", refreshToken: "rt", scopes: ["a"] });
  });

  it.each([
    [json(400, { error: "invalid_grant", error_description: "code already used" }), "the token endpoint refused: HTTP 400 invalid_grant (code already used)"],
    [json(401, { error: "invalid_client" }), "the token endpoint refused: HTTP 401 invalid_client"],
    [json(500, "<html>oops</html>", "text/html"), "the token endpoint refused: HTTP 500: <html>oops</html>"],
    [json(200, "<html>login</html>", "text/html"), 'the token answer is not JSON (Content-Type text/html; it starts with "<html>login</html>")'],
    [json(200, { token_type: "Bearer" }), "the token answer has no access_token"],
    [json(200, { access_token: "x", token_type: "DPoP" }), "token_type DPoP is not Bearer; Patchbay sends bearer tokens only"],
    [json(200, [1]), "the token answer is JSON but not an object"],
  ])("names %j", (response, reason) => {
    const got = readTokens(response, NOW, []);
    expect(got.ok ? "ok" : got.reason).toBe(reason);
  });

  it("warns when the expiry or the refresh token is missing, and when scopes were not granted", () => {
    const got = readTokens(json(200, { access_token: "x", token_type: "Bearer", scope: "a" }), NOW, ["a", "b"]);
    const warned = got.notes.filter((n) => n.level === "warn").map((n) => n.text).join("\n");
    expect(warned).toMatch(/no expires_in/);
    expect(warned).toMatch(/no refresh_token/);
    expect(warned).toMatch(/granted without b/);
  });

  it("knows an expired token", () => {
    const t = { accessToken: "x", tokenType: "Bearer", scopes: [], obtainedAt: 0, expiresAt: NOW };
    expect([isExpired(t, NOW - 1), isExpired(t, NOW), isExpired(t, NOW - 500, 1000), isExpired({ ...t, expiresAt: undefined }, NOW * 9)]).toEqual([false, true, true, false]);
  });
});
