/**
 * `patchbay start` options from argv and the environment, checked up front so a mistake is one
 * clear line before anything listens. Flags win over environment variables.
 */
import { isAbsolute, join, resolve } from "node:path";
import { isLoopbackAddress, isWildcardHost, normalizeOrigin } from "./http/origin-policy.ts";
import { isWebSocketUrl, natsUrlProblem } from "./nats/nats-urls.ts";

/** The documented default port. */
export const DEFAULT_PORT = 7420;
/** Default cap on request bodies: 1 MiB. */
export const DEFAULT_MAX_BODY = 1024 * 1024;

export type NatsConfig =
  | { readonly mode: "managed" }
  | { readonly mode: "external"; readonly url: string; readonly wsUrl?: string }
  | { readonly mode: "off" };

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly workspace: string;
  readonly nats: NatsConfig;
  readonly allowOrigins: readonly string[];
  readonly maxBodyBytes: number;
  readonly distDir: string;
  readonly dangerouslyExpose: boolean;
}

/** A bad option or value; the message is one line meant for the terminal. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export interface ConfigContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly cwd: string;
  /** Only asked when --dist is not given. */
  readonly packageRoot: () => string;
}

const VALUE_OPTIONS = new Set(["--host", "--port", "--workspace", "--nats-url", "--nats-ws-url", "--allow-origin", "--max-body", "--dist"]);
const FLAG_OPTIONS = new Set(["--no-nats", "--dangerously-expose"]);

interface RawOptions {
  readonly values: Map<string, string[]>;
  readonly flags: Set<string>;
}

function splitArgs(argv: readonly string[]): RawOptions {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (FLAG_OPTIONS.has(name)) {
      if (name !== arg) throw new ConfigError(`${name} takes no value`);
      flags.add(name);
    } else if (VALUE_OPTIONS.has(name)) {
      const value = name !== arg ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (name === arg && value.startsWith("--"))) throw new ConfigError(`${name} needs a value`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (arg.startsWith("-")) {
      throw new ConfigError(`unknown option '${name}'`);
    } else {
      throw new ConfigError(`unexpected argument '${arg}'`);
    }
  }
  return { values, flags };
}

function single(raw: RawOptions, name: string): string | undefined {
  const all = raw.values.get(name);
  if (all && all.length > 1) throw new ConfigError(`${name} was given more than once`);
  return all?.[0];
}

function parsePort(value: string, source: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`${source} must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function parseHost(value: string, expose: boolean): string {
  const host = value.trim().replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new ConfigError("--host must not be empty");
  if (!expose && (isWildcardHost(host) || !isLoopbackAddress(host))) {
    throw new ConfigError(
      `refusing to listen on ${host}: Patchbay can spawn processes and fetch URLs, so it binds loopback only; pass --dangerously-expose to allow a non-loopback or wildcard address`,
    );
  }
  return host;
}

function expandPath(value: string, ctx: ConfigContext): string {
  const expanded = value === "~" ? ctx.home : value.startsWith("~/") ? join(ctx.home, value.slice(2)) : value;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(ctx.cwd, expanded);
}

function parseNats(raw: RawOptions, env: ConfigContext["env"]): NatsConfig {
  const flagUrl = single(raw, "--nats-url");
  if (raw.flags.has("--no-nats")) {
    if (flagUrl !== undefined) throw new ConfigError("use either --nats-url or --no-nats, not both");
    return { mode: "off" };
  }
  const url = flagUrl ?? (env.NATS_URL || undefined);
  const wsUrl = single(raw, "--nats-ws-url") ?? (env.NATS_WS_URL || undefined);
  if (url === undefined) {
    if (wsUrl !== undefined) throw new ConfigError("--nats-ws-url / NATS_WS_URL needs --nats-url / NATS_URL too");
    return { mode: "managed" };
  }
  const source = flagUrl !== undefined ? "--nats-url" : "NATS_URL";
  const problem = natsUrlProblem(url);
  if (problem) throw new ConfigError(`${source}: ${problem}`);
  if (wsUrl !== undefined) {
    const wsProblem = natsUrlProblem(wsUrl, true);
    if (wsProblem) throw new ConfigError(`--nats-ws-url / NATS_WS_URL: ${wsProblem}`);
    return { mode: "external", url, wsUrl };
  }
  return isWebSocketUrl(url) ? { mode: "external", url, wsUrl: url } : { mode: "external", url };
}

/** Parse the options of `patchbay start`; throws ConfigError with a one-line message. */
export function parseStartConfig(argv: readonly string[], ctx: ConfigContext): Config {
  const raw = splitArgs(argv);
  const expose = raw.flags.has("--dangerously-expose");
  const host = parseHost(single(raw, "--host") ?? "127.0.0.1", expose);
  const portFlag = single(raw, "--port");
  const port =
    portFlag !== undefined
      ? parsePort(portFlag, "--port")
      : ctx.env.PORT
        ? parsePort(ctx.env.PORT, "PORT")
        : DEFAULT_PORT;
  const workspace = expandPath(single(raw, "--workspace") ?? (ctx.env.PATCHBAY_WORKSPACE || "~/.patchbay"), ctx);
  const allowOrigins = (raw.values.get("--allow-origin") ?? []).map((value) => {
    const origin = normalizeOrigin(value);
    if (origin === null) throw new ConfigError(`--allow-origin ${JSON.stringify(value)} is not an origin like http://localhost:5173`);
    return origin;
  });
  const maxBody = single(raw, "--max-body");
  if (maxBody !== undefined && (!/^\d{1,12}$/.test(maxBody) || Number(maxBody) < 1)) {
    throw new ConfigError(`--max-body must be a positive number of bytes, got ${JSON.stringify(maxBody)}`);
  }
  const dist = single(raw, "--dist");
  return {
    host,
    port,
    workspace,
    nats: parseNats(raw, ctx.env),
    allowOrigins,
    maxBodyBytes: maxBody !== undefined ? Number(maxBody) : DEFAULT_MAX_BODY,
    distDir: dist !== undefined ? expandPath(dist, ctx) : join(ctx.packageRoot(), "dist", "client"),
    dangerouslyExpose: expose,
  };
}
