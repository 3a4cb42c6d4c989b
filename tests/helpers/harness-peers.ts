/**
 * The real peers a collection runs against in the harness tests: server-everything over stdio,
 * Patchbay's served demo agent over MCP (Streamable HTTP), A2A and fisk-ai on NATS, and the
 * A2A SDK peer. One start, one close.
 */
import { fileURLToPath } from "node:url";
import { startA2aServing, type A2aServing } from "../../server/serving/a2a-engine.ts";
import { startMcpServing, type McpServing } from "../../server/serving/mcp-engine.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import type { FiskServer } from "../../src/core/serving/fisk/index.ts";
import { startSdkAgent, type SdkAgent } from "./a2a-peers/index.ts";
import { EVERYTHING_JS } from "./everything-server.ts";
import { startDemoAgent } from "./demo-agent.ts";

const EVERYTHING = EVERYTHING_JS;
/** server-everything over stdio, as a command line a collection's MCP target holds. */
export const EVERYTHING_STDIO = `'${process.execPath}' '${EVERYTHING}' stdio`;
export const ODD_RESULTS_STDIO = `'${process.execPath}' '${fileURLToPath(new URL("../fixtures/mcp/odd-results-server.mjs", import.meta.url))}'`;

export interface HarnessPeers {
  readonly natsUrl: string;
  /** The served fisk-ai agent's identity. */
  readonly identity: string;
  readonly mcpUrl: string;
  readonly a2aCard: string;
  readonly sdkCard: string;
  close(): Promise<void>;
}

export async function startHarnessPeers(natsUrl: string): Promise<HarnessPeers> {
  const identity = `demo-${crypto.randomUUID().slice(0, 8)}`;
  let port: NatsPort | undefined;
  let agent: FiskServer | undefined;
  let mcp: McpServing | undefined;
  let a2a: A2aServing | undefined;
  let sdk: SdkAgent | undefined;
  const close = async () => {
    await agent?.stop();
    await port?.close();
    await Promise.all([mcp?.close(), a2a?.close(), sdk?.close()]);
  };
  try {
    port = await tcpConnector().connect({ servers: natsUrl, name: "harness-peers" });
    agent = await startDemoAgent(port, identity);
    [mcp, a2a, sdk] = await Promise.all([
      startMcpServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger }),
      startA2aServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger }),
      startSdkAgent(),
    ]);
  } catch (err) {
    await close();
    throw err;
  }
  return { natsUrl, identity, mcpUrl: mcp.url, a2aCard: a2a.cardUrl, sdkCard: sdk.cardUrl, close };
}
