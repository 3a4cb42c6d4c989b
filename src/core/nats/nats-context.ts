import { parseJsonText } from "../json/index.ts";
import { isJsonObject } from "../json/json-object.ts";
import type { AuthMode } from "./connection-form.ts";

/**
 * A context file of the `nats` CLI (`~/.config/nats/context/<name>.json`), read into what the
 * console's connection form can use. The browser reaches NATS over WebSocket only, so a TCP URL
 * is kept for display with a note, and files the context points at (creds, nkey) are named so the
 * user can pick them: a browser cannot read a path.
 */
export interface NatsContextImport {
  readonly name: string;
  readonly description?: string;
  /** The context's URL list as written. */
  readonly url?: string;
  /** The first ws:// or wss:// URL of the list, usable from the browser. */
  readonly webSocketUrl?: string;
  readonly auth: {
    readonly mode: AuthMode;
    readonly user?: string;
    readonly password?: string;
    readonly token?: string;
    /** Path of the creds or nkey seed file the context names. */
    readonly file?: string;
  };
  /** Plain notes on what could not be carried over, and why. */
  readonly notes: readonly string[];
}

export type NatsContextResult = { readonly ok: true; readonly context: NatsContextImport } | { readonly ok: false; readonly error: string };

/** Settings the console has no use for in a browser, with the reason given to the user. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  cert: "TLS client certificates are chosen by the browser, not by the page",
  key: "TLS client certificates are chosen by the browser, not by the page",
  ca: "the browser trusts its own certificate authorities",
  socks_proxy: "a browser connection cannot go through a SOCKS proxy",
  nsc: "nsc lookups need the nsc tool; export a creds file instead",
  user_jwt: "a bare JWT needs its seed; use a creds file instead",
  tls_first: "the browser negotiates TLS itself",
};

const text = (o: Record<string, unknown>, key: string): string | undefined => {
  const v = o[key];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};

/** Reads a context file's text. `name` is the context's name (its file name without `.json`). */
export function parseNatsContext(name: string, input: string): NatsContextResult {
  const parsed = parseJsonText(input);
  if (!parsed.ok) return { ok: false, error: `not a nats context: not JSON (line ${parsed.line}, column ${parsed.column}: ${parsed.message})` };
  const o = parsed.value;
  if (!isJsonObject(o)) return { ok: false, error: "not a nats context: the file must hold a JSON object" };
  const notes: string[] = [];
  const url = text(o, "url");
  const webSocketUrl = url
    ?.split(",")
    .map((u) => u.trim())
    .find((u) => /^wss?:\/\//i.test(u));
  if (url && !webSocketUrl) notes.push(`The context's URL (${url}) is not a WebSocket URL; give the server's ws:// or wss:// address to connect from the browser.`);
  const user = text(o, "user");
  const password = text(o, "password");
  const token = text(o, "token");
  const creds = text(o, "creds");
  const nkey = text(o, "nkey");
  let auth: NatsContextImport["auth"];
  if (creds) auth = { mode: "creds", file: creds };
  else if (nkey) auth = { mode: "nkey", file: nkey };
  else if (user && password) auth = { mode: "userpass", user, password };
  // The nats CLI takes a user with no password as a token.
  else if (token || user) auth = { mode: "token", token: (token ?? user)! };
  else auth = { mode: "none" };
  if (auth.file) notes.push(`The context uses the ${auth.mode === "creds" ? "credentials" : "NKey seed"} file ${auth.file}; pick that file to connect.`);
  for (const [key, why] of Object.entries(UNSUPPORTED)) if (o[key] !== undefined && o[key] !== "" && o[key] !== false) notes.push(`"${key}" is not used: ${why}.`);
  const description = text(o, "description");
  return {
    ok: true,
    context: { name, ...(description ? { description } : {}), ...(url ? { url } : {}), ...(webSocketUrl ? { webSocketUrl } : {}), auth, notes: [...new Set(notes)] },
  };
}
