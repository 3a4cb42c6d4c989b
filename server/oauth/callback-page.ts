/**
 * The OAuth redirect URI, `/oauth/callback` on the backend's own origin: a static page whose
 * script (public/oauth/callback.js, under the page's CSP) hands the address it was opened with,
 * code and state included, to the Patchbay page that opened it, same origin only, and closes. It
 * needs no token and reveals nothing; the launch log never shows its query.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { send } from "../http/headers.ts";

export const OAUTH_CALLBACK_PATH = "/oauth/callback";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Patchbay: authorization answer</title>
<meta name="viewport" content="width=device-width">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style>
<script src="/oauth/callback.js" defer></script></head>
<body><h1>Authorization answer</h1>
<p id="status" role="status">Handing the answer to Patchbay…</p>
<noscript><p>Scripts are off: copy this page's address from the address bar and paste it into Patchbay's "Paste the redirect URL" box.</p></noscript>
</body></html>
`;

/** Answers GET/HEAD for the redirect URI; true when the path was its. */
export function serveOAuthCallback(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  if (pathname !== OAUTH_CALLBACK_PATH) return false;
  send(res, 200, "text/html; charset=utf-8", PAGE, { "Cache-Control": "no-store" }, req.method === "HEAD");
  return true;
}
