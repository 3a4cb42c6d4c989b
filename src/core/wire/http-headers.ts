/** Headers that carry credentials: an HTTP frame's log keeps their names, never their values. */
const CREDENTIALS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);
export const WITHHELD = "(withheld: a credential)";

/** Anything fetch takes as headers, or a plain record. */
export type HeaderSource = Headers | Readonly<Record<string, string>> | readonly (readonly [string, string])[] | undefined;

function pairs(headers: HeaderSource): [string, string][] {
  if (headers === undefined) return [];
  if (typeof (headers as Headers).forEach === "function" && !Array.isArray(headers)) {
    const out: [string, string][] = [];
    (headers as Headers).forEach((value, name) => out.push([name, value]));
    return out;
  }
  if (Array.isArray(headers)) return headers.map(([n, v]) => [n, v]);
  return Object.entries(headers as Record<string, string>);
}

/**
 * An HTTP exchange's headers as a wire frame records them: names lower-cased as HTTP/2 sends them,
 * values kept, except that credentials are withheld. Undefined when there are none.
 */
export function httpFrameHeaders(headers: HeaderSource, extra: Readonly<Record<string, string>> = {}): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [rawName, value] of [...pairs(headers), ...Object.entries(extra)]) {
    const name = rawName.toLowerCase();
    const shown = CREDENTIALS.has(name) ? WITHHELD : value;
    (out[name] ??= []).push(shown);
  }
  return Object.keys(out).length === 0 ? undefined : { ...out };
}
