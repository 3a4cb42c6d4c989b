import type { CreateSessionBody, EraSetting, ServerEntry } from "../../../core/mcp/index.ts";

export type McpTransportChoice = "stdio" | "streamable-http" | "sse";

/** How the page reaches an HTTP server: through the backend, by itself (needs CORS), or direct with the relay as fallback. */
export type ConnectionMode = "relay" | "direct" | "auto";
export const CONNECTION_MODES: readonly { readonly id: ConnectionMode; readonly label: string }[] = [
  { id: "relay", label: "Backend relay (any server)" },
  { id: "direct", label: "Direct from this page (the server must allow CORS)" },
  { id: "auto", label: "Auto: direct, else the relay" },
];

/** Versions the console can request in initialize, newest first. */
export const REQUESTABLE_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The protocol eras a server can be reached in, as the form offers them. */
export const ERA_CHOICES: readonly { readonly id: EraSetting; readonly label: string }[] = [
  { id: "auto", label: "Auto: probe with server/discover, else initialize" },
  { id: "legacy", label: "Legacy: initialize (2024-11-05 … 2025-11-25)" },
  { id: "modern", label: "Modern: 2026-07-28 (server/discover, stateless)" },
];

export interface NameValueRow {
  name: string;
  value: string;
}

export interface ConnectFormValues {
  readonly transport: McpTransportChoice;
  readonly command: string;
  /** One argument per line; blank lines are dropped, other whitespace is kept. */
  readonly argsText: string;
  /** The stdio server's working directory; empty for the backend's own. */
  readonly cwd?: string;
  readonly envRows: readonly NameValueRow[];
  readonly url: string;
  readonly headerRows: readonly NameValueRow[];
  /** Sent as `Authorization: Bearer …` to HTTP servers. */
  readonly bearerToken?: string;
}

export type FormResult = { readonly ok: true; readonly body: CreateSessionBody } | { readonly ok: false; readonly error: string };

/** Rows to a record; rows with neither name nor value are ignored, a value without a name is refused. */
export function rowsToRecord(rows: readonly NameValueRow[], what: string): { record: Record<string, string> } | { error: string } {
  const record: Record<string, string> = {};
  for (const [i, row] of rows.entries()) {
    const name = row.name.trim();
    if (name === "" && row.value === "") continue;
    if (name === "") return { error: `${what} ${i + 1} has a value but no name` };
    if (Object.hasOwn(record, name)) return { error: `${what} ${i + 1}: "${name}" is given twice` };
    record[name] = row.value;
  }
  return { record };
}

export function argsFromText(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

/** The relay session to ask for, or why the form cannot be sent as it is. */
export function sessionBody(form: ConnectFormValues): FormResult {
  if (form.transport === "stdio") {
    const command = form.command.trim();
    if (command === "") return { ok: false, error: "Give the command that starts the server" };
    const env = rowsToRecord(form.envRows, "Environment variable");
    if ("error" in env) return { ok: false, error: env.error };
    const args = argsFromText(form.argsText);
    const cwd = form.cwd?.trim() ?? "";
    return {
      ok: true,
      body: {
        transport: "stdio",
        command,
        ...(args.length > 0 ? { args } : {}),
        ...(Object.keys(env.record).length > 0 ? { env: env.record } : {}),
        ...(cwd !== "" ? { cwd } : {}),
      },
    };
  }
  const url = form.url.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `"${url}" is not a URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { ok: false, error: "The server URL must start with http:// or https://" };
  const headers = rowsToRecord(form.headerRows, "Header");
  if ("error" in headers) return { ok: false, error: headers.error };
  const bearer = withBearer(headers.record, form.bearerToken ?? "");
  if ("error" in bearer) return { ok: false, error: bearer.error };
  return { ok: true, body: { transport: form.transport, url, ...(Object.keys(bearer.record).length > 0 ? { headers: bearer.record } : {}) } };
}

/** The headers with the bearer token as an Authorization header, unless one is given twice. */
function withBearer(headers: Record<string, string>, token: string): { record: Record<string, string> } | { error: string } {
  const t = token.trim();
  if (t === "") return { record: headers };
  // A header value is visible ASCII; anything else would be refused by fetch, or split the header.
  if ([...t].some((c) => c < "!" || c > "~")) return { error: "The bearer token must be visible ASCII characters, without spaces or line breaks" };
  if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) {
    return { error: "Give the token either as the bearer token or as an Authorization header, not both" };
  }
  return { record: { ...headers, Authorization: `Bearer ${t}` } };
}

/** Seconds typed in the form to milliseconds, or why not: a positive number up to a day. */
export function secondsToMs(text: string, what: string): { ms: number } | { error: string } {
  const seconds = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
    return { error: `${what} must be a number of seconds between 0 and 86400` };
  }
  return { ms: Math.round(seconds * 1000) };
}

const rowsOf = (record: Readonly<Record<string, string>>): NameValueRow[] => Object.entries(record).map(([name, value]) => ({ name, value }));

/** The form's fields for a saved or imported server; an `Authorization: Bearer …` header fills the token field. */
export function formFromEntry(entry: ServerEntry): Required<ConnectFormValues> {
  const empty = { command: "", argsText: "", cwd: "", envRows: [], url: "", headerRows: [], bearerToken: "" };
  if (entry.transport === "stdio") {
    return { ...empty, transport: "stdio", command: entry.command, argsText: entry.args.join("\n"), cwd: entry.cwd ?? "", envRows: rowsOf(entry.env) };
  }
  const headers = { ...entry.headers };
  const auth = Object.keys(headers).find((name) => name.toLowerCase() === "authorization");
  const bearer = auth === undefined ? null : /^Bearer ([!-~]+)$/.exec(headers[auth] ?? "");
  if (auth !== undefined && bearer) delete headers[auth];
  return { ...empty, transport: entry.transport, url: entry.url, headerRows: rowsOf(headers), bearerToken: bearer?.[1] ?? "" };
}

/**
 * The form as a server entry named `name`. Fields the form does not show (kept from an import)
 * carry over from `from`, the entry the form was loaded from, when the transport is unchanged.
 */
export function entryFromForm(form: ConnectFormValues, name: string, from?: ServerEntry): { ok: true; entry: ServerEntry } | { ok: false; error: string } {
  const built = sessionBody(form);
  if (!built.ok) return built;
  const body = built.body;
  const same = from !== undefined && from.transport === body.transport;
  const kept = { extra: same ? from.extra : {}, ...(same && from.inputs ? { inputs: from.inputs } : {}) };
  if (body.transport === "stdio") {
    const { command, args = [], env = {}, cwd } = body;
    return { ok: true, entry: { name, transport: "stdio", command, args: [...args], env: { ...env }, ...(cwd !== undefined ? { cwd } : {}), ...kept } };
  }
  return { ok: true, entry: { name, transport: body.transport, url: body.url, headers: { ...body.headers }, ...kept } };
}

/** The relay's own HTTP time limits never cut a call the form would still wait for: the request limit plus 10 s, within the relay's range. */
export function relayLimitsFor(requestTimeoutMs: number): { headersTimeoutMs: number; idleTimeoutMs: number } {
  const ms = Math.min(300_000, Math.max(100, requestTimeoutMs + 10_000));
  return { headersTimeoutMs: ms, idleTimeoutMs: ms };
}
