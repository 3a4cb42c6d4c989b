/** Serves the built SPA's files from the dist folder, never anything outside it. */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { basename, extname, resolve, sep } from "node:path";
import { HttpError } from "./errors.ts";
import { VALIDATION_WORKER_CSP, VALIDATION_WORKER_FILE } from "./headers.ts";

/** Content types by extension; anything else is served as opaque bytes. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/** The content type for a file name. */
export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

function inside(root: string, full: string): boolean {
  return full.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The file a URL path names inside `root`, or null when it names nothing servable. Rejects
 * encoded traversal, NUL bytes and dot-files; symlinks must also resolve inside the root.
 */
export async function resolveAsset(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new HttpError(400, "bad_request", "malformed percent-encoding in the path");
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  if (decoded.split("/").some((part) => part.startsWith("."))) return null;
  const base = resolve(root);
  const full = resolve(base, `.${decoded}`);
  if (!inside(base, full)) return null;
  try {
    const [realBase, realFull] = await Promise.all([realpath(base), realpath(full)]);
    if (!inside(realBase, realFull)) return null;
    const info = await stat(realFull);
    return info.isFile() ? realFull : null;
  } catch {
    return null;
  }
}

/** Stream a resolved file; hashed bundles under /assets/ are cached forever. */
export async function sendFile(res: ServerResponse, file: string, pathname: string, headOnly: boolean): Promise<void> {
  const info = await stat(file);
  const type = contentTypeFor(file);
  const cache = pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache";
  const headers: Record<string, string | number> = { "Content-Type": type, "Content-Length": info.size, "Cache-Control": cache };
  if (VALIDATION_WORKER_FILE.test(basename(file))) headers["Content-Security-Policy"] = VALIDATION_WORKER_CSP;
  res.writeHead(200, headers);
  if (headOnly) {
    res.end();
    return;
  }
  await new Promise<void>((done, fail) => {
    const stream = createReadStream(file);
    stream.on("error", (err) => {
      res.destroy(err);
      fail(err);
    });
    res.on("close", () => {
      stream.destroy();
      done();
    });
    stream.pipe(res);
  });
}
