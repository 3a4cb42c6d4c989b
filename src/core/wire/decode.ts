import { isJsonObject } from "../json/json-object.ts";
import type { WireDecoded } from "./wire-entry.ts";

/** Above this many bytes the decoded JSON view is skipped; the raw bytes are always kept. */
export const DECODE_LIMIT_BYTES = 4 * 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });
// ignoreBOM keeps a leading U+FEFF in the text, so the text re-encodes to the very same bytes.
const exactUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 text of the bytes (a leading BOM dropped), or null when they are not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** UTF-8 text of the bytes keeping a leading BOM, so it encodes back byte for byte; null when not valid UTF-8. */
export function exactUtf8Text(bytes: Uint8Array): string | null {
  try {
    return exactUtf8.decode(bytes);
  } catch {
    return null;
  }
}

function pickString(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === "string" ? v : undefined;
}

/** Derive a display view from raw bytes. Never throws. */
export function decodeFrame(bytes: Uint8Array): WireDecoded {
  if (bytes.byteLength === 0) return { jsonError: "empty payload" };
  if (bytes.byteLength > DECODE_LIMIT_BYTES) {
    return { jsonError: `payload of ${bytes.byteLength} bytes is larger than the ${DECODE_LIMIT_BYTES}-byte decode limit` };
  }
  const text = utf8Text(bytes);
  if (text === null) return { jsonError: "not valid UTF-8" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { jsonError: `not JSON: ${(err as Error).message}` };
  }
  if (!isJsonObject(json)) return { json };
  const method = pickString(json, "method");
  const protocolId = pickString(json, "protocol") ?? pickString(json, "type");
  const sender = isJsonObject(json.sender) ? json.sender : undefined;
  const name = sender ? pickString(sender, "name") : undefined;
  const instance = sender ? pickString(sender, "instance") : undefined;
  return {
    json,
    ...(method !== undefined ? { method } : {}),
    ...(protocolId !== undefined ? { protocolId } : {}),
    ...(name !== undefined && protocolId !== undefined ? { sender: { name, ...(instance ? { instance } : {}) } } : {}),
  };
}
