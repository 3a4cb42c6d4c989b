import { DocumentError, type DocumentErrorCode } from "../../src/core/persist/document-store.ts";
import { HttpError } from "./errors.ts";

const STATUS: Record<DocumentErrorCode, number> = {
  not_found: 404,
  invalid_name: 400,
  corrupt: 422,
  invalid_document: 422,
  unknown_version: 409,
  io: 500,
};

/** Map a workspace failure to its HTTP status, keeping the store's code and message. */
export function documentHttpError(err: unknown): unknown {
  if (!(err instanceof DocumentError)) return err;
  return new HttpError(STATUS[err.code], err.code, err.message);
}
