import type { IncomingMessage } from "node:http";
import { HttpError } from "./errors.ts";
import { parseJsonText } from "../../src/core/json/index.ts";

function tooLarge(limit: number): HttpError {
  return new HttpError(413, "payload_too_large", `request body exceeds the limit of ${limit} bytes`);
}

/** True when the Content-Type names JSON (parameters such as charset are allowed). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const type = header.split(";")[0]?.trim().toLowerCase();
  return type === "application/json";
}

/**
 * Read the whole body up to `limit` bytes. A declared Content-Length over the limit fails before
 * anything is read; an undeclared (chunked) body fails as soon as the running count passes it,
 * and reading stops there so the rest is never buffered.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onError = (err: Error) => finish(new HttpError(400, "bad_request", `request body could not be read: ${err.message}`));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** Read and parse a JSON body: 415 unless it is declared JSON, 413 past the cap, 400 naming a syntax error. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!isJsonContentType(req.headers["content-type"])) {
    const got = req.headers["content-type"] ?? "no Content-Type";
    throw new HttpError(415, "unsupported_media_type", `expected an application/json body, got ${got}`);
  }
  const text = (await readBody(req, limit)).toString("utf8");
  if (text.trim() === "") throw new HttpError(400, "invalid_json", "request body is empty; expected a JSON value");
  const parsed = parseJsonText(text);
  if (parsed.ok) return parsed.value;
  const where = `line ${parsed.line}, column ${parsed.column} (position ${parsed.offset})`;
  throw new HttpError(400, "invalid_json", `malformed JSON body: ${parsed.message} at ${where}`);
}
