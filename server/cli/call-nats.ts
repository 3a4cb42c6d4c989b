/**
 * `patchbay call nats <identity> <tool> '<json input>'`: one fisk-ai tool call over NATS through
 * the NATS workbench's own client and TCP connector, no browser. Prints the tool's output (with
 * --json, every message of the reply set as received, one per line) and names the outcome in the
 * console's words. Exits 0 when the tool ran and succeeded, 1 otherwise, 2 on a usage error.
 */
import { readFile } from "node:fs/promises";
import { systemClock, systemScheduler } from "../../src/core/env/index.ts";
import { callTool, viewToolOutcome, type FiskClientDeps, type ReplySetEntry } from "../../src/core/fisk/client/index.ts";
import { textOf } from "../../src/core/fisk/client/deps.ts";
import { toolSubject } from "../../src/core/fisk/codec/index.ts";
import { splitServerCredentials } from "../../src/core/nats/server-credentials.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsAuth, NatsPort } from "../../src/core/nats/port.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import type { CallDeps } from "./call-a2a.ts";
import { DEFAULT_NATS_URL } from "./call-defaults.ts";
import { CallUsageError, needs, parseJsonObject, parseTimeout, tokenFromEnv, toolName } from "./call-options.ts";

const SENDER = { name: "patchbay-cli" };

export interface CallNatsArgs {
  readonly identity: string;
  readonly tool: string;
  readonly input: Record<string, unknown> | null;
  readonly server: string;
  readonly credsFile?: string;
  readonly token?: string;
  /** Longest silence between the reply set's messages; the client's own default when absent. */
  readonly timeoutMs?: number;
  readonly json: boolean;
}

export function parseCallNatsArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>>): CallNatsArgs {
  const positional: string[] = [];
  let server = env.PATCHBAY_NATS_URL?.trim() || DEFAULT_NATS_URL;
  let credsFile: string | undefined;
  let token: string | undefined;
  let timeoutMs: number | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => args[++i];
    if (arg === "--json") json = true;
    else if (arg === "--timeout") timeoutMs = parseTimeout(value());
    else if (arg === "--server" || arg === "-s") {
      const v = value();
      if (v === undefined) throw needs(arg, DEFAULT_NATS_URL);
      server = v;
    } else if (arg === "--creds") {
      credsFile = value();
      if (credsFile === undefined) throw needs(arg, "~/.nkeys/creds/user.creds");
    } else if (arg === "--token-env") token = tokenFromEnv(value(), env);
    else if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith("-") && arg !== "-") throw new CallUsageError(`unknown option '${arg}'`);
    else positional.push(arg);
  }
  if (credsFile !== undefined && token !== undefined) throw new CallUsageError("give --creds or --token-env, not both");
  if (!server.split(",").every((s) => /^\s*(nats|tls):\/\/[^\s]+$/i.test(s))) throw new CallUsageError(`the server must be a nats:// or tls:// URL (comma-separated for several), got ${JSON.stringify(splitServerCredentials(server, undefined).servers)}`);
  const [identity, tool, inputJson, ...extra] = positional;
  if (identity === undefined || tool === undefined) throw new CallUsageError("give the agent and the tool: call nats <identity> <tool> ['<json input>']");
  if (extra.length > 0) throw new CallUsageError(`give the input as one JSON object in quotes, e.g. '{"message": "hi"}' (got ${positional.length} arguments)`);
  try {
    toolSubject(identity);
  } catch (err) {
    throw new CallUsageError((err as Error).message);
  }
  const input = inputJson === undefined ? null : parseJsonObject(inputJson, "tool input");
  return { identity, tool: toolName(tool), input, server, ...(credsFile !== undefined ? { credsFile } : {}), ...(token !== undefined ? { token } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}), json };
}

function printRaw(entry: ReplySetEntry, deps: CallDeps): void {
  if (entry.disposition !== "foreign") deps.stdout(`${textOf(entry.message.data)}\n`);
}

async function authOf(args: CallNatsArgs, deps: CallDeps): Promise<NatsAuth | undefined | number> {
  if (args.token !== undefined) return { token: args.token };
  if (args.credsFile === undefined) return undefined;
  try {
    return { creds: await readFile(args.credsFile, "utf8") };
  } catch (err) {
    deps.stderr(`patchbay call nats: cannot read the --creds file ${JSON.stringify(args.credsFile)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Run 'patchbay call --help' for usage.\n`);
    return 2;
  }
}

export async function runCallNats(args: CallNatsArgs, deps: CallDeps): Promise<number> {
  const auth = await authOf(args, deps);
  if (typeof auth === "number") return auth;
  let port: NatsPort;
  try {
    port = await tcpConnector().connect({ servers: args.server, name: "patchbay-cli", ...(auth ? { auth } : {}) });
  } catch (err) {
    deps.stderr(`call nats: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const engine = createValidationEngine();
    const fisk: FiskClientDeps = {
      port,
      clock: systemClock(performance, Date),
      scheduler: systemScheduler(),
      random: (b) => crypto.getRandomValues(b),
      sender: SENDER,
      validate: (text) => engine.session().validateText(text),
    };
    deps.stderr(`agent ${args.identity}: tool.request ${args.tool} to ${toolSubject(args.identity)} on ${splitServerCredentials(port.server, undefined).servers}\n`);
    const result = await callTool(fisk, args.identity, args.tool, args.input, {
      ...(args.timeoutMs !== undefined ? { idleMs: args.timeoutMs, allowShortIdle: true } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      // Raw messages are printed as they arrive, so a long call shows its ack and keepalives.
      ...(args.json ? { onEntry: (entry: ReplySetEntry) => printRaw(entry, deps) } : {}),
    });
    const own = result.set.entries.map((entry, i) => ({ entry, verdict: result.verdicts?.[i] })).filter(({ entry }) => entry.disposition !== "foreign");
    for (const { entry, verdict } of own) {
      if (!verdict || verdict.status === "valid" || verdict.status === "error-response") continue;
      const issue = verdict.issues.find((i) => i.severity === "error");
      deps.stderr(`call nats: warning: the ${entry.protocol ?? "message"}${entry.sequence !== undefined ? ` #${entry.sequence}` : ""} is not valid fisk-ai (${verdict.status})${issue ? `: ${issue.pointer ? `${issue.pointer}: ` : ""}${issue.message}` : ""}\n`);
    }
    const outcome = result.outcome;
    if (!args.json && (outcome.kind === "ran" || outcome.kind === "output" || outcome.kind === "harness-failure") && outcome.output !== "") {
      deps.stdout(outcome.output.endsWith("\n") ? outcome.output : `${outcome.output}\n`);
    }
    const view = viewToolOutcome(result.set, outcome);
    if (view.tone === "ok") return 0;
    deps.stderr(`call nats: ${view.headline}${view.detail ? ` (${view.detail})` : ""}\n`);
    return 1;
  } finally {
    await port.close().catch(() => {});
  }
}
