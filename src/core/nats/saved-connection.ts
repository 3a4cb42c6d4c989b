import { isJsonObject } from "../json/json-object.ts";
import { AUTH_MODES, type AuthMode } from "./connection-form.ts";

/**
 * A NATS connection as saved in the workspace's "connections" documents. Secrets (passwords,
 * tokens, NKey seeds, creds files) are never saved: the user gives them again after loading.
 */
export interface SavedNatsConnection {
  readonly protocol: "nats";
  readonly servers: string;
  readonly auth: { readonly mode: AuthMode; readonly user?: string };
}

export type SavedConnectionResult =
  | { readonly ok: true; readonly connection: SavedNatsConnection }
  | { readonly ok: false; readonly error: string };


export function toSavedConnection(servers: string, mode: AuthMode, user: string): SavedNatsConnection {
  return { protocol: "nats", servers: servers.trim(), auth: mode === "userpass" ? { mode, user } : { mode } };
}

/** Check a loaded document's data; anything unexpected is named, never guessed at. */
export function parseSavedConnection(data: unknown): SavedConnectionResult {
  if (!isJsonObject(data)) return { ok: false, error: "not an object" };
  const { protocol, servers, auth } = data;
  if (protocol !== "nats") return { ok: false, error: `not a NATS connection (protocol ${JSON.stringify(protocol)})` };
  if (typeof servers !== "string" || servers === "") return { ok: false, error: "servers must be a non-empty string" };
  if (!isJsonObject(auth)) return { ok: false, error: "auth must be an object" };
  const { mode, user } = auth;
  if (!AUTH_MODES.includes(mode as AuthMode)) return { ok: false, error: `unknown auth mode ${JSON.stringify(mode)}` };
  if (user !== undefined && typeof user !== "string") return { ok: false, error: "auth.user must be a string" };
  return { ok: true, connection: toSavedConnection(servers, mode as AuthMode, user ?? "") };
}
