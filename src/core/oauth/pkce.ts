/**
 * PKCE (RFC 7636) with S256, the `state` value, and base64url, over injected randomness and an
 * injected SHA-256 (Web Crypto's `crypto.subtle.digest` in the browser and in Node 20).
 */
import { encodeBase64 } from "../wire/index.ts";

export interface OAuthCrypto {
  /** `n` cryptographically random bytes. */
  randomBytes(n: number): Uint8Array;
  sha256(data: Uint8Array): Promise<Uint8Array>;
}

/** base64url without padding (RFC 4648 §5, RFC 7636 Appendix A). */
export function base64url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes as 43 base64url characters: within RFC 7636's 43–128, with 256 bits of entropy. */
export function createVerifier(crypto: OAuthCrypto): string {
  return base64url(crypto.randomBytes(32));
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** BASE64URL(SHA256(ASCII(code_verifier))); refuses a verifier RFC 7636 §4.1 does not allow. */
export async function challengeS256(verifier: string, crypto: OAuthCrypto): Promise<string> {
  if (!VERIFIER.test(verifier)) throw new Error("a PKCE code_verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
  return base64url(await crypto.sha256(new TextEncoder().encode(verifier)));
}

/** A fresh `state`: 16 random bytes, base64url. */
export function createState(crypto: OAuthCrypto): string {
  return base64url(crypto.randomBytes(16));
}

/** Web Crypto as an OAuthCrypto (the browser's `crypto`, or Node's `globalThis.crypto`). */
export function webCrypto(c: Crypto): OAuthCrypto {
  return {
    randomBytes: (n) => c.getRandomValues(new Uint8Array(n)),
    sha256: async (data) => new Uint8Array(await c.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>)),
  };
}
