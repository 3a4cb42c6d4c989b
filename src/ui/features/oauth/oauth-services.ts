/** The OAuth panel's world in the page: requests through the backend, Web Crypto, the clock, the redirect page on this origin. */
import { backendOAuthSend } from "../../../core/backend/oauth-fetch.ts";
import { webCrypto } from "../../../core/oauth/pkce.ts";
import type { AppServices } from "../../state/services.ts";
import type { OAuthDeps } from "./oauth-state.svelte.ts";

export const CALLBACK_PATH = "/oauth/callback";

export function oauthDeps(services: AppServices): OAuthDeps {
  return {
    send: backendOAuthSend(services.backend, services.env.fetch),
    crypto: webCrypto(globalThis.crypto),
    now: () => services.env.clock.wallNow(),
    redirectUri: `${location.origin}${CALLBACK_PATH}`,
    win: window,
  };
}
