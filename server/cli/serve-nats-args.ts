/**
 * The options of `patchbay serve --nats`: the servers (several --nats-url, or one comma-separated
 * list, for a cluster), the identity and instance names, and credentials the way the NATS
 * workbench takes them: a .creds file, an NKey seed file, a token or a password from an
 * environment variable named on the command line, never the secret itself.
 */
import { isValidIdentityName } from "../../src/core/fisk/codec/index.ts";
import { splitServerCredentials } from "../../src/core/nats/server-credentials.ts";
import { DEFAULT_NATS_URL } from "./call-defaults.ts";

export class NatsArgsError extends Error {}

export interface NatsServeArgs {
  /** Comma-separated server URLs. */
  readonly servers: string;
  readonly identity?: string;
  readonly instance?: string;
  readonly credsFile?: string;
  readonly nkeyFile?: string;
  readonly token?: string;
  readonly user?: string;
  readonly password?: string;
  readonly keepaliveMs?: number;
  readonly taskWorkers?: number;
}

/** The flags only --nats takes, each with a value. */
export const NATS_ONLY_FLAGS = new Set(["--nats-url", "--identity", "--instance", "--creds", "--nkey", "--token-env", "--user", "--password-env", "--keepalive", "--task-workers"]);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function fromEnv(flag: string, name: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (name === undefined || !ENV_NAME.test(name)) throw new NatsArgsError(`${flag} needs the name of an environment variable, e.g. ${flag} NATS_TOKEN`);
  const value = env[name];
  if (value === undefined || value.trim() === "") throw new NatsArgsError(`${flag} ${name}: the environment variable ${name} is not set or empty`);
  return value.trim();
}

function name(flag: string, value: string | undefined, what: string): string {
  if (value === undefined || !isValidIdentityName(value)) throw new NatsArgsError(`${flag} needs ${what}: letters, digits, '-' and '_' only, got ${JSON.stringify(value ?? "")}`);
  return value;
}

function whole(flag: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || n < min || n > max) throw new NatsArgsError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value ?? "")}`);
  return n;
}

/** Reads the --nats options out of `pairs` (flag and value, in order). */
export function readNatsArgs(pairs: readonly (readonly [string, string | undefined])[], env: Readonly<Record<string, string | undefined>>): NatsServeArgs {
  const urls: string[] = [];
  const out: { -readonly [K in keyof NatsServeArgs]?: NatsServeArgs[K] } = {};
  for (const [flag, value] of pairs) {
    if (flag === "--nats-url") {
      if (value === undefined || value.startsWith("-")) throw new NatsArgsError(`--nats-url needs a server URL, e.g. --nats-url ${DEFAULT_NATS_URL}`);
      // A secret on the command line lands in shell history and process listings.
      if (/\/\/[^/@,]*@/.test(value)) throw new NatsArgsError("--nats-url must not carry credentials; use --creds, --nkey, --token-env or --user with --password-env");
      urls.push(...value.split(",").map((u) => u.trim()).filter((u) => u !== ""));
    } else if (flag === "--identity") out.identity = name(flag, value, "the identity to serve");
    else if (flag === "--instance") out.instance = name(flag, value, "this instance's name");
    else if (flag === "--creds" || flag === "--nkey") {
      if (value === undefined || value.startsWith("-")) throw new NatsArgsError(`${flag} needs a file, e.g. ${flag} ${flag === "--creds" ? "~/.nkeys/creds/user.creds" : "user.nk"}`);
      if (flag === "--creds") out.credsFile = value;
      else out.nkeyFile = value;
    } else if (flag === "--token-env") out.token = fromEnv(flag, value, env);
    else if (flag === "--user") out.user = name(flag, value, "a user name");
    else if (flag === "--password-env") out.password = fromEnv(flag, value, env);
    else if (flag === "--keepalive") out.keepaliveMs = whole(flag, value, 100, 3_600_000);
    else if (flag === "--task-workers") out.taskWorkers = whole(flag, value, 1, 1024);
  }
  const given = [out.credsFile, out.nkeyFile, out.token, out.user].filter((v) => v !== undefined).length;
  if (given > 1) throw new NatsArgsError("give one way to authenticate: --creds, --nkey, --token-env, or --user with --password-env");
  if ((out.user === undefined) !== (out.password === undefined)) throw new NatsArgsError("--user and --password-env go together");
  const servers = urls.length > 0 ? urls : (env.NATS_URL?.split(",").map((u) => u.trim()).filter((u) => u !== "") ?? []);
  const list = servers.length > 0 ? servers : [DEFAULT_NATS_URL];
  for (const url of list) {
    if (!/^(nats|tls):\/\/[^\s]+$/i.test(url)) throw new NatsArgsError(`--nats-url must be nats:// or tls:// URLs, got ${JSON.stringify(splitServerCredentials(url, undefined).servers)}`);
  }
  return { servers: list.join(","), ...out };
}
