/**
 * `patchbay serve --http|--stdio --bridge <identity>…`: the NATS side of the bridge. Connects,
 * discovers each agent and plans the bridged tools; what stops a bridge (server/serving/bridge-open.ts)
 * ends the command with exit 1. Loaded only when bridging, so plain MCP serving stays light.
 */
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsAuth, NatsPort } from "../../src/core/nats/port.ts";
import type { FiskBridge } from "../../src/core/serving/bridge/fisk-bridge.ts";
import { TOOLKIT_FORMAT, TOOLKIT_VERSION, type Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { openBridge } from "../serving/bridge-open.ts";
import type { BridgeArgs } from "./serve-bridge-args.ts";
import { authOf, nodeWords } from "./serve-nats.ts";
import type { ServeDeps } from "./serve.ts";

/** What a bridge serves when given no toolkit: nothing of its own. */
export const BRIDGE_TOOLKIT: Toolkit = {
  format: TOOLKIT_FORMAT,
  version: TOOLKIT_VERSION,
  name: "patchbay-bridge",
  description: "fisk-ai agents' tools, bridged from NATS by Patchbay.",
  filter: { include: [], exclude: [] },
  tools: [],
};

export interface StartedBridge {
  readonly bridge: FiskBridge;
  close(): Promise<void>;
}

/** Connects and discovers; resolves with the bridge, or with the exit code after saying why on stderr. */
export async function startBridge(args: BridgeArgs, toolkit: Toolkit, deps: ServeDeps, tell: (line: string) => void): Promise<StartedBridge | number> {
  const say = (text: string) => deps.stderr(`patchbay serve: ${text}\n`);
  let auth: NatsAuth | undefined;
  try {
    auth = await authOf(args.nats, deps.cwd);
  } catch (err) {
    say(`cannot read the credentials file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return 2;
  }
  let port: NatsPort;
  try {
    port = await tcpConnector().connect({ servers: args.nats.servers, name: "patchbay-bridge", ...(auth ? { auth } : {}) });
  } catch (err) {
    say(`cannot reach NATS to bridge ${args.identities.join(", ")}: ${(err as Error).message}`);
    return 1;
  }
  const close = () => port.close().catch(() => undefined);
  const { bridge, plan, fatal } = await openBridge(port, args, toolkit, deps.logger);
  if (fatal.length > 0) {
    for (const line of fatal) say(line);
    await close();
    return 1;
  }
  const names = plan.tools.map((t) => (t.prefixed ? `${t.name} (${t.remoteName})` : t.name));
  tell(`Bridging ${plan.tools.length} tool(s) from fisk-ai agent(s) ${args.identities.join(", ")} over NATS on ${nodeWords(port.node?.(), port.server)}${names.length > 0 ? `: ${names.join(", ")}` : ""}\n`);
  return { bridge, close };
}
