import { OUTPUT_CAP_BYTES } from "./toolkit-types.ts";

const marker = (omitted: number): string => `\n… ${omitted} bytes omitted …\n`;

export interface CappedOutput {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * Keeps output under `cap` bytes (UTF-8) as head + marker + tail, so both the start of a command's
 * output and its final error stay visible. Cuts never split a character.
 */
export function capOutput(bytes: Uint8Array, cap = OUTPUT_CAP_BYTES): CappedOutput {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  if (bytes.length <= cap) return { text: decoder.decode(bytes), truncated: false };
  // The longest the marker can be, so head + marker + tail never exceeds the cap.
  const room = Math.max(0, cap - new TextEncoder().encode(marker(bytes.length)).length);
  const headEnd = charBoundary(bytes, Math.ceil(room / 2));
  const tailStart = charBoundary(bytes, bytes.length - Math.floor(room / 2));
  const text = decoder.decode(bytes.subarray(0, headEnd)) + marker(tailStart - headEnd) + decoder.decode(bytes.subarray(tailStart));
  return { text, truncated: true };
}

/** Moves `index` back to the start of the UTF-8 character it falls in. */
function charBoundary(bytes: Uint8Array, index: number): number {
  let i = Math.max(0, Math.min(index, bytes.length));
  while (i > 0 && i < bytes.length && ((bytes[i] ?? 0) & 0xc0) === 0x80) i--;
  return i;
}
