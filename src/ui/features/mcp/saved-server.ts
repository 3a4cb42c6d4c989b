/**
 * One saved MCP server as a workspace document ("servers" kind, format version 1):
 * `{ protocol: "mcp", name, server, inputs?, connection, era?, protocolVersion?, secrets }`, where
 * `server` is the entry as VS Code would write it (explicit `type`, kept fields included), `era`
 * the protocol era to reach it in and `protocolVersion` the version initialize asks for. A server
 * saved before eras existed has neither and loads as legacy with the newest legacy version: it
 * was saved by a console that spoke only initialize, so it keeps exactly the traffic it had (no
 * probe a stdio server might exit on); the user switches it to auto or modern.
 */
import { isJsonObject } from "../../../core/json/index.ts";
import { entryJson, type EraSetting, isEraSetting, LEGACY_VERSIONS, parseServerEntry, type ServerEntry } from "../../../core/mcp/index.ts";
import { documentNameProblem } from "../../../core/persist/names.ts";
import type { ConnectionMode } from "./connect-form.ts";

/** The values that are never written by default: environment and header values. */
export interface Secrets {
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
}

const MODES: readonly ConnectionMode[] = ["relay", "direct", "auto"];
const blank = (record: Readonly<Record<string, string>>) => Object.fromEntries(Object.keys(record).map((k) => [k, ""]));

export function secretsOf(entry: ServerEntry): Secrets {
  return entry.transport === "stdio" ? { env: entry.env, headers: {} } : { env: {}, headers: entry.headers };
}

/** The entry with every environment and header value emptied; the names stay, so the user knows what to give. */
export function blankSecrets(entry: ServerEntry): ServerEntry {
  return entry.transport === "stdio" ? { ...entry, env: blank(entry.env) } : { ...entry, headers: blank(entry.headers) };
}

/** Empty values filled from what this tab still knows. */
export function withSecrets(entry: ServerEntry, known: Secrets | undefined): ServerEntry {
  if (!known) return entry;
  const fill = (record: Readonly<Record<string, string>>, from: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v === "" && Object.hasOwn(from, k) ? from[k]! : v]));
  return entry.transport === "stdio" ? { ...entry, env: fill(entry.env, known.env) } : { ...entry, headers: fill(entry.headers, known.headers) };
}

/** The era and initialize version a server is reached with. */
export interface SavedProtocol {
  readonly era: EraSetting;
  readonly version: string;
}

export function toSavedServer(entry: ServerEntry, mode: ConnectionMode, saveSecrets: boolean, protocol?: SavedProtocol): Record<string, unknown> {
  return {
    protocol: "mcp",
    name: entry.name,
    server: entryJson(saveSecrets ? entry : blankSecrets(entry), "vscode"),
    ...(entry.inputs ? { inputs: entry.inputs } : {}),
    connection: mode,
    ...(protocol ? { era: protocol.era, protocolVersion: protocol.version } : {}),
    secrets: saveSecrets ? "saved" : "omitted",
  };
}

export type SavedServerResult =
  | { readonly ok: true; readonly entry: ServerEntry; readonly mode: ConnectionMode; readonly secretsSaved: boolean; readonly protocol: SavedProtocol; readonly notes: readonly string[] }
  | { readonly ok: false; readonly error: string };

/** The saved era and version; what is missing takes the pre-era meaning, what is unknown is named. */
function savedProtocol(data: Record<string, unknown>): { protocol: SavedProtocol; notes: string[] } {
  const notes: string[] = [];
  let era: EraSetting = "legacy";
  if (isEraSetting(data.era)) era = data.era;
  else if (data.era !== undefined) notes.push(`its era ${JSON.stringify(data.era)} is none of auto, legacy, modern; it loads as legacy`);
  let version: string = LEGACY_VERSIONS[0];
  if (typeof data.protocolVersion === "string" && (LEGACY_VERSIONS as readonly string[]).includes(data.protocolVersion)) version = data.protocolVersion;
  else if (data.protocolVersion !== undefined) notes.push(`its protocol version ${JSON.stringify(data.protocolVersion)} is not one initialize can ask for; ${version} is used`);
  return { protocol: { era, version }, notes };
}

/** Checks a loaded document's data; anything unexpected is named, never guessed at. */
export function parseSavedServer(docName: string, data: unknown): SavedServerResult {
  if (data instanceof Error) return { ok: false, error: data.message };
  if (!isJsonObject(data)) return { ok: false, error: "not an object" };
  if (data.protocol !== "mcp") return { ok: false, error: `not an MCP server (protocol ${JSON.stringify(data.protocol)})` };
  const name = typeof data.name === "string" && data.name.trim() !== "" ? data.name : docName;
  const inputs = new Map<string, Record<string, unknown>>();
  if (Array.isArray(data.inputs)) for (const i of data.inputs) if (isJsonObject(i) && typeof i.id === "string") inputs.set(i.id, i);
  const parsed = parseServerEntry(name, data.server, inputs);
  if ("error" in parsed) return { ok: false, error: parsed.error };
  const mode = MODES.find((m) => m === data.connection) ?? "relay";
  const { protocol, notes } = savedProtocol(data);
  return { ok: true, entry: parsed.entry, mode, secretsSaved: data.secrets === "saved", protocol, notes };
}

/**
 * A free workspace name for a server: characters a file name cannot safely hold become "-",
 * and a name already taken (compared without case, as some file systems do) gets "-2", "-3"…
 */
export function documentNameFor(name: string, taken: ReadonlySet<string>): string {
  let base = name
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[^A-Za-z0-9]+/, "")
    .replace(/[.-]+$/, "")
    .slice(0, 120);
  if (base === "") base = "server";
  else if (documentNameProblem(base) !== null) base = `server-${base}`;
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** Free workspace names for servers about to be added next to `existing` documents, in order. */
export function documentNames(servers: readonly string[], existing: readonly string[]): string[] {
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  return servers.map((name) => {
    const doc = documentNameFor(name, taken);
    taken.add(doc.toLowerCase());
    return doc;
  });
}
