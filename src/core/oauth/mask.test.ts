import { describe, expect, it } from "vitest";
import { maskBody, maskExchange, maskHeaderValue, maskUrl } from "./mask.ts";

describe("masking secrets for display", () => {
  it("hides the credentials of Authorization and cookie headers, keeping the scheme", () => {
    expect(maskHeaderValue("Authorization", "Bearer abc.def")).toBe("Bearer •••• (7 chars)");
    expect(maskHeaderValue("authorization", "Basic dXNlcjpwYXNz")).toBe("Basic •••• (12 chars)");
    expect(maskHeaderValue("set-cookie", "sid=1; HttpOnly")).toBe("•••• (15 chars)");
    expect(maskHeaderValue("content-type", "application/json")).toBe("application/json");
  });

  it("hides secret members of a JSON body and keeps its text otherwise", () => {
    const body = '{\n  "access_token": "eyJ\\"x",\n  "token_type":"Bearer", "refresh_token" : "r-1", "client_id": "c", "client_secret":"s3"\n}';
    expect(maskBody(body)).toBe('{\n  "access_token": "•••• (6 chars)",\n  "token_type":"Bearer", "refresh_token" : "•••• (3 chars)", "client_id": "c", "client_secret":"•••• (2 chars)"\n}');
  });

  it("hides secret members of a form body", () => {
    expect(maskBody("grant_type=authorization_code&code=abc&code_verifier=v123&client_id=c&client_secret=s%21")).toBe(
      "grant_type=authorization_code&code=•••• (3 chars)&code_verifier=•••• (4 chars)&client_id=c&client_secret=•••• (2 chars)",
    );
    expect(maskBody("grant_type=refresh_token&refresh_token=r1")).toBe("grant_type=refresh_token&refresh_token=•••• (2 chars)");
    expect(maskBody("plain text, no secrets")).toBe("plain text, no secrets");
  });

  it("hides an authorization code in a URL", () => {
    expect(maskUrl("http://127.0.0.1:1/oauth/callback?code=c0de&state=s#x")).toBe("http://127.0.0.1:1/oauth/callback?code=•••• (4 chars)&state=s#x");
    expect(maskUrl("https://a/b")).toBe("https://a/b");
  });

  it("masks a whole exchange: request headers and body, response headers, Location and body", () => {
    const shown = maskExchange({
      at: 0,
      request: { method: "POST", url: "https://a/token", headers: { authorization: "Basic Yzpz" }, body: "code=x&client_id=c" },
      result: { ok: true, durationMs: 1, response: { status: 302, statusText: "", headers: { location: "http://cb/?code=zz&state=1" }, body: '{"access_token":"tok"}' } },
    });
    expect(JSON.stringify(shown)).not.toMatch(/Yzpz|code=x|code=zz|"tok"/);
  });
});
