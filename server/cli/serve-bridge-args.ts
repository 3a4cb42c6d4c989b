/**
 * The options of `patchbay serve --http|--stdio --bridge <identity>…`: the fisk-ai agents whose
 * tools are served over MCP, the include/exclude patterns on their tool names, and the NATS
 * connection (the connection flags of --nats; --identity and the rest are for serving an agent).
 */
import { bridgeConfigProblem, type BridgeConfig } from "../../src/core/serving/bridge/bridge-plan.ts";
import { NatsArgsError, readNatsArgs, type NatsServeArgs } from "./serve-nats-args.ts";

export interface BridgeArgs extends BridgeConfig {
  readonly nats: NatsServeArgs;
}

/** Flags that take a value and are only for bridging. */
export const BRIDGE_FLAGS = new Set(["--bridge", "--bridge-include", "--bridge-exclude"]);
/** The --nats flags a bridge also takes: where NATS is and how to log in. */
const CONNECTION_FLAGS = new Set(["--nats-url", "--creds", "--nkey", "--token-env", "--user", "--password-env"]);

/** Reads the bridge and connection flags (flag and value, in order); throws NatsArgsError on a mistake. */
export function readBridgeArgs(
  bridgePairs: readonly (readonly [string, string | undefined])[],
  natsPairs: readonly (readonly [string, string | undefined])[],
  env: Readonly<Record<string, string | undefined>>,
): BridgeArgs {
  const identities: string[] = [];
  const include: string[] = [];
  const exclude: string[] = [];
  for (const [flag, value] of bridgePairs) {
    if (value === undefined || value === "" || (flag === "--bridge" && value.startsWith("-"))) {
      throw new NatsArgsError(flag === "--bridge" ? "--bridge needs a fisk-ai agent identity, e.g. --bridge nats-tools" : `${flag} needs a pattern on tool names, e.g. ${flag} '^stream_'`);
    }
    if (flag === "--bridge") identities.push(...value.split(",").map((v) => v.trim()).filter((v) => v !== ""));
    else if (flag === "--bridge-include") include.push(value);
    else exclude.push(value);
  }
  if (identities.length === 0) throw new NatsArgsError("--bridge-include and --bridge-exclude go with --bridge <identity>");
  const stray = natsPairs.find(([flag]) => !CONNECTION_FLAGS.has(flag));
  if (stray) throw new NatsArgsError(`${stray[0]} is for --nats; with --bridge give only where NATS is and how to log in (${[...CONNECTION_FLAGS].join(", ")})`);
  const config: BridgeConfig = { identities, include, exclude };
  const problem = bridgeConfigProblem(config);
  if (problem) throw new NatsArgsError(`--bridge: ${problem}`);
  return { ...config, nats: readNatsArgs(natsPairs, env) };
}
