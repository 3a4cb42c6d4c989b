const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const PAD = 61; // "="
const ENCODE = new Uint8Array(64);
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  ENCODE[i] = ALPHABET.charCodeAt(i);
  DECODE[ALPHABET.charCodeAt(i)] = i;
}

// Bounded so String.fromCharCode's argument list stays well under engine limits.
const CHUNK = 0x8000;

/** Standard base64 (RFC 4648 §4, padded) of the bytes. */
export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o++] = ENCODE[n >>> 18] as number;
    out[o++] = ENCODE[(n >>> 12) & 63] as number;
    out[o++] = ENCODE[(n >>> 6) & 63] as number;
    out[o++] = ENCODE[n & 63] as number;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] as number) << 16) | (rest === 2 ? (bytes[i + 1] as number) << 8 : 0);
    out[o++] = ENCODE[n >>> 18] as number;
    out[o++] = ENCODE[(n >>> 12) & 63] as number;
    out[o++] = rest === 2 ? (ENCODE[(n >>> 6) & 63] as number) : PAD;
    out[o++] = PAD;
  }
  let text = "";
  for (let c = 0; c < out.length; c += CHUNK) {
    text += String.fromCharCode.apply(null, out.subarray(c, c + CHUNK) as unknown as number[]);
  }
  return text;
}

/** Thrown by decodeBase64 with the reason the text is not canonical padded base64. */
export class Base64Error extends Error {
  override readonly name = "Base64Error";
}

function sextet(text: string, at: number): number {
  const code = text.charCodeAt(at);
  const value = code < 128 ? (DECODE[code] as number) : -1;
  if (value < 0) throw new Base64Error(`invalid base64 character ${JSON.stringify(text[at])} at offset ${at}`);
  return value;
}

/**
 * Decode canonical padded base64. Strict on purpose: whitespace, a missing or misplaced pad
 * and non-zero trailing bits are errors, so one text maps to exactly one byte string.
 */
export function decodeBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Base64Error(`base64 length ${text.length} is not a multiple of 4`);
  if (text.length === 0) return new Uint8Array(0);
  const pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  const full = text.length - (pad > 0 ? 4 : 0);
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const n = (sextet(text, i) << 18) | (sextet(text, i + 1) << 12) | (sextet(text, i + 2) << 6) | sextet(text, i + 3);
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  if (pad > 0) {
    const a = sextet(text, full);
    const b = sextet(text, full + 1);
    const c = pad === 1 ? sextet(text, full + 2) : 0;
    if ((pad === 2 && (b & 15) !== 0) || (pad === 1 && (c & 3) !== 0)) {
      throw new Base64Error("base64 has non-zero bits after the last byte (not canonical)");
    }
    out[o++] = (a << 2) | (b >>> 4);
    if (pad === 1) out[o++] = ((b & 15) << 4) | (c >>> 2);
  }
  return out;
}
