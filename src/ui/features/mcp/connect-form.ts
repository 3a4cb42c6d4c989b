import type { CreateSessionBody } from "../../../core/mcp/index.ts";

export type McpTransportChoice = "stdio" | "streamable-http" | "sse";

/** Versions the console can request in initialize, newest first. */
export const REQUESTABLE_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

export interface NameValueRow {
  name: string;
  value: string;
}

export interface ConnectFormValues {
  readonly transport: McpTransportChoice;
  readonly command: string;
  /** One argument per line; blank lines are dropped, other whitespace is kept. */
  readonly argsText: string;
  readonly envRows: readonly NameValueRow[];
  readonly url: string;
  readonly headerRows: readonly NameValueRow[];
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
    return {
      ok: true,
      body: { transport: "stdio", command, ...(args.length > 0 ? { args } : {}), ...(Object.keys(env.record).length > 0 ? { env: env.record } : {}) },
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
  return { ok: true, body: { transport: form.transport, url, ...(Object.keys(headers.record).length > 0 ? { headers: headers.record } : {}) } };
}

/** Seconds typed in the form to milliseconds, or why not: a positive number up to a day. */
export function secondsToMs(text: string, what: string): { ms: number } | { error: string } {
  const seconds = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
    return { error: `${what} must be a number of seconds between 0 and 86400` };
  }
  return { ms: Math.round(seconds * 1000) };
}
