import type { WireFrameInput } from "../../../core/wire/index.ts";

/**
 * The headers the form adds to every request: custom rows, a bearer token, an API key. Which of
 * them are secrets is kept beside them, so the log can hide those the core does not know about
 * (an API key under a name of the agent's choosing).
 */

export interface HeaderRow {
  name: string;
  value: string;
}

export interface Credentials {
  readonly bearer: string;
  readonly apiKeyName: string;
  readonly apiKeyValue: string;
}

export type HeadersOutcome =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>>; readonly secret: readonly string[] }
  | { readonly ok: false; readonly error: string };

const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Custom header names that carry credentials by their look; their values stay out of the log too. */
const SECRET_LOOK = /(authorization|token|secret|password|api-?key|cookie|session)/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_LOOK.test(name);
}

/** Rows and credentials as one header object; a bad row is named and nothing is sent. */
export function requestHeaders(rows: readonly HeaderRow[], credentials?: Credentials): HeadersOutcome {
  const headers: Record<string, string> = {};
  const secret: string[] = [];
  for (const [i, row] of rows.entries()) {
    const name = row.name.trim();
    if (name === "" && row.value === "") continue;
    if (name === "") return { ok: false, error: `header row ${i + 1} has a value but no name` };
    if (!NAME.test(name)) return { ok: false, error: `header name "${name}" may only hold letters, digits and !#$%&'*+.^_\`|~-` };
    if (/[\r\n\0]/.test(row.value)) return { ok: false, error: `header "${name}" holds a line break` };
    headers[name] = row.value;
    if (isSecretHeader(name)) secret.push(name.toLowerCase());
  }
  if (credentials) {
    const bearer = credentials.bearer.trim();
    if (bearer !== "") {
      if (/[\s\r\n]/.test(bearer)) return { ok: false, error: "the bearer token holds spaces or line breaks" };
      headers.Authorization = `Bearer ${bearer}`;
      secret.push("authorization");
    }
    const keyName = credentials.apiKeyName.trim();
    if (credentials.apiKeyValue !== "") {
      if (keyName === "") return { ok: false, error: "the API key needs a header name (X-API-Key, say)" };
      if (!NAME.test(keyName)) return { ok: false, error: `API key header name "${keyName}" is not a header name` };
      if (/[\r\n\0]/.test(credentials.apiKeyValue)) return { ok: false, error: "the API key holds a line break" };
      headers[keyName] = credentials.apiKeyValue;
      secret.push(keyName.toLowerCase());
    }
  }
  return { ok: true, headers, secret: [...new Set(secret)] };
}

/** The frame with the values of the named headers replaced, before it reaches the log. */
export function redactFrame(frame: WireFrameInput, secret: readonly string[]): WireFrameInput {
  if (!frame.headers || secret.length === 0) return frame;
  const names = new Set(secret.map((s) => s.toLowerCase()));
  let changed = false;
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(frame.headers)) {
    if (names.has(k.toLowerCase())) {
      headers[k] = v.map(() => "[redacted]");
      changed = true;
    } else headers[k] = v;
  }
  return changed ? { ...frame, headers } : frame;
}

/** Headers for display: secrets shown as set, never their value. */
export function shownHeaders(headers: Readonly<Record<string, string>>, secret: readonly string[] = []): [string, string][] {
  const names = new Set([...secret.map((s) => s.toLowerCase()), "authorization", "x-api-key", "api-key", "cookie"]);
  return Object.entries(headers).map(([k, v]) => [k, names.has(k.toLowerCase()) || isSecretHeader(k) ? "[set, not shown]" : v]);
}

/**
 * The form's headers for an A2A request: a custom A2A-Version row is for card fetches (an agent
 * may serve a card per version); on requests, Compose's A2A-Version choice decides.
 */
export function requestFormHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== "a2a-version"));
}
