import type { ApiErrorBody } from "../../src/core/backend/backend-client.ts";

/** Every failure leaves the backend as `{ "error": { "code", "message" } }` with a fitting status. */
export type ErrorBody = ApiErrorBody;

/** A failure with the HTTP status and stable code the client sees. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** The JSON body for an error. */
export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

/** Anything thrown, as an HttpError; unknown failures become an opaque 500. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  return new HttpError(500, "internal", "internal server error; see the backend's log");
}
