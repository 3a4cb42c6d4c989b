/**
 * The command line of `patchbay call mcp`: the server (a URL, or a quoted command line started
 * over stdio), then a tool and its JSON arguments, or --list. Everything that can be told from
 * the command line alone is checked here, before anything is started or fetched.
 */
import { addHeader, CallUsageError, needs, parseJsonObject, parseTimeout, tokenFromEnv, toolName } from "./call-options.ts";
import { DEFAULT_MCP_TIMEOUT_MS } from "./call-defaults.ts";
import { commandWords, CommandWordsError } from "./command-words.ts";
import { isEraSetting, type EraSetting } from "../../src/core/mcp/era.ts";

export type McpTarget = (
  | { readonly kind: "stdio"; readonly line: string; readonly argv: readonly [string, ...string[]] }
  | { readonly kind: "http"; readonly url: string; readonly transport: "auto" | "streamable-http" | "sse"; readonly headers: Readonly<Record<string, string>> }
) & {
  /** The protocol era; legacy (initialize) when absent. */
  readonly era?: EraSetting;
};

export type McpAction = { readonly kind: "list" } | { readonly kind: "call"; readonly tool: string; readonly arguments?: Record<string, unknown> };

export interface CallMcpArgs {
  readonly target: McpTarget;
  readonly action: McpAction;
  readonly json: boolean;
  /** Check the arguments against the tool's inputSchema (and find the tool) before sending. */
  readonly check: boolean;
  /** Each step (connect, list, call) waits at most this long. */
  readonly timeoutMs: number;
  /** Get the token by OAuth first (URL servers). */
  readonly oauth?: OAuthCliOptions;
}

export interface OAuthCliOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly metadataUrl?: string;
  readonly scope?: string;
  /** How long to wait for the browser's redirect when the authorization page needs a person. */
  readonly waitMs: number;
}

const TRANSPORTS = ["streamable-http", "sse"] as const;

export function parseCallMcpArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>>): CallMcpArgs {
  const positional: string[] = [];
  const headers: Record<string, string> = {};
  const httpOnly: string[] = [];
  let list = false;
  let json = false;
  let check = true;
  let timeoutMs = DEFAULT_MCP_TIMEOUT_MS;
  let transport: "auto" | "streamable-http" | "sse" = "auto";
  let oauth: Partial<OAuthCliOptions> | undefined;
  let era: EraSetting | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => args[++i];
    if (arg === "--oauth" || arg.startsWith("--oauth-")) {
      oauth = oauthOption(oauth ?? {}, arg, arg === "--oauth" ? undefined : value(), env);
      httpOnly.push("--oauth");
    } else if (arg === "--list") list = true;
    else if (arg === "--json") json = true;
    else if (arg === "--no-check") check = false;
    else if (arg === "--timeout") timeoutMs = parseTimeout(value());
    else if (arg === "--header" || arg === "-H") {
      addHeader(headers, arg, value());
      httpOnly.push(arg);
    } else if (arg === "--token-env") {
      headers.Authorization = `Bearer ${tokenFromEnv(value(), env)}`;
      httpOnly.push(arg);
    } else if (arg === "--era") {
      const v = value();
      if (!isEraSetting(v)) throw new CallUsageError(`--era must be legacy, modern or auto${v === undefined ? "" : `, got ${JSON.stringify(v)}`}`);
      era = v;
    } else if (arg === "--transport") {
      const v = value();
      if (!(TRANSPORTS as readonly (string | undefined)[]).includes(v)) throw new CallUsageError(`--transport must be streamable-http or sse${v === undefined ? "" : `, got ${JSON.stringify(v)}`}`);
      transport = v as (typeof TRANSPORTS)[number];
      httpOnly.push(arg);
    } else if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith("-") && arg !== "-") throw new CallUsageError(`unknown option '${arg}'`);
    else positional.push(arg);
  }
  const [server, tool, argumentsJson, ...extra] = positional;
  if (server === undefined) throw new CallUsageError("give the server: call mcp <url | \"command line\"> <tool> ['<json arguments>'], or --list");
  const target: McpTarget = { ...targetOf(server, { transport, headers, httpOnly }), ...(era ? { era } : {}) };
  if (oauth && Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) throw new CallUsageError("--oauth gets the token itself: leave out --token-env and an Authorization header");
  const auth = oauth ? { oauth: { waitMs: 300_000, ...oauth } } : {};
  if (list) {
    if (tool !== undefined) throw new CallUsageError(`--list takes no tool (got ${JSON.stringify(tool)})`);
    return { target, action: { kind: "list" }, json, check, timeoutMs, ...auth };
  }
  if (tool === undefined) throw new CallUsageError("give the tool to call after the server, or --list to see the tools");
  if (extra.length > 0) throw new CallUsageError(`give the arguments as one JSON object in quotes, e.g. '{"message": "hi"}' (got ${extra.length + 3} arguments)`);
  const parsed = argumentsJson === undefined ? undefined : parseJsonObject(argumentsJson, "tool arguments");
  return { target, action: { kind: "call", tool: toolName(tool), ...(parsed ? { arguments: parsed } : {}) }, json, check, timeoutMs, ...auth };
}

/** One --oauth option into the options so far; the client secret comes from the environment only. */
function oauthOption(into: Partial<OAuthCliOptions>, flag: string, value: string | undefined, env: Readonly<Record<string, string | undefined>>): Partial<OAuthCliOptions> {
  if (flag === "--oauth") return into;
  if (value === undefined || value === "") throw needs(flag, flag === "--oauth-client-secret-env" ? "MCP_CLIENT_SECRET" : flag === "--oauth-wait" ? "120" : "<value>");
  switch (flag) {
    case "--oauth-client-id":
      return { ...into, clientId: value };
    case "--oauth-client-secret-env": {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new CallUsageError(`${flag} needs the name of an environment variable, e.g. ${flag} MCP_CLIENT_SECRET`);
      const secret = env[value];
      if (!secret) throw new CallUsageError(`${flag} ${value}: the environment variable ${value} is not set or empty`);
      return { ...into, clientSecret: secret };
    }
    case "--oauth-client-metadata-url":
      if (!/^https?:\/\//.test(value)) throw new CallUsageError("--oauth-client-metadata-url needs an https URL");
      return { ...into, metadataUrl: value };
    case "--oauth-scope":
      return { ...into, scope: value };
    case "--oauth-wait": {
      const seconds = Number(value);
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) throw new CallUsageError("--oauth-wait must be seconds from 1 to 3600");
      return { ...into, waitMs: seconds * 1000 };
    }
    default:
      throw new CallUsageError(`unknown option '${flag}'`);
  }
}

function targetOf(server: string, http: { transport: "auto" | "streamable-http" | "sse"; headers: Record<string, string>; httpOnly: readonly string[] }): McpTarget {
  if (/^https?:\/\//i.test(server)) {
    try {
      new URL(server);
    } catch {
      throw new CallUsageError(`${JSON.stringify(server)} is not a valid URL`);
    }
    return { kind: "http", url: server, transport: http.transport, headers: http.headers };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server)) throw new CallUsageError(`${JSON.stringify(server)}: only http(s) URLs are MCP servers here; anything else is a command line to start`);
  if (http.httpOnly.length > 0) throw new CallUsageError(`${[...new Set(http.httpOnly)].join(", ")} applies to a server at a URL, not to a command started over stdio`);
  let argv: string[];
  try {
    argv = commandWords(server);
  } catch (err) {
    if (err instanceof CommandWordsError) throw new CallUsageError(`the server command ${JSON.stringify(server)}: ${err.message}`);
    throw err;
  }
  return { kind: "stdio", line: server, argv: argv as [string, ...string[]] };
}
