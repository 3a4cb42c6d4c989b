/**
 * The token hand-off. The terminal prints `/?token=…`; that request trades the token for an
 * HttpOnly per-port cookie and redirects to `/`, so the token leaves the address bar and history.
 * The cookie only unlocks index.html, which carries the token in a meta tag for the SPA's API
 * calls; the API itself accepts only the Authorization header.
 */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { send } from "./headers.ts";
import { cookieName, readCookie, tokenCookie, tokenMatches } from "./token.ts";

/** The placeholder the built index.html carries where the token goes. */
export const TOKEN_PLACEHOLDER = "%PATCHBAY_TOKEN%";

export interface IndexOptions {
  readonly token: string;
  readonly port: number;
  readonly distDir: string;
}

const NO_STORE = { "Cache-Control": "no-store" };

function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>${title}</h1><p>${text}</p></body></html>
`;
}

const LOCKED = page(
  "Patchbay needs its access link",
  "Open the URL printed in the terminal where you started Patchbay (<code>Patchbay is running at http://127.0.0.1:…/?token=…</code>). The token changes every time Patchbay starts.",
);

const NOT_BUILT = page(
  "Patchbay's web app is not built",
  "The backend found no <code>index.html</code> in its dist folder. Run <code>npm run build</code> (or start with <code>npm start</code>, which builds when needed).",
);

/** Answer GET/HEAD for `/` and `/index.html`. */
export async function serveIndex(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  options: IndexOptions,
): Promise<void> {
  const headOnly = req.method === "HEAD";
  const html = "text/html; charset=utf-8";
  const offered = query.get("token");
  if (offered !== null) {
    if (!tokenMatches(options.token, offered)) {
      send(res, 401, html, LOCKED, NO_STORE, headOnly);
      return;
    }
    res.writeHead(303, { Location: "/", "Content-Length": "0", "Set-Cookie": tokenCookie(options.port, options.token), ...NO_STORE });
    res.end();
    return;
  }
  if (!tokenMatches(options.token, readCookie(req.headers.cookie, cookieName(options.port)))) {
    send(res, 401, html, LOCKED, NO_STORE, headOnly);
    return;
  }
  let template: string;
  try {
    template = await readFile(join(options.distDir, "index.html"), "utf8");
  } catch {
    send(res, 500, html, NOT_BUILT, NO_STORE, headOnly);
    return;
  }
  send(res, 200, html, template.replaceAll(TOKEN_PLACEHOLDER, options.token), NO_STORE, headOnly);
}
