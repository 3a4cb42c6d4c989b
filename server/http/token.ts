/**
 * The per-launch access token: generated once, compared in constant time, and carried either in
 * the Authorization header (API) or in a per-port cookie that only unlocks the index page.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh random token: 32 bytes, base64url. */
export function createToken(): string {
  return randomBytes(32).toString("base64url");
}

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

/** Constant-time equality; hashing first makes the comparison independent of the supplied length. */
export function tokenMatches(expected: string, supplied: string | undefined): boolean {
  if (supplied === undefined) return false;
  return timingSafeEqual(digest(expected), digest(supplied));
}

/** The token from an `Authorization: Bearer …` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** Cookies do not isolate ports, so each backend port gets its own cookie name. */
export function cookieName(port: number): string {
  return `patchbay_token_${port}`;
}

/** The Set-Cookie value that lets this browser load the index page. */
export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
