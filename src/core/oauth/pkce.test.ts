import { describe, expect, it } from "vitest";
import { base64url, challengeS256, createState, createVerifier, webCrypto, type OAuthCrypto } from "./pkce.ts";

const real = webCrypto(globalThis.crypto);

describe("PKCE S256", () => {
  it("matches RFC 7636 Appendix B", async () => {
    expect(await challengeS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", real)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("makes 43-character verifiers of the unreserved alphabet from 32 random bytes", () => {
    const asked: number[] = [];
    const counting: OAuthCrypto = { ...real, randomBytes: (n) => (asked.push(n), real.randomBytes(n)) };
    const verifier = createVerifier(counting);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked).toEqual([32]);
    expect(createVerifier(real)).not.toBe(verifier);
  });

  it("refuses a verifier RFC 7636 §4.1 does not allow", async () => {
    await expect(challengeS256("short", real)).rejects.toThrow(/43 to 128 characters/);
    await expect(challengeS256(`${"a".repeat(42)}!`, real)).rejects.toThrow(/43 to 128/);
    await expect(challengeS256("a".repeat(129), real)).rejects.toThrow(/43 to 128/);
  });

  it("base64url has no padding and the URL-safe alphabet", () => {
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe("-_8");
    expect(base64url(new Uint8Array([]))).toBe("");
  });

  it("makes states from 16 random bytes", () => {
    const state = createState(real);
    expect(state).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(createState(real)).not.toBe(state);
  });
});
