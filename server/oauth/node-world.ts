/** The OAuth flow's world in Node: each request made here by the same outbound code the route uses, Web Crypto, the wall clock. */
import { webCrypto } from "../../src/core/oauth/pkce.ts";
import type { OAuthWorld } from "../../src/core/oauth/step-run.ts";
import { OUTBOUND_DEFAULTS, oauthOutbound } from "./outbound.ts";

export function nodeOAuthWorld(signal?: AbortSignal): OAuthWorld {
  const closed = signal ?? new AbortController().signal;
  return {
    ...webCrypto(globalThis.crypto),
    now: () => Date.now(),
    send: (request) =>
      oauthOutbound(
        { url: new URL(request.url), method: request.method, headers: request.headers, ...(request.body !== undefined ? { body: request.body } : {}), ...OUTBOUND_DEFAULTS },
        closed,
      ),
  };
}
