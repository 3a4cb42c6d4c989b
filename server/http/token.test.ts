import { describe, expect, it } from "vitest";
import { bearerToken, cookieName, createToken, readCookie, tokenCookie, tokenMatches } from "./token.ts";

describe("token", () => {
  it("is 32 random bytes in base64url, fresh each time", () => {
    const tokens = new Set(Array.from({ length: 50 }, createToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(t, "base64url")).toHaveLength(32);
    }
  });

  it("matches only the exact token", () => {
    const t = createToken();
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t, undefined)).toBe(false);
    expect(tokenMatches(t, "")).toBe(false);
    expect(tokenMatches(t, t.slice(0, -1))).toBe(false);
    expect(tokenMatches(t, `${t}x`)).toBe(false);
    expect(tokenMatches(t, t.toUpperCase() === t ? t.toLowerCase() : t.toUpperCase())).toBe(false);
  });

  it("reads a Bearer token and nothing else", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer  abc ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken("Bearer")).toBeUndefined();
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it("names the cookie per port and marks it HttpOnly, SameSite=Strict, Path=/", () => {
    expect(cookieName(7420)).not.toBe(cookieName(7421));
    expect(tokenCookie(7420, "T")).toBe("patchbay_token_7420=T; HttpOnly; SameSite=Strict; Path=/");
  });

  it("reads one cookie out of a Cookie header", () => {
    const header = "a=1; patchbay_token_7420=tok; patchbay_token_7421=other";
    expect(readCookie(header, "patchbay_token_7420")).toBe("tok");
    expect(readCookie(header, "patchbay_token_7421")).toBe("other");
    expect(readCookie(header, "patchbay_token_1")).toBeUndefined();
    expect(readCookie(undefined, "a")).toBeUndefined();
    expect(readCookie("junk;=x;a", "a")).toBeUndefined();
  });
});
