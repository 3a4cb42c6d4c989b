import type { AuthMode } from "./connection-form.ts";

/**
 * A NATS connection as saved in the workspace's "connections" documents. Secrets (passwords,
 * tokens) are never saved: the user types them again after loading.
 */
export interface SavedNatsConnection {
  readonly protocol: "nats";
  readonly servers: string;
  readonly auth: { readonly mode: AuthMode; readonly user?: string };
}

export type SavedConnectionResult =
  | { readonly ok: true; readonly connection: SavedNatsConnection }
  | { readonly ok: false; readonly error: string };

const MODES: readonly AuthMode[] = ["none", "userpass", "token"];

export function toSavedConnection(servers: string, mode: AuthMode, user: string): SavedNatsConnection {
  return { protocol: "nats", servers: servers.trim(), auth: mode === "userpass" ? { mode, user } : { mode } };
}

/** Check a loaded document's data; anything unexpected is named, never guessed at. */
export function parseSavedConnection(data: unknown): SavedConnectionResult {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, error: "not an object" };
  const d = data as Record<string, unknown>;
  if (d["protocol"] !== "nats") return { ok: false, error: `not a NATS connection (protocol ${JSON.stringify(d["protocol"])})` };
  if (typeof d["servers"] !== "string" || d["servers"] === "") return { ok: false, error: "servers must be a non-empty string" };
  const auth = d["auth"];
  if (typeof auth !== "object" || auth === null) return { ok: false, error: "auth must be an object" };
  const a = auth as Record<string, unknown>;
  const mode = a["mode"];
  if (!MODES.includes(mode as AuthMode)) return { ok: false, error: `unknown auth mode ${JSON.stringify(mode)}` };
  if (a["user"] !== undefined && typeof a["user"] !== "string") return { ok: false, error: "auth.user must be a string" };
  return { ok: true, connection: toSavedConnection(d["servers"], mode as AuthMode, (a["user"] as string | undefined) ?? "") };
}
