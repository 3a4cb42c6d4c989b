import { exactUtf8Text } from "../../core/wire/index.ts";
import { formatCount } from "./format.ts";

/** Payloads longer than this are cut for display only; exports always carry every byte. */
export const DISPLAY_LIMIT_BYTES = 256 * 1024;

export interface PayloadView {
  readonly kind: "text" | "hex";
  readonly body: string;
  /** Marker naming what was cut, or null when everything is shown. */
  readonly truncated: string | null;
}

/** The marker shown where a payload was cut for display. */
export function truncationMarker(hidden: number, unit: "bytes" | "characters" = "bytes"): string {
  return `… ${formatCount(hidden)} more ${unit} not shown (kept whole in exports)`;
}

// Lenient on purpose: it only decodes the shown prefix of a payload known to be UTF-8 as a whole.
const lenientUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });

const hex2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Classic 16-bytes-per-line dump: offset, hex bytes, printable ASCII. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    let hex = "";
    let ascii = "";
    for (let i = 0; i < 16; i++) {
      const b = row[i];
      hex += (b === undefined ? "  " : hex2[b]) + (i === 7 ? "  " : " ");
      if (b !== undefined) ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".";
    }
    lines.push(`${at.toString(16).padStart(8, "0")}  ${hex} |${ascii}|`);
  }
  return lines.join("\n");
}

/**
 * The payload as shown in the detail pane: text when the whole payload is UTF-8, else a hex
 * dump, in both cases cut at `limit` bytes with a marker saying how much is hidden.
 */
export function payloadView(bytes: Uint8Array, limit = DISPLAY_LIMIT_BYTES): PayloadView {
  const text = exactUtf8Text(bytes);
  const cut = bytes.length > limit;
  const shown = cut ? bytes.subarray(0, limit) : bytes;
  const truncated = cut ? truncationMarker(bytes.length - limit) : null;
  if (text === null) return { kind: "hex", body: hexDump(shown), truncated };
  // Uncut, the exact text is the body. A cut can split a multi-byte character, which then
  // decodes to U+FFFD; only the display sees it.
  return { kind: "text", body: cut ? lenientUtf8.decode(shown) : text, truncated };
}

/** Pretty-printed JSON, cut at `limit` characters with a marker. */
export function prettyJson(json: unknown, limit = DISPLAY_LIMIT_BYTES): { body: string; truncated: string | null } {
  const body = JSON.stringify(json, null, 2) ?? String(json);
  if (body.length <= limit) return { body, truncated: null };
  return { body: body.slice(0, limit), truncated: truncationMarker(body.length - limit, "characters") };
}
