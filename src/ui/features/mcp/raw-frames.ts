const decoder = new TextDecoder("utf-8", { fatal: false });
const MAX_SHOWN = 64 * 1024;

/** A frame's bytes as text for display, cut at 64 KB (Traffic keeps the whole frame). */
export function byteString(bytes: Uint8Array): string {
  if (bytes.byteLength <= MAX_SHOWN) return decoder.decode(bytes);
  return `${decoder.decode(bytes.subarray(0, MAX_SHOWN))}… (${bytes.byteLength} bytes; the whole frame is in Traffic)`;
}
