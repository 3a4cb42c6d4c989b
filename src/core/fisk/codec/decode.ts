import { isJsonObject, parseJsonText } from "../../json/index.ts";
import { MAX_BODY_BYTES } from "../../packs/fisk-ai/protocol.ts";
import { utf8Length } from "../../packs/fisk-ai/utf8.ts";
import { exactUtf8Text } from "../../wire/decode.ts";
import { routeProtocol, type Generation } from "./protocol-ids.ts";
import { rawTopLevelMember } from "./raw-member.ts";
import type { FiskMessage } from "./types-messages.ts";

/**
 * Decoding a fisk-ai body: size cap (in bytes, before anything else), strict UTF-8, JSON, an
 * object, then routing on `protocol` alone. It does not check the message against its schema;
 * the validation engine does that, so a decoded message is well-routed, not necessarily valid.
 * It never throws: every refusal is a value with a code and a sentence.
 */

/** Go's encoding/json refuses nesting past this depth; so does this decoder. */
export const GO_MAX_NESTING = 10_000;

export type DecodeErrorCode =
  | "too-large"
  | "not-utf8"
  | "not-json"
  | "not-object"
  | "no-protocol"
  | "unknown-protocol"
  | "invalid-event-id";

export interface DecodeError {
  readonly code: DecodeErrorCode;
  readonly message: string;
}

export type DecodeResult =
  | {
      readonly ok: true;
      readonly message: FiskMessage;
      /** The id without the namespace: `ack`, `event.text`, `event.citation`, `request` (Gen 1). */
      readonly kind: string;
      readonly generation: Generation;
      /** The body as text, exactly as it arrived. */
      readonly text: string;
    }
  | { readonly ok: false; readonly error: DecodeError };

const fail = (code: DecodeErrorCode, message: string): DecodeResult => ({ ok: false, error: { code, message } });

const tooLarge = (bytes: number): DecodeResult =>
  fail("too-large", `the body is ${bytes} bytes, over the ${MAX_BODY_BYTES} byte limit`);

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    else return true;
  }
  return false;
}

/** The text of the body, or the refusal: bytes are capped before they are decoded. */
function bodyText(data: Uint8Array | string): string | DecodeResult {
  if (typeof data !== "string") {
    if (data.byteLength > MAX_BODY_BYTES) return tooLarge(data.byteLength);
    const text = exactUtf8Text(data);
    return text ?? fail("not-utf8", "the body is not valid UTF-8");
  }
  // Every UTF-16 unit is at least one byte, so a long string is over the cap without counting.
  if (data.length > MAX_BODY_BYTES) return tooLarge(utf8Length(data));
  const bytes = utf8Length(data);
  if (bytes > MAX_BODY_BYTES) return tooLarge(bytes);
  if (hasLoneSurrogate(data)) return fail("not-utf8", "the text holds a lone UTF-16 surrogate, which has no UTF-8 form");
  return data;
}

const describe = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);

export function decodeFiskMessage(data: Uint8Array | string): DecodeResult {
  const text = bodyText(data);
  if (typeof text !== "string") return text;
  if (text.length === 0) return fail("not-json", "the body is empty");

  const parsed = parseJsonText(text, GO_MAX_NESTING);
  if (!parsed.ok) return fail("not-json", `not JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column})`);
  const value = parsed.value;
  if (!isJsonObject(value)) return fail("not-object", `a fisk-ai message is a JSON object, not ${describe(value)}`);

  if (!Object.hasOwn(value, "protocol")) return fail("no-protocol", "the message has no protocol id");
  const protocol = value.protocol;
  if (typeof protocol !== "string") return fail("no-protocol", `protocol must be a string, not ${describe(protocol)}`);

  const route = routeProtocol(protocol);
  if (route === "invalid-event-id") {
    return fail("invalid-event-id", `${JSON.stringify(protocol)} is not an event id: the kind after "event." must be one segment with no dot`);
  }
  if (route === "unknown-protocol") return fail("unknown-protocol", `unknown protocol id ${JSON.stringify(protocol)}`);

  if (route.unknownEvent) {
    // The parsed block is for display; the text is what goes back out.
    const raw = rawTopLevelMember(text, "block");
    if (raw !== null) value.rawBlock = raw;
  }
  return { ok: true, message: value as unknown as FiskMessage, kind: route.kind, generation: route.generation, text };
}
