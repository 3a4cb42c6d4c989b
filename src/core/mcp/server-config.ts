/**
 * The MCP client config files people already have, read into one list of servers: Claude Desktop
 * and Cursor (`{"mcpServers": {…}}`), VS Code (`{"servers": {…}, "inputs": […]}`) or just the
 * inner map. Bad entries are reported by name and the good ones still come through; fields this
 * reader does not use are kept so writing the list back (server-config-format.ts) loses nothing.
 */
import { isJsonObject } from "../json/json-object.ts";
import { parseJsonText } from "../json/parse-json-text.ts";
import { stripJsonComments } from "./jsonc.ts";

export type ServerTransport = "stdio" | "streamable-http" | "sse";

interface EntryBase {
  /** The name the file gave the server. */
  readonly name: string;
  /** Fields this reader does not use, as found. */
  readonly extra: Readonly<Record<string, unknown>>;
  /** VS Code `inputs` definitions that the entry's `${input:…}` placeholders refer to. */
  readonly inputs?: readonly Readonly<Record<string, unknown>>[];
}

export interface StdioServerEntry extends EntryBase {
  readonly transport: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface HttpServerEntry extends EntryBase {
  readonly transport: "streamable-http" | "sse";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type ServerEntry = StdioServerEntry | HttpServerEntry;

/** Something to tell the user: about one server when `server` is set, else about the file. */
export interface ConfigNote {
  readonly server?: string;
  readonly message: string;
}

export interface ServersConfig {
  /** Where the servers were found: `mcpServers`, VS Code's `servers`, or a bare map. */
  readonly shape: "mcpServers" | "servers" | "map";
  readonly servers: readonly ServerEntry[];
  /** Entries that could not be read, each with the reason. */
  readonly rejected: readonly ConfigNote[];
  readonly warnings: readonly ConfigNote[];
}

export type ParseConfigResult = { readonly ok: true; readonly config: ServersConfig } | { readonly ok: false; readonly error: string };

/** A client config is a few kilobytes; anything past a megabyte is not one. */
export const MAX_CONFIG_CHARS = 1_048_576;
/** The deepest real config is about five levels (servers → entry → env → value). */
export const MAX_CONFIG_DEPTH = 32;
export const MAX_CONFIG_SERVERS = 500;

const TYPES: Readonly<Record<string, ServerTransport>> = {
  stdio: "stdio",
  http: "streamable-http",
  "streamable-http": "streamable-http",
  streamablehttp: "streamable-http",
  sse: "sse",
};
const STDIO_FIELDS = new Set(["type", "command", "args", "env", "cwd"]);
const HTTP_FIELDS = new Set(["type", "url", "headers"]);
const PLACEHOLDER = /\$\{([^}]*)\}/g;

type Problem = { readonly error: string };
const fail = (error: string): Problem => ({ error });

/** Reads a config file's text; fails only when nothing can be read from it at all. */
export function parseServersConfig(text: string): ParseConfigResult {
  if (text.length > MAX_CONFIG_CHARS) {
    return { ok: false, error: `The file has ${text.length} characters; an MCP client config is read up to ${MAX_CONFIG_CHARS}.` };
  }
  if (text.trim() === "") return { ok: false, error: "The file is empty." };
  // VS Code's mcp.json is JSON with comments and trailing commas.
  const parsed = parseJsonText(stripJsonComments(text.replace(/^\uFEFF/, "")), MAX_CONFIG_DEPTH);
  if (!parsed.ok) return { ok: false, error: `The file is not JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column}).` };
  return parseServersValue(parsed.value);
}

/** Reads an already parsed config value (see parseServersConfig). */
export function parseServersValue(root: unknown): ParseConfigResult {
  if (!isJsonObject(root)) return { ok: false, error: "The file must hold a JSON object with an mcpServers or servers map." };
  const warnings: ConfigNote[] = [];
  const found = findMap(root, warnings);
  if ("error" in found) return { ok: false, error: found.error };
  const names = Object.keys(found.map);
  if (names.length > MAX_CONFIG_SERVERS) {
    return { ok: false, error: `The file lists ${names.length} servers; at most ${MAX_CONFIG_SERVERS} are read at once.` };
  }
  const inputs = readInputs(found.inputs, warnings);
  const servers: ServerEntry[] = [];
  const rejected: ConfigNote[] = [];
  for (const name of names) {
    const read = parseServerEntry(name, found.map[name], inputs);
    if ("error" in read) rejected.push({ server: name, message: read.error });
    else {
      servers.push(read.entry);
      for (const message of read.warnings) warnings.push({ server: name, message });
    }
  }
  if (names.length === 0) warnings.push({ message: "The file lists no servers." });
  return { ok: true, config: { shape: found.shape, servers, rejected, warnings } };
}

function findMap(
  root: Record<string, unknown>,
  warnings: ConfigNote[],
): { shape: ServersConfig["shape"]; map: Record<string, unknown>; inputs: unknown } | Problem {
  const vscodeSettings = isJsonObject(root.mcp) && "servers" in root.mcp ? root.mcp : undefined;
  const [shape, holder, key] =
    "mcpServers" in root ? (["mcpServers", root, "mcpServers"] as const)
    : "servers" in root ? (["servers", root, "servers"] as const)
    : vscodeSettings ? (["servers", vscodeSettings, "servers"] as const)
    : (["map", undefined, undefined] as const);
  if (holder === undefined || key === undefined) {
    if ("command" in root || "url" in root) {
      return fail('This looks like one server entry, not a map of servers: wrap it as {"mcpServers": {"a-name": …}}.');
    }
    return { shape, map: root, inputs: undefined };
  }
  const map = holder[key];
  if (!isJsonObject(map)) return fail(`"${key}" must be an object mapping server names to their settings, not ${describe(map)}.`);
  const ignored = Object.keys(holder).filter((k) => k !== key && k !== "inputs");
  if (ignored.length > 0) warnings.push({ message: `Ignored top-level fields: ${ignored.join(", ")}.` });
  return { shape, map, inputs: holder.inputs };
}

function readInputs(value: unknown, warnings: ConfigNote[]): ReadonlyMap<string, Record<string, unknown>> {
  const inputs = new Map<string, Record<string, unknown>>();
  if (value === undefined) return inputs;
  if (!Array.isArray(value)) {
    warnings.push({ message: `"inputs" should be a list of input definitions, not ${describe(value)}; it was ignored.` });
    return inputs;
  }
  for (const [i, input] of value.entries()) {
    if (isJsonObject(input) && typeof input.id === "string" && !hasProtoKey(input)) inputs.set(input.id, input);
    else warnings.push({ message: `inputs[${i}] has no string "id"; it was ignored.` });
  }
  return inputs;
}

/** One server's settings, or why they cannot be used. */
export function parseServerEntry(
  name: string,
  value: unknown,
  inputs: ReadonlyMap<string, Readonly<Record<string, unknown>>> = new Map(),
): { readonly entry: ServerEntry; readonly warnings: readonly string[] } | Problem {
  if (name === "__proto__") return fail('"__proto__" cannot name a server.');
  if (name.trim() === "") return fail("A server needs a non-empty name.");
  if (name.length > 200) return fail("The server name is longer than 200 characters.");
  if (!isJsonObject(value)) return fail(`The settings must be an object, not ${describe(value)}.`);
  if (hasProtoKey(value)) return fail('The settings contain a "__proto__" key, which is refused.');
  const transport = transportOf(value);
  if ("error" in transport) return transport;
  const warnings: string[] = transport.guessed ? [transport.guessed] : [];
  const known = transport.type === "stdio" ? STDIO_FIELDS : HTTP_FIELDS;
  const extra = Object.fromEntries(Object.entries(value).filter(([k]) => !known.has(k)));
  const unused = Object.keys(extra);
  if (unused.length > 0) warnings.push(`Kept but not used here: ${unused.join(", ")}.`);
  const body = transport.type === "stdio" ? stdioEntry(name, value, extra) : httpEntry(name, transport.type, value, extra);
  if ("error" in body) return body;
  const used = new Map<string, Readonly<Record<string, unknown>>>();
  for (const [where, text] of stringsOf(body)) warnings.push(...placeholderWarnings(where, text, inputs, used));
  const entry = used.size > 0 ? { ...body, inputs: [...used.values()] } : body;
  return { entry, warnings };
}

function transportOf(value: Record<string, unknown>): { type: ServerTransport; guessed?: string } | Problem {
  const { type, command, url } = value;
  if (type !== undefined) {
    const known = typeof type === "string" ? TYPES[type.toLowerCase()] : undefined;
    if (known === undefined) return fail(`Unknown "type" ${JSON.stringify(type)}; expected stdio, http, streamable-http or sse.`);
    return { type: known };
  }
  if (command !== undefined && url !== undefined) return fail('It has both "command" and "url"; add "type" to say which to use.');
  if (command !== undefined) return { type: "stdio" };
  if (url === undefined) return fail('It has neither "command" (a local server) nor "url" (a remote one).');
  if (typeof url === "string" && /\/sse\/?(?:[?#].*)?$/.test(url)) {
    return { type: "sse", guessed: 'No "type": the URL ends in /sse, so it is taken as a legacy HTTP+SSE server.' };
  }
  return { type: "streamable-http" };
}

function stdioEntry(name: string, v: Record<string, unknown>, extra: Record<string, unknown>): StdioServerEntry | Problem {
  if (typeof v.command !== "string" || v.command.trim() === "") return fail(`"command" must be a non-empty string, not ${describe(v.command)}.`);
  const args = v.args === undefined ? [] : v.args;
  if (!Array.isArray(args)) return fail(`"args" must be a list of strings, not ${describe(args)}.`);
  const badArg = args.findIndex((a) => typeof a !== "string");
  if (badArg >= 0) return fail(`args[${badArg}] is ${describe(args[badArg])}; every argument must be a string.`);
  const env = stringRecord(v.env, "env", "environment values");
  if ("error" in env) return env;
  if (v.cwd !== undefined && typeof v.cwd !== "string") return fail(`"cwd" must be a string, not ${describe(v.cwd)}.`);
  return { name, transport: "stdio", command: v.command, args: args as string[], env: env.record, ...(v.cwd !== undefined ? { cwd: v.cwd } : {}), extra };
}

function httpEntry(name: string, transport: "streamable-http" | "sse", v: Record<string, unknown>, extra: Record<string, unknown>): HttpServerEntry | Problem {
  if (typeof v.url !== "string") return fail(`"url" must be a string, not ${describe(v.url)}.`);
  let parsed: URL;
  try {
    parsed = new URL(v.url);
  } catch {
    return fail(`"url" is not a URL: ${JSON.stringify(v.url)}.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return fail(`"url" must start with http:// or https://, not ${parsed.protocol}//.`);
  const headers = stringRecord(v.headers, "headers", "header values");
  if ("error" in headers) return headers;
  return { name, transport, url: v.url, headers: headers.record, extra };
}

function stringRecord(value: unknown, field: string, what: string): { record: Record<string, string> } | Problem {
  if (value === undefined) return { record: {} };
  if (!isJsonObject(value)) return fail(`"${field}" must be an object of strings, not ${describe(value)}.`);
  const record: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") return fail(`${field}.${key} is ${describe(v)}; ${what} must be strings.`);
    record[key] = v;
  }
  return { record };
}

/** Every string value of an entry with where it sits (`args[1]`, `env.TOKEN`), for placeholder checks. */
function stringsOf(entry: StdioServerEntry | HttpServerEntry): [string, string][] {
  if (entry.transport === "stdio") {
    return [
      ["command", entry.command],
      ...entry.args.map((a, i): [string, string] => [`args[${i}]`, a]),
      ...Object.entries(entry.env).map(([k, v]): [string, string] => [`env.${k}`, v]),
      ...(entry.cwd !== undefined ? [["cwd", entry.cwd] as [string, string]] : []),
    ];
  }
  return [["url", entry.url], ...Object.entries(entry.headers).map(([k, v]): [string, string] => [`headers.${k}`, v])];
}

function placeholderWarnings(where: string, text: string, inputs: ReadonlyMap<string, Readonly<Record<string, unknown>>>, used: Map<string, Readonly<Record<string, unknown>>>): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const token = match[0];
    const inner = match[1] ?? "";
    if (!inner.startsWith("input:")) {
      out.push(`${where} uses ${token}, a variable Patchbay does not expand; it is sent as written, so replace it before connecting.`);
      continue;
    }
    const input = inputs.get(inner.slice("input:".length));
    if (input === undefined) {
      out.push(`${where} refers to ${token}, which the file's "inputs" do not define; it is sent as written, so replace it before connecting.`);
      continue;
    }
    used.set(inner, input);
    const prompt = typeof input.description === "string" ? ` (VS Code asks for "${input.description}")` : "";
    out.push(`${where} uses ${token}${prompt}; it is kept as written, so give the real value before connecting.`);
  }
  return out;
}

/** True when a "__proto__" key sits anywhere in the value; such input is hostile. */
function hasProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (!isJsonObject(value)) return false;
  return Object.keys(value).some((k) => k === "__proto__" || hasProtoKey(value[k]));
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `a ${typeof value} (${String(value)})`;
}
